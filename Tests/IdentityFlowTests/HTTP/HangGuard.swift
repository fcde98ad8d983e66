import Foundation
import Testing

/// The upper time bound a network test enforces on itself: a hang fails the test instead of
/// stalling the suite. It is a guard against hangs, never a claim about speed.
enum HangGuard {
    /// Generous: many request deadlines on a loaded machine.
    static let limit: Duration = .seconds(20)

    /// Runs `body`, racing it against ``limit``. When the limit passes first the test fails,
    /// `onHang` runs (stop the servers, so that nothing stays blocked) and the result is `nil`.
    static func run<T: Sendable>(
        sourceLocation: SourceLocation = #_sourceLocation, onHang: @escaping @Sendable () -> Void = {},
        _ body: @escaping @Sendable () async -> T
    ) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { await body() }
            group.addTask {
                do { try await Task.sleep(for: limit) } catch { return nil }
                onHang()
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            if first == nil { Issue.record("the call did not end within \(limit)", sourceLocation: sourceLocation) }
            return first
        }
    }
}
