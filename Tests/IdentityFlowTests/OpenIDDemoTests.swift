import Foundation
import Testing
import Statechart
import ChildProcessSupport
@testable import IdentityFlow

/// `identityflow demo --issuer …` against a scripted provider on 127.0.0.1 without IdentityFlow's
/// extension endpoints: the OpenID Connect part alone (sign-in, code exchange with ID token
/// validation, userinfo, revocation), driven as a person at a terminal would.
@Suite("identityflow demo: the OpenID Connect part", .enabled(if: OpenIDDemoRun.binary != nil, "the identityflow executable was not built beside the tests"))
struct OpenIDDemoTests {
    /// What the scripted provider does.
    struct Script: Sendable {
        var userinfoSubject = "user-1"
        var offersRevocation = true
    }

    /// A provider for the demo: discovery, JWKS, a token endpoint issuing an ES256 ID token for
    /// the nonce the demo sent, userinfo, and (when offered) revocation; 404 elsewhere.
    final class Provider: Sendable {
        let signer = ES256TokenSigner()
        let script: Script
        let nonce = Locked<String?>(nil)
        let revoked = Locked<[String]>([])

        init(_ script: Script) { self.script = script }

        func handle(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
            let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
            switch request.path {
            case "/o/.well-known/openid-configuration":
                var document: [String: Any] = [
                    "issuer": "\(origin)/o", "authorization_endpoint": "\(origin)/o/authorize/", "token_endpoint": "\(origin)/o/token/",
                    "userinfo_endpoint": "\(origin)/o/userinfo/", "jwks_uri": "\(origin)/o/jwks/", "code_challenge_methods_supported": ["S256"],
                ]
                if script.offersRevocation { document["revocation_endpoint"] = "\(origin)/o/revoke/" }
                return .json(200, object: document)
            case "/o/jwks/":
                return .json(200, signer.jwks)
            case "/o/token/":
                let idToken = signer.idToken(issuer: "\(origin)/o", clientID: "demo-client", subject: "user-1", nonce: nonce.current)
                return .json(200, object: ["access_token": "access-demo", "token_type": "Bearer", "expires_in": 300, "id_token": idToken])
            case "/o/userinfo/":
                return .json(200, object: ["sub": script.userinfoSubject, "email": "alice@example.test"])
            case "/o/revoke/" where script.offersRevocation:
                revoked.withLock { $0.append(request.form["token"] ?? "") }
                return .response(status: 200, headers: [:], body: Data())
            default:
                return .response(status: 404, headers: [:], body: Data())
            }
        }
    }

    /// Runs the demo against `script`: waits for the authorization URL, answers its redirect with a
    /// code and the state it carries. Returns the exit status, the output and the provider.
    static func run(_ script: Script) async throws -> (Int32, String, Provider) {
        let provider = Provider(script)
        let server = try LoopbackHTTPServer(maxRequests: 32, handler: provider.handle)
        defer { server.stop() }
        let demo = try OpenIDDemoRun(arguments: [
            "demo", "--issuer", server.baseURL.appendingPathComponent("o").absoluteString,
            "--client-id", "demo-client", "--redirect-uri", "identityflow://callback", "--scope", "openid",
        ])
        let shown = try #require(await demo.output(containing: "redirected to"), "\(demo.text)")
        let line = try #require(shown.split(separator: "\n").first { $0.contains("  open  ") })
        let url = try #require(URL(string: String(line.split(separator: " ").last ?? "")))
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let state = try #require(query.first { $0.name == "state" }?.value)
        provider.nonce.withLock { $0 = query.first { $0.name == "nonce" }?.value }
        demo.type("identityflow://callback?code=code-1&state=\(URLQuery.encode(state))")
        let (status, output) = await demo.finished()
        return (status, output, provider)
    }

