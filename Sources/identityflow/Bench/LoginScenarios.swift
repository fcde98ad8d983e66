import Foundation
@_spi(Integrator) import IdentityFlow
import IdentityFlowTesting
import Statechart

/// (l) A PIN login as the user feels it: from the moment the host answers the PIN challenge to
/// the moment `authenticateUser` returns the session. In between: the PIN key derivation
/// (PBKDF2, then a P-256 key from the material), the proof (a P-256 signature), the in-process
/// reference server's check of it (a P-256 verification), the tokens and the stored session.
enum LoginScenarios {
    /// Answers the PIN challenge with the registered PIN and notes when it did.
    private final class PinAnswerer: ChallengeResponder {
        private let answered = Locked<ContinuousClock.Instant?>(nil)

        /// When the PIN was last given.
        var answeredAt: ContinuousClock.Instant? { answered.withLock { $0 } }

        func receive(_ challenge: Challenge) async {
            guard case .pin(let pin) = challenge else {
                challenge.cancel()
                return
            }
            answered.withLock { $0 = .now }
            pin.sender.respond(with: "24680", to: pin)
        }
    }

    /// µs from the PIN answer to the session, mean over `logins` logins of one registered user
    /// (each followed by a logout, outside the measured time).
    /// In device mode the PIN key unwraps the vault key and that opens the sealed tokens: no
    /// server call.
    static func pinAnswerToSession(
        _ settings: BenchSettings, logins base: Int = 500, pinKeyIterations: Int? = nil, authenticators: AuthenticatorPlacement = .server
    ) async throws -> Stats {
        var unused: [Double] = []
        return try await pinAnswerToSession(
            settings, logins: base, pinKeyIterations: pinKeyIterations, authenticators: authenticators, floor: nil, floorFigures: &unused)
    }

    /// The same, running `floor` before each run's logins (the warm-up's too) and collecting its
    /// figures after the warm-up's in `floorFigures`: a floor measured alternately with the row,
    /// so that a neighbour's job weighs on both (row l2 against g6).
    static func pinAnswerToSession(
        _ settings: BenchSettings, logins base: Int, pinKeyIterations: Int?, authenticators: AuthenticatorPlacement,
        floor: (() -> Double)?, floorFigures: inout [Double]
    ) async throws -> Stats {
        let bench = try await BenchClient.make(pinKeyIterations: pinKeyIterations ?? settings.pinKeyIterations, authenticators: authenticators)
        guard
            let registration = try? await bench.client.registerUser(
                .provider(ReferenceIdentityService.browserProvider), responder: BenchHost(server: bench.server))
        else {
            throw BenchFailure(description: "the login bench's registration failed")
        }
        let logins = settings.count(base)
        return try await Harness.measure(settings) {
            if let floor { floorFigures.append(floor()) }
            var total = Duration.zero
            for _ in 0..<logins {
                let answerer = PinAnswerer()
                _ = try await bench.client.authenticateUser(registration.profile, authenticator: .pin, responder: answerer)
                let end = ContinuousClock.now
                guard let start = answerer.answeredAt else { throw BenchFailure(description: "a login asked for no PIN") }
                total += start.duration(to: end)
                try await bench.client.logout()
            }
            return Harness.nanoseconds(total, per: logins) / 1000
        }
    }
}
