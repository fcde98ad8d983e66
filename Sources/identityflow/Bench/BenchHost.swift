import Foundation
@_spi(Integrator) import IdentityFlow
import IdentityFlowTesting
import Statechart

/// The host in the flow figures: plays the browser at the reference server, answers create-PIN
/// challenges (optionally refusing a number of PINs first by offering a sequence), and reports
/// the outcome. Serves both as a delegate and as an async responder.
final class BenchHost: RegistrationDelegate, ChallengeResponder {
    private struct State: Sendable {
        var pinChallenges = 0
        var firstPinChallenge: ContinuousClock.Instant?
        var lastPinChallenge: ContinuousClock.Instant?
        var finished: CheckedContinuation<Bool, Never>?
    }

    private let server: ReferenceIdentityService
    private let rejectedPins: Int
    private let state = Locked(State())

    /// - Parameters:
    ///   - server: The reference server the browser logs in at.
    ///   - rejectedPins: How many create-PIN challenges are answered with a refused PIN first.
    init(server: ReferenceIdentityService, rejectedPins: Int = 0) {
        self.server = server
        self.rejectedPins = rejectedPins
    }

    /// Time between the first and the last create-PIN challenge: `rejectedPins` round trips.
    var pinRoundTrips: Duration? {
        state.withLock { state in
            guard let first = state.firstPinChallenge, let last = state.lastPinChallenge else { return nil }
            return first.duration(to: last)
        }
    }

    /// Starts a registration through the delegate API and waits for its terminal callback.
    /// - Returns: Whether the user was registered.
    func register(on client: UserClient) async -> Bool {
        await withCheckedContinuation { continuation in
            state.withLock { $0.finished = continuation }
            client.registerUser(.provider(ReferenceIdentityService.browserProvider), delegate: self)
        }
    }

    func answer(_ challenge: Challenge) {
        switch challenge {
        case .browserRegistration(let browser):
            guard let redirect = try? server.logIn(at: browser.url) else {
                browser.sender.cancel(browser)
                return
            }
            browser.sender.respond(with: redirect, to: browser)
        case .createPin(let createPin):
            let now = ContinuousClock.now
            let count = state.withLock { state in
                state.pinChallenges += 1
                if state.firstPinChallenge == nil { state.firstPinChallenge = now }
                state.lastPinChallenge = now
                return state.pinChallenges
            }
            createPin.sender.respond(with: count <= rejectedPins ? "12345" : "24680", to: createPin)
        default:
            challenge.cancel()
        }
    }

    private func finish(_ registered: Bool) {
        let waiter = state.withLock { state in
            defer { state.finished = nil }
            return state.finished
        }
        waiter?.resume(returning: registered)
    }

    // MARK: - ChallengeResponder

    func receive(_ challenge: Challenge) async { answer(challenge) }

    // MARK: - RegistrationDelegate

    func userClient(_ client: UserClient, didStartRegistrationOf profile: UserProfile) {}

    func userClient(_ client: UserClient, didReceiveBrowserRegistrationChallenge challenge: BrowserRegistrationChallenge) {
        answer(.browserRegistration(challenge))
    }

    func userClient(_ client: UserClient, didReceiveCustomRegistrationInitChallenge challenge: CustomRegistrationChallenge) {
        challenge.sender.cancel(challenge)
    }

    func userClient(_ client: UserClient, didReceiveCustomRegistrationFinishChallenge challenge: CustomRegistrationChallenge) {
        challenge.sender.cancel(challenge)
    }

    func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge) {
        answer(.createPin(challenge))
    }

    func userClient(_ client: UserClient, didRegisterUser profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?) {
        finish(true)
    }

    func userClient(_ client: UserClient, didFailToRegisterUserWith identityProvider: IdentityProvider?, error: IdentityFlowError) {
        finish(false)
    }
}

/// A fresh reference server and a started client on it, configured for measuring.
struct BenchClient {
    let server: ReferenceIdentityService
    let client: UserClient

    /// - Parameters:
    ///   - executor: Where delegate callbacks run.
    ///   - pinKeyIterations: PBKDF2 iterations for the PIN verifier.
    ///   - authenticators: Where the PIN lives (the server, or the device's vault).
    ///   - server: A server to share, or `nil` for a new one.
    static func make(
        executor: CallbackExecutor = .immediate, pinKeyIterations: Int, server: ReferenceIdentityService? = nil,
        authenticators: AuthenticatorPlacement = .server
    ) async throws -> BenchClient {
        let server = server ?? ReferenceIdentityService()
        var configuration = ClientConfiguration.testing()
        configuration.callbackExecutor = executor
        configuration.pinKeyIterations = pinKeyIterations
        configuration.authenticators = authenticators
        configuration.acceptedPinKeyIterations = 1...max(pinKeyIterations, 1_000_000)
        let client = UserClient(configuration: configuration, service: server, storage: InMemoryStorage())
        try await client.start()
        return BenchClient(server: server, client: client)
    }
}

/// A scenario could not run as intended (a flow failed where it must succeed).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
}
