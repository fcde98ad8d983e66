import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
import Statechart

extension InteropSuite {
    /// Per-sign-in authorization parameters and the step-up check against the CI providers, each
    /// configured its own way. None of the four puts an `acr` in its ID tokens, so asking for
    /// `acr_values` as required fails with 11060, and passes with ``AuthorizationParameters/requiresRequestedACR``
    /// off. django-oauth-toolkit, django-oidc-provider and Canaille put `auth_time` in the ID
    /// token and pass `max_age`; django-allauth does not, so a sign-in with `max_age` fails there
    /// with 11060 (OpenID Connect Core §3.1.2.1 requires `auth_time` when `max_age` is sent).
    @Suite("Interop: authorization parameters and step-up", .enabled(if: !InteropProvider.all.isEmpty, "no provider issuer is set"))
    struct StepUpInteropTests {
        /// Whether the provider's ID tokens carry `auth_time`, by fixture (as measured).
        static let sendsAuthTime: [String: Bool] = ["oidc": true, "oidc-provider": true, "oidc-allauth": false, "oidc-canaille": true]

        static func register(_ provider: InteropProvider, _ parameters: AuthorizationParameters) async throws -> (UserClient, IdentityFlowError?) {
            let client = try await InteropEnvironment.client(try provider.service())
            let browser = HeadlessBrowser()
            do throws(IdentityFlowError) {
                _ = try await client.registerUser(
                    .provider(InteropEnvironment.browserProvider).stateless().with(parameters),
                    responder: ClosureResponder { challenge in
                        guard case .browserRegistration(let sign) = challenge else {
                            challenge.cancel()
                            return
                        }
                        do { sign.sender.respond(with: try await browser.authorize(sign.url), to: sign) } catch {
                            Issue.record("headless browser failed: \(error)")
                            sign.sender.cancel(sign)
                        }
                    })
                return (client, nil)
            } catch { return (client, error) }
        }

        @Test("max_age with prompt=login: the ID token's auth_time is checked", arguments: InteropProvider.all)
        func maxAge(_ provider: InteropProvider) async throws {
            let (client, error) = try await Self.register(provider, AuthorizationParameters(maxAge: 600, prompt: "login", uiLocales: ["en"]))
            if Self.sendsAuthTime[provider.fixture] == true {
                #expect(error == nil, "\(String(describing: error))")
                let authTime = try #require(client.identityClaims?.authenticationTime)
                #expect(abs(authTime.timeIntervalSinceNow) < 600)
            } else {
                #expect(error?.code == .stepUpNotSatisfied, "\(String(describing: error))")
            }
        }

        @Test("acr_values the provider does not honour: 11060 when required, the sign-in stands when not", arguments: InteropProvider.all)
        func acrValues(_ provider: InteropProvider) async throws {
            let (strict, refused) = try await Self.register(provider, AuthorizationParameters(acrValues: ["urn:identityflow:test:mfa"]))
            #expect(refused?.code == .stepUpNotSatisfied, "\(String(describing: refused))")
            #expect(strict.authenticatedUserProfile == nil)
            let (lenient, error) = try await Self.register(
                provider, AuthorizationParameters(acrValues: ["urn:identityflow:test:mfa"], requiresRequestedACR: false))
            #expect(error == nil, "\(String(describing: error))")
            #expect(lenient.authenticatedUserProfile != nil)
        }
    }
}
