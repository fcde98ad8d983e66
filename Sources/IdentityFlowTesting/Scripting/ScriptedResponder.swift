import Foundation
@_spi(Integrator) import IdentityFlow
import Statechart

/// Answers a flow's challenges from a script, for hosts' unit tests. Works with the async API
/// (as a `ChallengeResponder`) and as a delegate.
///
/// Each challenge is matched against the next ``ScriptStep``: its kind and the error it carries
/// must be the expected ones. An unexpected challenge, or a step whose answer cannot be computed
/// (say `server.logIn(at:as:)` for a user the reference server does not know), is recorded and
/// cancelled, so the flow ends instead of hanging: the flow's error
/// (`ErrorCode/actionCancelled`) carries the reason in its message ("The host cancelled the
/// challenge: step 1: computing the answer failed: ..."), and ``verify()`` fails naming what was
/// expected and what came.
///
/// ```swift
/// let responder = ScriptedResponder([
///     .customRegistrationFinish(.respond("name=Ada")),
///     .createPin(.respond("24680")),
/// ])
/// let result = try await client.registerUser(.provider(provider), responder: responder)
/// try responder.verify()
/// ```
public final class ScriptedResponder: ChallengeResponder, FlowOutcomeObserver, Sendable {
    /// A terminal callback, as the responder saw it.
    public enum Outcome: Sendable, CustomStringConvertible {
        /// `didRegisterUser`.
        case registered(RegistrationResult)
        /// `didAuthenticateUser`.
        case authenticated(AuthenticationResult)
        /// `didChangePin`.
        case pinChanged(UserProfile)
        /// `didRegisterAuthenticator`.
        case authenticatorRegistered(Authenticator, UserProfile)
        /// `didHandle`: a mobile authentication request accepted or denied.
        case mobileAuthHandled(MobileAuthResult)
        /// `didLogOutAtProvider`: the provider confirmed the logout.
        case loggedOutAtProvider(UserProfile)
        /// A `didFail…` callback.
        case failed(IdentityFlowError)
        /// No terminal callback came within ``ScriptedResponder/outcome(timeout:)``'s wait.
        case timedOut(Duration)

        /// `registered(<profile>)`, `authenticated(<profile>)`, ... or `failed(<code>)`.
        public var description: String {
            switch self {
            case .registered(let result): "registered(\(result.profile))"
            case .authenticated(let result): "authenticated(\(result.profile), \(result.authenticator))"
            case .pinChanged(let profile): "pinChanged(\(profile))"
            case .authenticatorRegistered(let authenticator, let profile): "authenticatorRegistered(\(authenticator), \(profile))"
            case .mobileAuthHandled(let result): "mobileAuthHandled(\(result.request.id), \(result.accepted ? "accepted" : "denied"))"
            case .loggedOutAtProvider(let profile): "loggedOutAtProvider(\(profile))"
            case .failed(let error): "failed(\(error.code))"
            case .timedOut(let wait): "timedOut(\(wait))"
            }
        }

        /// The error of a failure.
        public var error: IdentityFlowError? {
            if case .failed(let error) = self { return error }
            return nil
        }
    }

    struct Progress: Sendable {
        var steps: [ScriptStep]
        var next = 0
        var mismatches: [String] = []
        var events: [String] = []
        var outcomes: [Outcome] = []
        var held: [Challenge] = []
        var waiters: [UInt64: CheckedContinuation<Outcome, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// The kind of the last challenge received: a `UserProfile` outcome of the async API is a
        /// provider logout's after a ``ChallengeKind/providerLogout``, a PIN change's otherwise.
        var lastKind: ChallengeKind?

        /// Records a problem and returns it as a mismatch, for the cancelled challenge's reason.
        mutating func mismatch(_ problem: String) -> ScriptMismatch {
            mismatches.append(problem)
            return ScriptMismatch(problems: [problem])
        }
    }

    let progress: Locked<Progress>

    /// Creates a responder that expects these steps, in order.
    /// - Parameter steps: The expected challenges and their answers.
    public init(_ steps: [ScriptStep]) { progress = Locked(Progress(steps: steps)) }

    // MARK: - Results

    /// What went against the script so far, one sentence each.
    public var mismatches: [String] { progress.withLock { $0.mismatches } }
    /// Every callback and answer in order, secrets redacted: the flow's transcript from the host's side.
    public var events: [String] { progress.withLock { $0.events } }
    /// Every terminal outcome received (a correct flow gives exactly one): the delegate's terminal
    /// callbacks, and with the async API the outcome the call returns.
    public var outcomes: [Outcome] { progress.withLock { $0.outcomes } }
    /// Challenges kept unanswered by ``ScriptAction/hold``.
    public var heldChallenges: [Challenge] { progress.withLock { $0.held } }

