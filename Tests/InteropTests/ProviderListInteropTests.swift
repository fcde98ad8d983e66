import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Integrator) import IdentityFlow
import Statechart

extension InteropSuite {
    /// Several identity providers against providers as they are: the list comes from the
    /// configuration (a stock provider has no endpoint to list them) and the chosen one's hint
    /// reaches the provider's authorization endpoint.
    @Suite("Interop: configured identity providers and their hint", .enabled(if: !InteropProvider.all.isEmpty, "no provider issuer is set"))
    struct ProviderListInteropTests {
        @Test(
            "with a configured list, registration with nil picks its first browser provider, sends its hint and signs in (stateless), no extension endpoint asked",
            arguments: InteropProvider.all)
        func configuredList(_ provider: InteropProvider) async throws {
            var configuration = try provider.service().configuration
            configuration.identityProviderHintParameter = "kc_idp_hint"
            configuration.identityProviders = [
                IdentityProvider(identifier: "oidc", name: "OpenID Connect", kind: .browser),
                IdentityProvider(identifier: "social", name: "Social", kind: .browser),
            ]
            let service = try HTTPIdentityService(configuration: configuration)
            let client = try await InteropEnvironment.client(service)
            #expect(try await client.identityProviders().map(\.identifier) == ["oidc", "social"])
            let hints = Locked<[String]>([])
            let result = try await client.registerUser(.stateless) { challenge in
                guard case .browserRegistration(let browser) = challenge else { return }
                let items = URLComponents(url: browser.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
                hints.withLock { $0 += items.filter { $0.name == "kc_idp_hint" }.compactMap(\.value) }
                do {
                    let redirect = try await HeadlessBrowser().authorize(browser.url)
                    browser.sender.respond(with: redirect, to: browser)
                } catch {
                    Issue.record("headless browser failed: \(error)")
                    browser.sender.cancel(browser)
                }
            }
            #expect(hints.current == ["oidc"])
            #expect(result.identityProvider.identifier == "oidc")
            #expect(result.profile.isStateless && client.authenticatedUserProfile == result.profile)
        }
    }
}
