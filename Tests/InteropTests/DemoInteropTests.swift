import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
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

        /// Types PIN 73914 at the create-PIN prompt and again at the login's, then waits for the end.
        static func choosePinThenLogIn(_ demo: DemoProcess) async -> (Int32, String) {
            #expect(await demo.output(containing: "choose a 5-digit PIN") != nil)
            demo.type("73914")
            #expect(await demo.output(containing: "attempts left") != nil)
            demo.type("73914")
            return await demo.finished()
        }

        @Test("registers through the browser, logs in with the PIN and logs out; no PIN or code is printed", .timeLimit(.minutes(2)))
        func fullRun() async throws {
            let demo = try DemoProcess(arguments: try Self.arguments())
            let redirect = try await Self.signIn(demo)
            let (status, output) = await Self.choosePinThenLogIn(demo)
            #expect(status == 0, "\(output)")
            #expect(output.contains("registered UserProfile("))
            #expect(output.contains("logged out"))
            #expect(!output.contains("73914"))
            let code = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "code" }?.value
            #expect(!output.contains(try #require(code)))
        }

        @Test("--sign-in-only shows sign-in, ID token validation, userinfo and revocation", .timeLimit(.minutes(2)))
        func signInOnly() async throws {
            let demo = try DemoProcess(arguments: try Self.arguments(["--sign-in-only"]))
            _ = try await Self.signIn(demo)
            let (status, output) = await demo.finished()
            #expect(status == 0, "\(output)")
            #expect(output.contains("--sign-in-only"))
            #expect(output.contains("IdTokenInfo(sub: "))
            #expect(output.contains("signed in, validated and revoked"))
        }

        @Test("a provider without the extension API runs in device mode and says so: register, PIN login, userinfo, logout", .timeLimit(.minutes(2)))
        func deviceMode() async throws {
            let origin = try #require(InteropEnvironment.issuer).deletingLastPathComponent()
            let demo = try DemoProcess(arguments: try Self.arguments(["--extension-base", origin.appendingPathComponent("no-extension-here").absoluteString]))
            _ = try await Self.signIn(demo)
            let (status, output) = await Self.choosePinThenLogIn(demo)
            #expect(status == 0, "\(output)")
            #expect(output.contains("device: the provider has no IdentityFlow extension API"))
            #expect(output.contains("the ID token's subject (checked)"), "\(output)")
            #expect(output.contains("the refresh token stays sealed"))
            #expect(!output.contains("73914"))
        }

        @Test("--device runs device mode without probing, against a provider that serves the extension API too", .timeLimit(.minutes(2)))
        func forcedDeviceMode() async throws {
            let demo = try DemoProcess(arguments: try Self.arguments(["--device"]))
            _ = try await Self.signIn(demo)
            let (status, output) = await Self.choosePinThenLogIn(demo)
            #expect(status == 0, "\(output)")
            #expect(output.contains("device (--device)"), "\(output)")
            #expect(output.contains("the ID token's subject (checked)"), "\(output)")
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
            let demo = try DemoProcess(arguments: try Self.arguments(["--sign-in-only"]))
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
            #expect(!output.contains("no IdentityFlow extension API"))
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
