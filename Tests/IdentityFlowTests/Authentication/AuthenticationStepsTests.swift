import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// A login's performer runs on the dependencies it is handed, with no client: the PIN loop's
/// steps (``PinSteps``) prove the PIN to the server and the session is stored in the profiles it was given.
@Suite("Login on explicit dependencies")
struct AuthenticationStepsTests {
    @Test("a PIN login built from explicit dependencies asks the PIN again after a wrong one, then logs the profile in with the PIN key")
    func pinLoginWithoutClient() async throws {
        let flows = StandaloneFlows()
        let registration = try flows.customRegistration("standalone")
        let profile = registration.profile
        _ = try await flows.run(answer: StandaloneFlows.registering(pin: "24680")) { id, host in
            RegistrationFlow(steps: RegistrationSteps(dependencies: flows.dependencies), id: id, context: registration, host: host)
        }.get()
        flows.dependencies.sessions.endSessionLocally()
        let registeredTokens = try flows.dependencies.sessions.storedProfile(profile).tokens

        let counters = Locked<[Int]>([])
        let outcome = try await flows.run(
            answer: { challenge in
                guard case .pin(let pin) = challenge else { return _ = challenge.cancel() }
                let failures = counters.withLock { seen in
                    seen.append(pin.counters.previousFailureCount)
                    return seen.count
                }
                pin.sender.respond(with: failures == 1 ? "13579" : "24680", to: pin)
            }
        ) { id, host in
            AuthenticationFlow(
                steps: AuthenticationSteps(dependencies: flows.dependencies), id: id,
                context: AuthenticationMachine.Context(profile: profile, authenticator: .pin, previousProfile: nil), host: host)
        }

        let result = try outcome.get()
        #expect(result.profile == profile)
        #expect(result.authenticator == .pin)
        #expect(counters.current == [0, 1], "the wrong PIN is counted by the server and shown on the second challenge")
        let sessions = flows.dependencies.sessions
        #expect(sessions.withState { $0.authenticatedProfile } == profile)
        #expect(sessions.sessionPinKey(for: profile).provesPin)
        #expect(try sessions.storedProfile(profile).tokens != registeredTokens, "the login's session replaced the registration's")
        #expect(flows.dependencies.environment.currentFlow == nil)
    }
}
