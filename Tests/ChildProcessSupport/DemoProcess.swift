import Foundation
import Statechart

/// The `identityflow` executable run with pipes: the test types lines and waits for output.
public final class DemoProcess: Sendable {
    /// The executable built beside the test bundle, or `IDENTITYFLOW_BINARY`.
    public static let binary: URL? = {
        if let path = ProcessInfo.processInfo.environment["IDENTITYFLOW_BINARY"] { return URL(fileURLWithPath: path) }
        return [Bundle.main.bundleURL.deletingLastPathComponent(), URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
            .map { $0.appendingPathComponent("identityflow") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    private struct Watch: Sendable {
        var output = ""
        var ended = false
        var waiters: [(needle: String, continuation: CheckedContinuation<String?, Never>)] = []
        var status: Int32?
        var exitWaiter: CheckedContinuation<Int32, Never>?
    }

    private let process = Process()
    private let input = Pipe()
    private let watch = Locked(Watch())

    /// Starts the executable with `arguments`.
    public init(arguments: [String]) throws {
        process.executableURL = Self.binary
        process.arguments = arguments
        process.standardInput = input
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.terminationHandler = { [watch] process in
            let status = process.terminationStatus
            watch.withLock { watch in
                watch.status = status
                defer { watch.exitWaiter = nil }
                return watch.exitWaiter
            }?.resume(returning: status)
        }
        try process.run()
        // Read on a thread of its own until the child has exited and the pipe is empty: the end
        // of the pipe is not waited for (see PipeReader).
        Thread.detachNewThread { [watch, process] in
            let reader = PipeReader(descriptor: output.fileHandleForReading.fileDescriptor)
            while true {
                let more = reader.readChunk(waitingUpTo: 100)
                let exited = !more && (reader.reachedEnd || !process.isRunning)
                if exited { reader.drain() }
                if more || exited { Self.publish(String(decoding: reader.output, as: UTF8.self), ended: exited, to: watch) }
                if exited { break }
            }
        }
        // A run that hangs (a stuck network call in the child, a lost termination notice) must
        // fail its test, not hold the suite: after 90 s the child is killed and every wait ends.
        Task { [watch, process] in
            try? await Task.sleep(for: .seconds(90))
            let (waiters, exitWaiter) = watch.withLock { watch in
                guard !(watch.ended && watch.status != nil) else { return ([CheckedContinuation<String?, Never>](), CheckedContinuation<Int32, Never>?.none) }
                watch.output += "\n[the demo did not finish within 90 s: killed by the test]"
                watch.ended = true
                if watch.status == nil { watch.status = -1 }
                defer { watch.waiters = []; watch.exitWaiter = nil }
                return (watch.waiters.map(\.continuation), watch.exitWaiter)
            }
            if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
            for waiter in waiters { waiter.resume(returning: nil) }
            exitWaiter?.resume(returning: -1)
        }
    }

    /// Records the output so far and resumes the waits it satisfies (all of them once it ended).
    private static func publish(_ text: String, ended: Bool, to watch: Locked<Watch>) {
        let ready = watch.withLock { watch -> [(CheckedContinuation<String?, Never>, String?)] in
            guard !watch.ended else { return [] }
            watch.output = text
            watch.ended = ended
            let due = watch.waiters.filter { ended || text.contains($0.needle) }
            watch.waiters.removeAll { ended || text.contains($0.needle) }
            return due.map { ($0.continuation, text.contains($0.needle) ? text : nil) }
        }
        for (continuation, text) in ready { continuation.resume(returning: text) }
    }

    /// Everything printed so far.
    public var text: String { watch.withLock { $0.output } }

    /// Waits until the output contains `needle`; returns the output so far, or `nil` if it ended without it.
    public func output(containing needle: String) async -> String? {
        await withCheckedContinuation { continuation in
            let now: String?? = watch.withLock { watch in
                if watch.output.contains(needle) { return .some(watch.output) }
                if watch.ended { return .some(nil) }
                watch.waiters.append((needle, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Types a line.
    public func type(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// Kills the process with SIGKILL, as the system kills an app: no clean-up runs.
    public func kill() { _ = Foundation.kill(process.processIdentifier, SIGKILL) }

    /// Ends the input, as Ctrl-D would.
    public func closeInput() { try? input.fileHandleForWriting.close() }

    /// Waits for the process to exit and its output to end; returns its status and everything it printed.
    public func finished() async -> (Int32, String) {
        closeInput()
        let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let known = watch.withLock { watch in
                if watch.status == nil { watch.exitWaiter = continuation }
                return watch.status
            }
            if let known { continuation.resume(returning: known) }
        }
        _ = await output(containing: "\u{0}")
        return (status, watch.withLock { $0.output })
    }
}
