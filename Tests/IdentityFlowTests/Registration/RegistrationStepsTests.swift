import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// A registration's performer runs on the dependencies it is handed, with no client.
@Suite("Registration on explicit dependencies")
struct RegistrationStepsTests {
    @Test("a registration built from a reference server, an in-memory store and a manual clock stores, logs in and enrols its profile, then frees the slot")
    func registrationWithoutClient() async throws {
        let flows = StandaloneFlows()
        let context = try flows.customRegistration("standalone")
        let profile = context.profile
        let steps = RegistrationSteps(dependencies: flows.dependencies)

        let outcome = try await flows.run(answer: StandaloneFlows.registering(pin: "24680")) { id, host in
            RegistrationFlow(steps: steps, id: id, context: context, host: host)
        }

        let result = try outcome.get()
        #expect(result.profile == profile)
        #expect(result.identityProvider == context.provider)
        #expect(flows.server.enrolledProfiles == [profile])
        let sessions = flows.dependencies.sessions
        #expect(sessions.withState { $0.authenticatedProfile } == profile)
        #expect(sessions.sessionPinKey(for: profile).provesPin)
        // Stored in the storage it was handed, as a new process would load it.
        let reloaded = try ProfileStore(storage: flows.storage, logger: .disabled).loadAll()
        #expect(reloaded.profiles.map(\.profile) == [profile])
        #expect(try sessions.storedProfile(profile).tokens == reloaded.profiles.first?.tokens)
        #expect(flows.dependencies.environment.currentFlow == nil)
        #expect(!flows.transitions.all.isEmpty && flows.transitions.all.allSatisfy { $0.isDeclared })
    }

    @Test("a registration whose PIN enrolment the server refuses discards the profile everywhere it was handed")
    func refusedEnrolmentWithoutClient() async throws {
        let flows = StandaloneFlows()
        let context = try flows.customRegistration("refused")
        flows.server.inject(.serverError, into: .enrolPin)

        let outcome = try await flows.run(answer: StandaloneFlows.registering(pin: "24680")) { id, host in
            RegistrationFlow(steps: RegistrationSteps(dependencies: flows.dependencies), id: id, context: context, host: host)
        }

        #expect(throws: IdentityFlowError.self) { try outcome.get() }
        #expect(flows.server.enrolledProfiles.isEmpty)
        #expect(flows.server.activeAccessTokenCount == 0, "the discarded registration's tokens are revoked")
        #expect(flows.dependencies.sessions.withState { $0.profiles.isEmpty && $0.authenticatedProfile == nil })
        #expect(try ProfileStore(storage: flows.storage, logger: .disabled).loadAll().profiles.isEmpty)
        #expect(flows.dependencies.environment.currentFlow == nil)
    }
}
