import Foundation
import Testing
@_spi(Integrator) import IdentityFlow

extension InteropSuite {
    /// The fixture's confidential client `identityflow-confidential` (django-oauth-toolkit, its
    /// secret stored hashed), which lists `client_secret_basic` and `client_secret_post`.
    @Suite("Interop: a confidential client (client_secret_basic, client_secret_post)")
    struct ConfidentialClientInteropTests {
        static let clientID = "identityflow-confidential"
        static let secret = "identityflow-confidential-secret"

        static func service(_ authentication: ClientAuthentication) throws -> HTTPIdentityService {
            var configuration = try InteropEnvironment.configuration(clientID: clientID)
            configuration.clientAuthentication = authentication
            return try HTTPIdentityService(configuration: configuration)
        }

        @Test(
            "code exchange, refresh and revocation with the secret, Basic or in the body",
            arguments: [ClientAuthentication.clientSecretBasic(Redacted(secret)), .clientSecretPost(Redacted(secret))])
        func lifecycle(_ authentication: ClientAuthentication) async throws {
            let service = try Self.service(authentication)
            let tokens = try await InteropEnvironment.tokens(service: service)
            let info = try await service.validateIdToken(try #require(tokens.idToken), nonce: nil)
            #expect(info.audiences.contains(Self.clientID))
            let refreshed = try await service.refresh(try #require(tokens.refreshToken))
            #expect(refreshed.accessToken != tokens.accessToken)
            try await service.revoke(refreshed)
            let refreshToken = try #require(refreshed.refreshToken)
            await InteropEnvironment.expectError(.externalIdentityProviderFailure) { () throws(IdentityFlowError) in
                try await service.refresh(refreshToken)
            }
        }

        @Test("a wrong secret is invalid_client → 10001, and the error names no secret")
        func wrongSecret() async throws {
            let good = try Self.service(.clientSecretBasic(Redacted(Self.secret)))
            let tokens = try await InteropEnvironment.tokens(service: good)
            let refreshToken = try #require(tokens.refreshToken)
            for authentication in [ClientAuthentication.clientSecretBasic(Redacted("wrong-secret-1")), .clientSecretPost(Redacted("wrong-secret-1"))] {
                let service = try Self.service(authentication)
                let error = await InteropEnvironment.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
                    try await service.refresh(refreshToken)
                }
                #expect(error?.oauthError == "invalid_client")
                #expect(error.map { String(describing: $0).contains("wrong-secret-1") } == false)
            }
        }

        @Test("the same client without its secret (a public client's request) is refused")
        func withoutSecret() async throws {
            let good = try Self.service(.clientSecretPost(Redacted(Self.secret)))
            let tokens = try await InteropEnvironment.tokens(service: good)
            let refreshToken = try #require(tokens.refreshToken)
            let service = try Self.service(.none)
            let error = await InteropEnvironment.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
                try await service.refresh(refreshToken)
            }
            #expect(error?.oauthError == "invalid_client")
        }
    }
}

extension InteropSuite {
    /// Every fixture provider registers the confidential client `identityflow-confidential` its own
    /// way (django-oauth-toolkit and allauth store the secret hashed; django-oidc-provider as
    /// given; Canaille through its command line, `client_secret_basic`).
    @Suite("Interop: confidential clients across the provider matrix", .enabled(if: !InteropProvider.all.isEmpty, "no provider issuer is set"))
    struct ConfidentialClientMatrixTests {
        static let methods = ["client_secret_basic", "client_secret_post"]
        static let cases: [(InteropProvider, String)] = InteropProvider.all.flatMap { provider in methods.map { (provider, $0) } }

        static func service(_ provider: InteropProvider, method: String, secret: String = ConfidentialClientInteropTests.secret) throws -> HTTPIdentityService {
            var configuration = HTTPServiceConfiguration(
                issuer: provider.issuer, discoveryURL: provider.issuer.appendingPathComponent(".well-known/openid-configuration"),
                clientID: ConfidentialClientInteropTests.clientID, redirectURI: InteropEnvironment.redirectURI, scopes: ["openid", "profile", "email"])
            configuration.clientAuthentication = try #require(ClientAuthentication.named(method, secret: secret))
            return try HTTPIdentityService(configuration: configuration)
        }

        @Test(
            "code exchange, refresh and revocation (where offered) with the secret by each method; Canaille takes only the registered one",
            arguments: cases)
        func lifecycle(_ provider: InteropProvider, _ method: String) async throws {
            let service = try Self.service(provider, method: method)
            let (request, code) = try await provider.code(service)
            if provider.revocation == .confidentialClientsOnly, method == "client_secret_post" {
                // Canaille (Authlib) takes a client's secret only by the method registered for
                // it, here client_secret_basic: the body's secret is invalid_client.
                let error = await InteropEnvironment.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
                    try await service.exchangeCode(code, request: request)
                }
                #expect(error?.oauthError == "invalid_client")
                return
            }
            let tokens = try await service.exchangeCode(code, request: request)
            let info = try await service.validateIdToken(try #require(tokens.idToken), nonce: request.nonce.value)
            #expect(info.audiences.contains(ConfidentialClientInteropTests.clientID))
            let fresh = try await service.refresh(try #require(tokens.refreshToken))
            #expect(fresh.accessToken != tokens.accessToken)
            switch (provider.revocation, method) {
            case (.absent, _):
                await InteropEnvironment.expectError(.configurationInvalid) { () throws(IdentityFlowError) in try await service.revoke(fresh) }
            default:
                try await service.revoke(fresh)
                let spent = try #require(fresh.refreshToken)
                await InteropEnvironment.expectError(.externalIdentityProviderFailure) { () throws(IdentityFlowError) in try await service.refresh(spent) }
            }
        }

        @Test(
            "Canaille lists revocation_endpoint_auth_methods_supported [client_secret_basic]: a client_secret_post client's revocation fails with 11052, nothing sent",
            arguments: InteropProvider.all.filter { $0.revocation == .confidentialClientsOnly })
        func revocationMethodRefused(_ provider: InteropProvider) async throws {
            let service = try Self.service(provider, method: "client_secret_post")
            await InteropEnvironment.expectError(.clientAuthenticationMethodNotSupported) { () throws(IdentityFlowError) in
                try await service.revoke(TokenSet(accessToken: "not-sent"))
            }
        }

        @Test("a wrong secret at the code exchange is the provider's invalid_client → 10001", arguments: InteropProvider.all)
        func wrongSecret(_ provider: InteropProvider) async throws {
            let service = try Self.service(provider, method: "client_secret_basic", secret: "wrong-secret-2")
            let (request, code) = try await provider.code(service)
            let error = await InteropEnvironment.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
                try await service.exchangeCode(code, request: request)
            }
            #expect(error?.oauthError == "invalid_client")
            #expect(error.map { String(describing: $0).contains("wrong-secret-2") } == false)
        }
    }
}
