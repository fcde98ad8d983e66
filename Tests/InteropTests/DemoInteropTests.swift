import Foundation
import Testing
import IdentityFlow
import Statechart
import ChildProcessSupport

extension InteropSuite {
    /// `identityflow demo --issuer …` driven like a person at a terminal: the test reads the printed
    /// URL, signs in with the headless browser, pastes the redirect and types the PIN.
    @Suite(
        "Interop: identityflow demo against the fixture", .enabled(if: DemoProcess.binary != nil, "the identityflow executable was not built beside the tests"))
    struct DemoInteropTests {
        static func arguments(_ extra: [String] = []) throws -> [String] {
            let issuer = try #require(InteropEnvironment.issuer)
            return [
                "demo", "--issuer", issuer.absoluteString, "--client-id", InteropEnvironment.clientID,
                "--redirect-uri", InteropEnvironment.redirectURI.absoluteString, "--scope", "openid", "--scope", "profile",
            ] + extra
        }

        /// Waits for the sign-in prompt, signs in at the printed URL and pastes the redirect.
        static func signIn(_ demo: DemoProcess) async throws -> URL {
            let shown = try #require(await demo.output(containing: "redirected to: "))
            let line = try #require(shown.split(separator: "\n").first { $0.contains("  open  ") })
            let url = try #require(URL(string: String(line.split(separator: " ").last ?? "")))
            let redirect = try await HeadlessBrowser().authorize(url)
            demo.type(redirect.absoluteString)
            return redirect
        }

        @Test("registers through the browser, logs in with the PIN and logs out; no PIN or code is printed", .timeLimit(.minutes(2)))
        func fullRun() async throws {
            let demo = try DemoProcess(arguments: try Self.arguments())
            let redirect = try await Self.signIn(demo)
            #expect(await demo.output(containing: "choose a 5-digit PIN") != nil)
            demo.type("73914")
            #expect(await demo.output(containing: "attempts left") != nil)
            demo.type("73914")
            let (status, output) = await demo.finished()
            #expect(status == 0, "\(output)")
            #expect(output.contains("registered UserProfile("))
            #expect(output.contains("logged out"))
            #expect(!output.contains("73914"))
            let code = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "code" }?.value
            #expect(!output.contains(try #require(code)))
        }

        @Test("without extension endpoints it shows sign-in, ID token validation, userinfo and revocation", .timeLimit(.minutes(2)))
        func signInOnly() async throws {
            let origin = try #require(InteropEnvironment.issuer).deletingLastPathComponent()
            let demo = try DemoProcess(arguments: try Self.arguments(["--extension-base", origin.appendingPathComponent("no-extension-here").absoluteString]))
            _ = try await Self.signIn(demo)
            let (status, output) = await demo.finished()
            #expect(status == 0, "\(output)")
            #expect(output.contains("no IdentityFlow extension endpoints"))
            #expect(output.contains("IdTokenInfo(sub: "))
            #expect(output.contains("signed in, validated and revoked"))
        }

        @Test(
            "a refused redirect is reported with the library's own code, not 11002", .timeLimit(.minutes(2)),
            arguments: [
                ("error=access_denied&state={state}", "[registration 10024]"),
                ("code=abc&state=forged", "[registration 10002]"),
                ("state={state}", "[generic 11001]"),
                ("code=abc&state={state}&iss=https%3A%2F%2Fattacker.example", "[registration 11012]"),
            ])
        func refusedRedirects(query: String, reported: String) async throws {
            let origin = try #require(InteropEnvironment.issuer).deletingLastPathComponent()
            let demo = try DemoProcess(arguments: try Self.arguments(["--extension-base", origin.appendingPathComponent("no-extension-here").absoluteString]))
            let shown = try #require(await demo.output(containing: "redirected to: "))
            let line = try #require(shown.split(separator: "\n").first { $0.contains("  open  ") })
            let url = try #require(URL(string: String(line.split(separator: " ").last ?? "")))
            let state = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value)
            demo.type("\(InteropEnvironment.redirectURI.absoluteString)?" + query.replacingOccurrences(of: "{state}", with: state))
            let (status, output) = await demo.finished()
            #expect(status == 1)
            #expect(output.contains(reported), "\(output)")
        }

        @Test("a provider that is down is reported as the network error it is, not as missing extension endpoints", .timeLimit(.minutes(2)))
        func providerDown() async throws {
            // Port 1 on loopback: nothing listens there, so the connection is refused.
            let demo = try DemoProcess(arguments: [
                "demo", "--issuer", "http://127.0.0.1:1/o", "--client-id", "c",
                "--redirect-uri", InteropEnvironment.redirectURI.absoluteString,
            ])
            let (status, output) = await demo.finished()
            #expect(status == 1)
            #expect(output.contains("[generic 9000]") || output.contains("[generic 9001]"), "\(output)")
            #expect(!output.contains("no IdentityFlow extension endpoints"))
        }

        @Test("end of input at the sign-in prompt cancels and exits non-zero", .timeLimit(.minutes(2)))
        func endOfInput() async throws {
            let demo = try DemoProcess(arguments: try Self.arguments())
            #expect(await demo.output(containing: "redirected to: ") != nil)
            demo.closeInput()
            let (status, output) = await demo.finished()
            #expect(status == 1)
            #expect(output.contains("[generic 9006]"))
        }
    }
}

/// The `identityflow` executable run with pipes: the test types lines and waits for output.
final class DemoProcess: Sendable {
    /// The executable built beside the test bundle, or `IDENTITYFLOW_BINARY`.
    static let binary: URL? = {
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

    init(arguments: [String]) throws {
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

    /// Waits until the output contains `needle`; returns the output so far, or `nil` if it ended without it.
    func output(containing needle: String) async -> String? {
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
    func type(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// Kills the process with SIGKILL, as the system kills an app: no clean-up runs.
    func kill() { _ = Foundation.kill(process.processIdentifier, SIGKILL) }

    /// Ends the input, as Ctrl-D would.
    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Waits for the process to exit and its output to end; returns its status and everything it printed.
    func finished() async -> (Int32, String) {
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