    /// Waits for the first terminal outcome, at most `timeout` (30 seconds unless given).
    /// - Parameter timeout: How long to wait; a flow that never ends then gives
    ///   ``Outcome/timedOut(_:)`` instead of hanging the test.
    /// - Returns: The outcome.
    public func outcome(timeout: Duration = .seconds(30)) async -> Outcome {
        let id = progress.withLock { progress in
            defer { progress.nextWaiter += 1 }
            return progress.nextWaiter
        }
        let timer = Task { [progress] in
            try? await Task.sleep(for: timeout)
            progress.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: .timedOut(timeout))
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let ready: Outcome? = progress.withLock { progress in
                if let first = progress.outcomes.first { return first }
                progress.waiters[id] = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Throws when anything went against the script or an expected challenge never came.
    /// - Throws: ``ScriptMismatch`` naming the expected and the actual.
    public func verify() throws(ScriptMismatch) {
        let problems = progress.withLock { progress in
            var problems = progress.mismatches
            if progress.next < progress.steps.count {
                let ending = progress.outcomes.first.map { "the flow ended with \($0)" } ?? "no further challenge came"
                problems.append("step \(progress.next + 1) of \(progress.steps.count): expected \(progress.steps[progress.next]), but \(ending)")
            }
            if progress.outcomes.count > 1 {
                problems.append("\(progress.outcomes.count) terminal callbacks instead of one: \(progress.outcomes)")
            }
            return problems
        }
        if !problems.isEmpty { throw ScriptMismatch(problems: problems) }
    }

    // MARK: - Answering

    /// Answers a challenge from the script.
    /// - Parameter challenge: The challenge.
    public func receive(_ challenge: Challenge) async { handle(challenge) }

    func handle(_ challenge: Challenge) {
        let kind = ChallengeKind(challenge)
        let matched: Result<(index: Int, step: ScriptStep), ScriptMismatch> = progress.withLock { progress in
            progress.events.append("challenge \(challenge)")
            progress.lastKind = kind
            guard progress.next < progress.steps.count else {
                return .failure(progress.mismatch("unexpected \(challenge) after the script's \(progress.steps.count) steps"))
            }
            let index = progress.next
            let step = progress.steps[index]
            progress.next += 1
            guard step.kind == kind else {
                return .failure(progress.mismatch("step \(index + 1): expected \(step), got \(challenge)"))
            }
            if step.expectedError != challenge.error?.code {
                progress.mismatches.append("step \(index + 1): expected \(step), got error \(challenge.error.map { "\($0.code)" } ?? "none") in \(challenge)")
            }
            return .success((index, step))
        }
        let step: (index: Int, step: ScriptStep)
        switch matched {
        case .success(let found): step = found
        case .failure(let mismatch):
            challenge.cancel(because: mismatch.problems.joined(separator: "; "))
            return
        }
        do {
            let action = try step.step.perform(challenge, self)
            record("answer \(action)")
        } catch {
            let mismatch = progress.withLock { $0.mismatch("step \(step.index + 1): computing the answer failed: \(error)") }
            challenge.cancel(because: mismatch.problems.joined(separator: "; "))
        }
    }

    func apply<ChallengeType, Answer>(
        _ action: ScriptAction<ChallengeType, Answer>, to challenge: ChallengeType, wrapped: Challenge,
        answer: (Answer) -> Bool, cancel: () -> Bool
    ) throws -> String {
        switch action {
        case .respond(let value):
            expect(answer(value), "the answer to \(wrapped) was refused")
            return "respond(<redacted>)"
        case .respondWith(let compute):
            expect(answer(try compute(challenge)), "the answer to \(wrapped) was refused")
            return "respond(<redacted>)"
        case .respondTwice(let value):
            expect(answer(value), "the first answer to \(wrapped) was refused")
            expect(!answer(value), "a second answer to \(wrapped) was accepted")
            return "respond twice(<redacted>)"
        case .cancel:
            expect(cancel(), "cancelling \(wrapped) was refused")
            return "cancel"
        case .drop:
            return "drop"
        case .hold:
            progress.withLock { $0.held.append(wrapped) }
            return "hold"
        }
    }

    /// Records a terminal callback and wakes ``outcome()`` waiters.
    func finish(_ outcome: Outcome) {
        let waiters = progress.withLock { progress in
            progress.events.append("result \(outcome)")
            progress.outcomes.append(outcome)
            defer { progress.waiters = [:] }
            return progress.waiters.values
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Records the outcome of a flow run through the async API.
    /// - Parameter outcome: The outcome the awaiting call returns.
    package func flowEnded(_ outcome: Result<any Sendable, IdentityFlowError>) {
        switch outcome {
        case .success(let result as RegistrationResult): finish(.registered(result))
        case .success(let result as AuthenticationResult): finish(.authenticated(result))
        case .success(let registered as RegisteredAuthenticator): finish(.authenticatorRegistered(registered.authenticator, registered.profile))
        case .success(let profile as UserProfile):
            let afterLogoutPage = progress.withLock { $0.lastKind == .providerLogout }
            finish(afterLogoutPage ? .loggedOutAtProvider(profile) : .pinChanged(profile))
        case .success(let result as MobileAuthResult): finish(.mobileAuthHandled(result))
        case .success(let other): finish(.failed(IdentityFlowError(.unknown, "An outcome of an unknown type: \(type(of: other)).")))
        case .failure(let error): finish(.failed(error))
        }
    }

    func record(_ event: String) { progress.withLock { $0.events.append(event) } }

    private func expect(_ condition: Bool, _ problem: String) {
        if !condition { progress.withLock { $0.mismatches.append(problem) } }
    }
}

/// What a ``ScriptedResponder`` found against its script.
public struct ScriptMismatch: Error, Sendable, CustomStringConvertible {
    /// One sentence per problem, naming what was expected and what came.
    public let problems: [String]

    /// The problems, one per line.
    public var description: String { "The flow did not follow the script:\n- " + problems.joined(separator: "\n- ") }
}