    @Test("a provider without a revocation endpoint: sign-in, validation and userinfo succeed, the logout is local, and the demo exits 0")
    func noRevocationEndpoint() async throws {
        let (status, output, _) = try await Self.run(Script(offersRevocation: false))
        #expect(status == 0, "\(output)")
        #expect(output.contains("IdTokenInfo(sub: user-1"), "\(output)")
        #expect(output.contains("userinfo"), "\(output)")
        #expect(output.contains("on this device only"), "\(output)")
        #expect(output.contains("revocation_endpoint"), "\(output)")
    }

    @Test("a userinfo answer for another subject than the ID token's is refused (OpenID Connect Core §5.3.2): exit 1, claims not shown")
    func userinfoForAnotherSubject() async throws {
        let (status, output, provider) = try await Self.run(Script(userinfoSubject: "someone-else"))
        #expect(status == 1, "\(output)")
        #expect(output.contains("[generic 11001]"), "\(output)")
        #expect(output.contains("5.3.2"), "\(output)")
        #expect(!output.contains("email"), "the refused answer's claims were used: \(output)")
        #expect(provider.revoked.current.contains("access-demo"), "the tokens of the refused session are revoked")
    }

    @Test("a userinfo answer for the ID token's subject is shown and the tokens are revoked: exit 0")
    func userinfoForTheSubject() async throws {
        let (status, output, provider) = try await Self.run(Script())
        #expect(status == 0, "\(output)")
        #expect(output.contains("email, sub"), "\(output)")
        #expect(output.contains("signed in, validated and revoked"), "\(output)")
        #expect(provider.revoked.current == ["access-demo"])
    }
}

/// The `identityflow` executable with pipes: the test types lines and waits for output. Output is
/// read by a ``PipeReader`` on a thread of its own, which ends when the child has exited and the
/// pipe is empty.
final class OpenIDDemoRun: Sendable {
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
        var status: Int32?
        var waiters: [(needle: String, continuation: CheckedContinuation<String?, Never>)] = []
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
        try process.run()
        Thread.detachNewThread { [watch, process] in
            let reader = PipeReader(descriptor: output.fileHandleForReading.fileDescriptor)
            // Bounded: 600 polls of up to 100 ms, then the child is killed and the waits end.
            for _ in 0..<600 {
                let more = reader.readChunk(waitingUpTo: 100)
                let exited = !more && (reader.reachedEnd || !process.isRunning)
                if exited {
                    process.waitUntilExit()
                    reader.drain()
                }
                if more || exited {
                    Self.publish(String(decoding: reader.output, as: UTF8.self), ended: exited, status: exited ? process.terminationStatus : nil, to: watch)
                }
                if exited { return }
            }
            if process.isRunning { _ = Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            reader.drain()
            Self.publish(String(decoding: reader.output, as: UTF8.self) + "\n[killed by the test after 60 s]", ended: true, status: -1, to: watch)
        }
    }

    private static func publish(_ text: String, ended: Bool, status: Int32?, to watch: Locked<Watch>) {
        let ready = watch.withLock { watch -> [(CheckedContinuation<String?, Never>, String?)] in
            watch.output = text
            watch.ended = ended
            if ended { watch.status = status }
            let due = watch.waiters.filter { ended || text.contains($0.needle) }
            watch.waiters.removeAll { ended || text.contains($0.needle) }
            return due.map { ($0.continuation, text.contains($0.needle) ? text : nil) }
        }
        for (continuation, text) in ready { continuation.resume(returning: text) }
    }

    /// Everything printed so far.
    var text: String { watch.withLock { $0.output } }

    /// Waits until the output contains `needle`; the output so far, or `nil` if it ended without it.
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

    /// Ends the input and waits for the process to exit; its status and everything it printed.
    func finished() async -> (Int32, String) {
        try? input.fileHandleForWriting.close()
        _ = await output(containing: "\u{0}")
        return watch.withLock { ($0.status ?? -1, $0.output) }
    }
}
