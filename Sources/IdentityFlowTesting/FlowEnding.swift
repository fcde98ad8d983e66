@_spi(Integrator) import IdentityFlow
import Statechart

/// How a flow driven by a delegate ended, as ``IdentityFlow/UserClient/outcomeOfNextFlow(timeout:starting:)``
/// saw it: after the delegate's terminal callback returned.
public enum FlowEnding: Sendable, CustomStringConvertible {
    /// The delegate got its success callback (`didRegisterUser`, `didAuthenticateUser`, ...).
    case succeeded
    /// The delegate got its failure callback with this error.
    case failed(IdentityFlowError)
    /// No delegate flow of the client ended within the wait.
    case timedOut(Duration)

    /// `succeeded`, `failed(<code>)` or `timedOut(<wait>)`.
    public var description: String {
        switch self {
        case .succeeded: "succeeded"
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

extension UserClient {
    /// Runs `start`, which makes your own code start a flow with your own delegate (a screen's
    /// `logIn()`, say), and waits until that flow's delegate got its terminal callback and
    /// returned from it: the screen has updated its state when this returns. No polling.
    ///
    /// ```swift
    /// let ending = await client.outcomeOfNextFlow { screen.logIn(profile) }
    /// #expect(ending.error == nil)
    /// #expect(screen.isLoggedIn)
    /// ```
    ///
    /// Only flows started with a delegate count (the async API returns its outcome itself). Runs
    /// on the caller's actor, so a `@MainActor` test can call a `@MainActor` screen in `start`.
    /// - Parameters:
    ///   - timeout: How long to wait after `start` returned (30 seconds unless given); a flow
    ///     that never ends then gives ``FlowEnding/timedOut(_:)`` instead of hanging the test.
    ///   - start: Starts the flow.
    /// - Returns: How the first delegate flow that ended after `start` began, ended.
    public nonisolated(nonsending) func outcomeOfNextFlow(
        timeout: Duration = .seconds(30), starting start: nonisolated(nonsending) () async throws -> Void
    ) async rethrows -> FlowEnding {
        let endings = delegateEndings.stream()
        try await start()
        return await withTaskGroup(of: FlowEnding?.self) { group in
            group.addTask {
                for await error in endings { return error.map(FlowEnding.failed) ?? .succeeded }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return .timedOut(timeout)
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .timedOut(timeout)
        }
    }
}
