/// Starts a task that runs synchronously, in the caller's context, until it first suspends
/// (`Task.immediate`); where the platform lacks it (Apple systems before 26), a plain task.
///
/// Building with `-Xswiftc -DIDENTITYFLOW_PLAIN_TASK` takes the plain-task start everywhere, so
/// the path iOS 16-25 and macOS 13-15 take runs on Linux too (`scripts/test-plain-task.sh`).
///
/// The flows use it for work that often finishes without suspending (an in-process server, a
/// responder that answers at once): no thread hop is paid for it then.
/// - Parameter body: The task's work; written inside an actor and using its `self`, it starts on
///   that actor (as with `Task { }`).
/// - Returns: The task.
@discardableResult
package func startImmediateTask(@_inheritActorContext _ body: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
    #if IDENTITYFLOW_PLAIN_TASK
    return Task(operation: body)
    #elseif canImport(Darwin)
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
        return Task.immediate(operation: body)
    }
    return Task(operation: body)
    #else
    return Task.immediate(operation: body)
    #endif
}
