import Foundation
import Testing
@_spi(Integrator) import IdentityFlow

extension InteropSuite {
    @Suite("Interop: registration against the fixture OpenID provider")
    struct RegistrationInteropTests {
        @Test("browser registration: login form, consent, code exchange with a validated ID token, PIN enrolment")
        func browserRegistration() async throws {
            let service = try InteropEnvironment.service()
            let storage = InMemoryStorage()
            let client = try await InteropEnvironment.client(service, storage: storage)
            let responder = InteropResponder()
            let result = try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: responder)
            #expect(result.identityProvider.identifier == "oidc")
            #expect(client.userProfiles == [result.profile])
            #expect(client.authenticatedUserProfile == result.profile)
            #expect(responder.seen.current == ["browser", "createPin"])
            #expect(try await service.profileExists(result.profile))
            #expect(try !storage.keys().isEmpty)
        }

        @Test("browser registration denied: access_denied ends with 10024 and oauthError, nothing stored")
        func browserDenied() async throws {
            let storage = InMemoryStorage()
            let client = try await InteropEnvironment.client(try InteropEnvironment.service(), storage: storage)
            let error = await InteropEnvironment.expectError(.externalIdentityProviderFailure) { () throws(IdentityFlowError) in
                try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: InteropResponder(allowConsent: false))
            }
            #expect(error?.oauthError == "access_denied")
            #expect(client.userProfiles.isEmpty)
            #expect(try storage.keys().isEmpty)
        }

        @Test("the server's identity providers")
        func identityProviders() async throws {
            let providers = try await InteropEnvironment.service().identityProviders()
            #expect(providers.map(\.identifier) == ["oidc", "custom-one", "custom-two"])
            #expect(providers.map(\.kind) == [.browser, .custom(.oneStep), .custom(.twoStep)])
        }

        struct CustomCase: Sendable, CustomTestStringConvertible {
            let provider: String
            let steps: CustomRegistrationSteps
            let data: [String?]
            let expected: ErrorCode?
            let seen: [String]
            var testDescription: String { "\(provider) \(data.map { $0 ?? "nil" }) → \(expected.map { "\($0)" } ?? "registered")" }
        }

        @Test(
            "custom registration, one-step and two-step, with each status range",
            arguments: [
                CustomCase(provider: "custom-one", steps: .oneStep, data: ["hello"], expected: nil, seen: ["finish", "createPin"]),
                CustomCase(
                    provider: "custom-one", steps: .oneStep, data: ["status:4001", "ok"], expected: nil,
                    seen: ["finish", "finish:4001 error 10022", "createPin"]),
                CustomCase(provider: "custom-one", steps: .oneStep, data: ["status:5001"], expected: .customRegistrationFailure, seen: ["finish"]),
                CustomCase(provider: "custom-one", steps: .oneStep, data: ["expire"], expected: .customRegistrationExpired, seen: ["finish"]),
                CustomCase(provider: "custom-two", steps: .twoStep, data: [nil, "hello"], expected: nil, seen: ["init", "finish:2000", "createPin"]),
                CustomCase(
                    provider: "custom-two", steps: .twoStep, data: ["status:4002", nil, "status:4003", "ok"], expected: nil,
                    seen: ["init", "init:4002 error 10022", "finish:2000", "finish:4003 error 10022", "createPin"]),
                CustomCase(provider: "custom-two", steps: .twoStep, data: ["status:5002"], expected: .customRegistrationFailure, seen: ["init"]),
                CustomCase(
                    provider: "custom-two", steps: .twoStep, data: [nil, "status:5003"], expected: .customRegistrationFailure, seen: ["init", "finish:2000"]),
                CustomCase(provider: "custom-two", steps: .twoStep, data: ["expire"], expected: .customRegistrationExpired, seen: ["init"]),
                CustomCase(
                    provider: "custom-two", steps: .twoStep, data: [nil, "expire"], expected: .customRegistrationExpired, seen: ["init", "finish:2000"]),
            ])
        func customRegistration(_ scenario: CustomCase) async throws {
            let service = try InteropEnvironment.service()
            let storage = InMemoryStorage()
            let client = try await InteropEnvironment.client(service, storage: storage)
            let provider = IdentityProvider(identifier: scenario.provider, name: scenario.provider, kind: .custom(scenario.steps))
            let responder = InteropResponder(customData: scenario.data)
            do {
                let result = try await client.registerUser(.provider(provider), responder: responder)
                #expect(scenario.expected == nil, "registered, expected \(String(describing: scenario.expected))")
                #expect(client.userProfiles == [result.profile])
                #expect(try await service.profileExists(result.profile))
            } catch {
                #expect(error.code == scenario.expected, "\(error)")
                if scenario.expected == .customRegistrationFailure { #expect(error.customInfo?.outcome == .unrecoverable) }
                #expect(client.userProfiles.isEmpty)
                #expect(try storage.keys().isEmpty)
            }
            #expect(responder.seen.current == scenario.seen)
        }
    }
}
