import Dispatch
import Statechart

/// Where delegate callbacks run when a flow is started from nonisolated code, and where
/// completion handlers (``UserClient/logout(completion:)``, ...) run. Callbacks of one flow
/// always arrive in order.
///
/// The default, ``mainActor``, suits UI code. Tests and servers use ``immediate`` (on the
/// engine's own context, with no hop) or a queue of their own. A flow started from an actor (a
/// `@MainActor` screen, say) calls its delegate back on that actor whatever the executor is, so
/// that a delegate with an isolated conformance (`extension Screen: @MainActor RegistrationDelegate`)
/// is only ever called where it is isolated.
public struct CallbackExecutor: Sendable {
    private let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Runs on the executor right after a delegate's terminal callback returned, with the
    /// flow's error (`nil` for a success); set by ``UserClient`` for its delegate flows.
    package var afterTerminalCallback: (@Sendable (IdentityFlowError?) -> Void)?

    /// Creates an executor from a function that runs jobs in the order it receives them.
    /// - Parameter enqueue: Runs each job once, in order.
    public init(_ enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.enqueue = enqueue
    }

    /// On the main actor (the main dispatch queue), in order.
    public static let mainActor = CallbackExecutor { job in DispatchQueue.main.async(execute: job) }

    /// At once, on the flow's own context. Delegates must return quickly and must not block.
    public static let immediate = CallbackExecutor { job in job() }

    /// On a serial dispatch queue of your own.
    /// - Parameter queue: A serial queue; a concurrent one would break the order.
    /// - Returns: The executor.
    public static func queue(_ queue: DispatchQueue) -> CallbackExecutor {
        CallbackExecutor { job in queue.async(execute: job) }
    }

    /// Runs a job.
    /// - Parameter job: The callback.
    package func run(_ job: @escaping @Sendable () -> Void) { enqueue(job) }
}

extension CallbackExecutor {
    /// On `actor`, in order: jobs queue up and one task at a time drains them there.
    /// - Parameter actor: Where the jobs run.
    /// - Returns: The executor (one queue per call: one per flow).
    static func serial(on actor: any Actor) -> CallbackExecutor {
        let mailbox = ActorMailbox(actor)
        return CallbackExecutor { job in mailbox.enqueue(job) }
    }
}

/// Jobs waiting to run on an actor, in the order they came; at most one task drains them.
private final class ActorMailbox: Sendable {
    private let actor: any Actor
    private let state = Locked<(jobs: [@Sendable () -> Void], draining: Bool)>(([], false))

    init(_ actor: any Actor) { self.actor = actor }

    func enqueue(_ job: @escaping @Sendable () -> Void) {
        let startDraining = state.withLock { state in
            state.jobs.append(job)
            defer { state.draining = true }
            return !state.draining
        }
        if startDraining { Task { await self.drain(on: self.actor) } }
    }

    /// Runs the queued jobs on `actor` until none is left.
    private func drain(on actor: isolated any Actor) async {
        while let job = nextJob() { job() }
    }

    private func nextJob() -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard !state.jobs.isEmpty else {
                state.draining = false
                return nil
            }
            return state.jobs.removeFirst()
        }
    }
}

/// A delegate on its way from the call that started a flow to the jobs that call it back.
///
/// `@unchecked Sendable`, because a delegate need not be `Sendable`: a `@MainActor` screen may
/// conform with an isolated conformance (`extension Screen: @MainActor RegistrationDelegate`),
/// whose witnesses only run on the main actor. It is safe because the delegate is only ever
/// called inside jobs of the executor ``UserClient/delegateExecutor(_:)`` chose for the caller:
/// - called from an actor, the jobs run on that actor, one at a time. An isolated conformance
///   can only be used inside its own isolation domain, so the call that started the flow ran
///   there and the callbacks run there too; a non-isolated delegate of that actor's region
///   stays in it.
/// - called from nonisolated code, the conformance is nonisolated (an isolated one could not
///   be used there), and the entry points take the delegate `sending`: either it is `Sendable`,
///   or the caller gave it away and only the configured executor's jobs touch it, one at a time
///   and in order (``CallbackExecutor``'s contract).
struct CallbackTarget<Delegate>: @unchecked Sendable {
    /// The delegate.
    let delegate: Delegate

    init(_ delegate: Delegate) { self.delegate = delegate }
}

extension UserClient {
    /// Where a delegate started from `isolation` gets its callbacks: on the main actor for a
    /// `@MainActor` caller (the main queue, as ``CallbackExecutor/mainActor``), in order on any
    /// other actor the caller is isolated to, and on ``ClientConfiguration/callbackExecutor``
    /// for nonisolated callers.
    /// - Parameter isolation: The caller's `#isolation`.
    /// - Returns: The executor for the flow's callbacks.
    func delegateExecutor(_ isolation: (any Actor)?) -> CallbackExecutor {
        var executor: CallbackExecutor =
            if let isolation { isolation === MainActor.shared ? .mainActor : .serial(on: isolation) } else { configuration.callbackExecutor }
        // Looked up when the flow ends (a delegate callback never runs under the client's lock).
        // Held strongly: the flow's engine holds the dependencies already (FlowEnvironment), so
        // this adds no cycle, and a weak capture would give each client a side table (row e3).
        let dependencies = dependencies
        executor.afterTerminalCallback = { error in
            if let endings = dependencies.delegateEndingsIfWatched, endings.hasSubscribers { endings.publish(error) }
        }
        return executor
    }

    /// Every delegate flow's end, published once its delegate's terminal callback returned
    /// (`nil` for a success, else the error): what the test kit awaits.
    package var delegateEndings: Broadcast<IdentityFlowError?> { dependencies.delegateEndings }
}
