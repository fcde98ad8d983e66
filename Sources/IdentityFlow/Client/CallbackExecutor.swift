import Dispatch

/// Where delegate callbacks run. Callbacks of one flow always arrive in order.
///
/// The default, ``mainActor``, suits UI code. Tests and servers use ``immediate`` (on the
/// engine's own context, with no hop) or a queue of their own.
public struct CallbackExecutor: Sendable {
    private let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Void

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
