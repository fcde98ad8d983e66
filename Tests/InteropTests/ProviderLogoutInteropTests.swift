import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
import Statechart

extension InteropSuite {
    /// Provider logout (OpenID Connect RP-Initiated Logout 1.0) against the CI providers, each
    /// configured its own way: those whose discovery publishes `end_session_endpoint` end their
    /// browser session; the others end with 11062 and the user logged out on the device.
    @Suite("Interop: provider logout", .enabled(if: !InteropProvider.all.isEmpty, "no provider issuer is set"))
    struct ProviderLogoutInteropTests {
        @Test(
            "a stateless sign-in, then provider logout: the provider's session ends (the next sign-in asks for the password), or 11062 without end_session_endpoint",
            arguments: InteropProvider.all)
        func providerLogout(_ provider: InteropProvider) async throws {
            let service = try provider.service()
            let client = try await InteropEnvironment.client(service)
            let browser = HeadlessBrowser()
            let result = try await client.registerUser(.provider(InteropEnvironment.browserProvider).stateless()) { challenge in
                guard case .browserRegistration(let sign) = challenge else {
                    challenge.cancel()
                    return
                }
                do { sign.sender.respond(with: try await browser.authorize(sign.url), to: sign) } catch {
                    Issue.record("headless browser failed: \(error)")
                    sign.sender.cancel(sign)
                }
            }
            let claims = try #require(client.identityClaims)
            #expect(try await client.userInfo().subject == claims.subject, "userinfo answers for the ID token's subject")
            let published = try await service.providerMetadata().endSessionEndpoint != nil
            guard published else {
                let error = await InteropEnvironment.expectError(.providerLogoutNotSupported) { () throws(IdentityFlowError) in
                    try await client.providerLogout { challenge in Issue.record("no challenge expected, got \(challenge)") }
                }
                #expect(error != nil)
                #expect(client.authenticatedUserProfile == nil)
                return
            }
            let fresh = { () async throws -> URL in
                try await service.authorizationURL(for: InteropEnvironment.browserProvider, request: try InteropEnvironment.request())
            }
            #expect(try await !browser.asksToSignIn(try await fresh()), "the provider's session is alive before the logout")
            let loggedOut = try await client.providerLogout { challenge in
                guard case .providerLogout(let logout) = challenge else {
                    challenge.cancel()
                    return
                }
                do { logout.sender.respond(with: try await browser.endSession(logout.url), to: logout) } catch {
                    Issue.record("the logout page failed: \(error)")
                    logout.sender.cancel(logout)
                }
            }
            #expect(loggedOut == result.profile)
            #expect(client.authenticatedUserProfile == nil)
            #expect(try await browser.asksToSignIn(try await fresh()), "the provider's session ended")
        }
    }
}
