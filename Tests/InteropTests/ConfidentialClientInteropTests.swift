import Foundation
import Testing
import IdentityFlow

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
