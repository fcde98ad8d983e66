import Foundation
import Testing
@_spi(Integrator) import IdentityFlow

extension InteropSuite {
    @Suite("Interop: tokens and provider errors against the fixture OpenID provider")
    struct TokenInteropTests {
        @Test("discovery names the fixture's endpoints and its issuer")
        func discovery() async throws {
            let metadata = try await InteropEnvironment.service().providerMetadata()
            #expect(metadata.issuer == InteropEnvironment.issuer?.absoluteString)
            #expect(metadata.revocationEndpoint != nil)
            #expect(metadata.jwksURI != nil)
        }

        @Test("code exchange validates the ID token; userinfo; refresh rotates; the rotated-out token is refused")
        func refreshRotation() async throws {
            let service = try InteropEnvironment.service()
            let request = try InteropEnvironment.request()
            let tokens = try await service.exchangeCode(try await InteropEnvironment.code(for: request, service: service), request: request)
            let idToken = try #require(tokens.idToken)
            let info = try await service.validateIdToken(idToken, nonce: request.nonce.value)
            #expect(info.nonce == request.nonce.value)
            #expect(info.audiences.contains(InteropEnvironment.clientID))
            #expect(info.email == "alice@example.test")
            let claims = try await service.userInfo(accessToken: tokens.accessToken, subject: info.subject)
            #expect(claims["sub"]?.stringValue == info.subject)
            #expect(claims["preferred_username"]?.stringValue == "alice")

            let first = try #require(tokens.refreshToken)
            let refreshed = try await service.refresh(first)
            let second = try #require(refreshed.refreshToken)
            #expect(second != first, "the rotated refresh token replaces the old one")
            #expect(refreshed.accessToken != tokens.accessToken)
            let authenticated = try await service.userInfo(accessToken: refreshed.accessToken, subject: info.subject)
            #expect(authenticated["sub"]?.stringValue == info.subject)
            let reused = await InteropEnvironment.expectError(.externalIdentityProviderFailure) { () throws(IdentityFlowError) in
                try await service.refresh(first)
            }
            #expect(reused?.oauthError == "invalid_grant")
        }

        @Test("logout-style revocation: the access token no longer opens userinfo and the refresh token no longer refreshes")
        func revocation() async throws {
            let service = try InteropEnvironment.service()
            let tokens = try await InteropEnvironment.tokens(service: service)
            let subject = try await service.validateIdToken(try #require(tokens.idToken), nonce: nil).subject
            _ = try await service.userInfo(accessToken: tokens.accessToken, subject: subject)
            try await service.revoke(tokens)
            let userinfo = await InteropEnvironment.expectError(.userNotAuthenticated) { () throws(IdentityFlowError) in
                try await service.userInfo(accessToken: tokens.accessToken, subject: subject)
            }
            #expect(userinfo?.oauthError != nil)
            let refreshToken = try #require(tokens.refreshToken)
            await InteropEnvironment.expectError(.externalIdentityProviderFailure) { () throws(IdentityFlowError) in try await service.refresh(refreshToken) }
        }

        @Test("a reused code is invalid_grant → 10024")
        func reusedCode() async throws {
            let service = try InteropEnvironment.service()
            let request = try InteropEnvironment.request()
            let code = try await InteropEnvironment.code(for: request, service: service)
            _ = try await service.exchangeCode(code, request: request)
            let error = await InteropEnvironment.expectError(.externalIdentityProviderFailure) { () throws(IdentityFlowError) in
                try await service.exchangeCode(code, request: request)
            }
            #expect(error?.oauthError == "invalid_grant")
        }

        @Test("a wrong PKCE verifier is invalid_grant → 10024")
        func wrongVerifier() async throws {
            let service = try InteropEnvironment.service()
            let request = try InteropEnvironment.request()
            let code = try await InteropEnvironment.code(for: request, service: service)
            let forged = AuthorizationRequest(
                redirectURI: request.redirectURI, scopes: request.scopes, state: request.state.value,
                nonce: request.nonce.value, codeVerifier: String(repeating: "w", count: 43))
            let error = await InteropEnvironment.expectError(.externalIdentityProviderFailure) { () throws(IdentityFlowError) in
                try await service.exchangeCode(code, request: forged)
            }
            #expect(error?.oauthError == "invalid_grant")
        }

        @Test("a redirect URI differing from the authorization request's is invalid_request → 10015")
        func mismatchingRedirect() async throws {
            let service = try InteropEnvironment.service()
            let request = try InteropEnvironment.request()
            let code = try await InteropEnvironment.code(for: request, service: service)
            let other = AuthorizationRequest(
                redirectURI: URL(string: "http://127.0.0.1/callback")!, scopes: request.scopes, state: request.state.value,
                nonce: request.nonce.value, codeVerifier: request.codeVerifier.value)
            let error = await InteropEnvironment.expectError(.requestInvalid) { () throws(IdentityFlowError) in
                try await service.exchangeCode(code, request: other)
            }
            #expect(error?.oauthError == "invalid_request")
        }

        @Test("an unknown client id is invalid_client → 10001")
        func unknownClient() async throws {
            let service = try InteropEnvironment.service()
            let request = try InteropEnvironment.request()
            let code = try await InteropEnvironment.code(for: request, service: service)
            let stranger = try InteropEnvironment.service(clientID: "no-such-client")
            let error = await InteropEnvironment.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
                try await stranger.exchangeCode(code, request: request)
            }
            #expect(error?.oauthError == "invalid_client")
        }

        @Test("deregistration removes the profile on the server, and only on the PIN key's proof")
        func deregistration() async throws {
            let service = try InteropEnvironment.service()
            let client = try await InteropEnvironment.client(service)
            let result = try await client.registerUser(
                .provider(IdentityProvider(identifier: "custom-one", name: "C", kind: .custom(.oneStep))), responder: InteropResponder(customData: ["me"]))
            #expect(try await service.profileExists(result.profile))
            let forged = PinKeyAuthorization(nonce: Array(repeating: 7, count: 32), proof: Array(repeating: 1, count: 64))
            let refused = await InteropEnvironment.expectError(.requestInvalid) { () throws(IdentityFlowError) in
                try await service.deregister(result.profile, authorization: forged)
            }
            #expect(refused?.oauthError == "invalid_nonce")
            #expect(try await service.profileExists(result.profile))
            // The client holds the PIN key of the session the registration opened.
            try await client.deregister(result.profile)
            #expect(try await !service.profileExists(result.profile))
        }
    }
}
