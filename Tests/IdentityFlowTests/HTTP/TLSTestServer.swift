import Foundation
import Statechart

/// `Tests/Fixtures/tls/tls_server.py` run as a child process: HTTPS on 127.0.0.1 with a
/// self-signed certificate, at most `maxRequests` requests, each one printed before it is answered.
/// The test that starts it stops it with ``stop()`` (closing its input, then terminating it).
final class TLSTestServer: Sendable {
    /// The fixture folder: the script, `cert.pem`, `key.pem`.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tls")
    /// The test certificate's PEM file, to trust for the test only.
    static let certificateFile = folder.appendingPathComponent("cert.pem").path
    /// The test certificate's pin (see the fixture's README for the openssl command).
    static let pin = "JzpHEGEoYwZUEGBmi5oVXi4OmrHLvm6y5MsfRhtJbIA="
    /// A well-formed pin of another key.
    static let otherPin = Data(repeating: 7, count: 32).base64EncodedString()

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    private struct Watch: Sendable {
        var output = ""
        var ended = false
        var waiters: [(needle: String, continuation: CheckedContinuation<String?, Never>)] = []
    }

    private let process = Process()
    private let input = Pipe()
    private let watch = Locked(Watch())
    /// The port it listens on.
    let port: Int

    /// Starts the server and waits until it listens.
    init(maxRequests: Int = 8) async throws {
        let environment = ProcessInfo.processInfo.environment
        let python =
            environment["IDENTITYFLOW_PYTHON"] ?? ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let python else { throw StartFailure(description: "No python3 found (set IDENTITYFLOW_PYTHON).") }
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Self.folder.appendingPathComponent("tls_server.py").path, "\(maxRequests)"]
        process.standardInput = input
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.detachNewThread { [watch] in
            let handle = output.fileHandleForReading
            while true {
                let data = handle.availableData
                let ended = data.isEmpty
                let ready = watch.withLock { watch -> [(CheckedContinuation<String?, Never>, String?)] in
                    watch.output += String(decoding: data, as: UTF8.self)
                    watch.ended = ended
                    let text = watch.output
                    let due = watch.waiters.filter { ended || text.contains($0.needle) }
                    watch.waiters.removeAll { ended || text.contains($0.needle) }
                    return due.map { ($0.continuation, text.contains($0.needle) ? text : nil) }
                }
                for (continuation, text) in ready { continuation.resume(returning: text) }
                if ended { break }
            }
        }
        let started = await Self.output(of: watch, containing: "\n")
        guard let line = started, let port = Int(line.split(separator: "\n").first?.split(separator: " ").last ?? "") else {
            process.terminate()
            throw StartFailure(description: "The TLS test server did not start.")
        }
        self.port = port
    }

    /// `https://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "https://127.0.0.1:\(port)")! }

    /// Everything it printed so far.
    var output: String { watch.withLock { $0.output } }

    /// The request lines printed so far.
    var requests: [String] { output.split(separator: "\n").filter { $0.hasPrefix("REQUEST ") }.map(String.init) }

    /// Waits until the output holds `needle`; the output then, or `nil` when the server ended without it.
    func output(containing needle: String) async -> String? { await Self.output(of: watch, containing: needle) }

    private static func output(of watch: Locked<Watch>, containing needle: String) async -> String? {
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

    /// Stops the server: its input closes (it shuts down), and it is terminated.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
