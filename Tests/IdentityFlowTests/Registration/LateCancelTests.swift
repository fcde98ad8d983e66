import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// Regressions found by the model-based exploration: a cancel that comes too late to undo
/// anything must not leave a profile, a session or a token behind a reported failure.
@Suite("Cancels that come too late")
struct LateCancelTests {
    @Test("a cancel while the new profile is stored is ignored: the registration succeeds, nothing is half-kept")
    func cancelWhileStoringProfile() async throws {
        let server = ReferenceIdentityService()
        let storage = HookedStorage()
        let client = UserClient(configuration: .testing(), service: server, storage: storage)
        try await client.start()
        storage.beforeWrite { [weak client] in client?.cancelCurrentFlow() }
        let provider = server.addCustomProvider(id: "custom", steps: .oneStep, script: Harness.statusScript)
        let responder = ScriptedResponder([.customRegistrationFinish(.respond("name=Ada")), .createPin(.respond("24680"))])
        let result = try await client.registerUser(.provider(provider), responder: responder)
        #expect(client.userProfiles == [result.profile])
        #expect(server.enrolledProfiles == [result.profile])
        #expect(client.isFlowRunning == false)
    }

    @Test("a cancel while a failed registration is discarded waits for the discard: no token is left on the server")
    func cancelWhileDiscarding() async throws {
        let clock = ManualClock()
        let server = ReferenceIdentityService(clock: clock)
        let harness = try await Harness.make(server: server)
        let provider = harness.customProvider()
        server.inject(.latency(.seconds(1)), into: .revoke)
        let registration = Task {
            try await harness.client.registerUser(
                .provider(provider),
                responder: ScriptedResponder([
                    .customRegistrationFinish(.respond("name=Ada")), .createPin(.cancel),
                ]))
        }
        await clock.waitForSleepers(1)
        #expect(!harness.client.cancelCurrentFlow(), "the flow is already failing and cleaning up: the cancel comes too late and says so")
        clock.advance(by: .seconds(1))
        let outcome = await registration.result
        #expect((outcome.failure as? IdentityFlowError)?.code == .actionCancelled)
        #expect(server.activeAccessTokenCount == 0)
        #expect(server.activeRefreshTokenCount == 0)
        #expect(harness.client.userProfiles.isEmpty)
    }
}
