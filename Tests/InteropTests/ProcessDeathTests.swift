import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
import ChildProcessSupport

extension InteropSuite {
    /// A registration survives its process being killed: `identityflow demo --storage DIR` is killed
    /// with SIGKILL at points of a registration against the fixture provider, and this process, on the
    /// same `FileStorage` directory, finds a consistent store and continues.
    @Suite("Interop: a registration survives SIGKILL", .enabled(if: DemoProcess.binary != nil, "the identityflow executable was not built beside the tests"))
    struct ProcessDeathTests {
        static let pin = "73914"

        static func directory() throws -> URL {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identityflow-death-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory
        }

        /// The client of "the second process": same storage directory, the real provider.
        static func restartedClient(_ directory: URL) async throws -> (UserClient, LaunchReport) {
            var configuration = ClientConfiguration(redirectURI: InteropEnvironment.redirectURI, defaultScopes: ["openid", "profile"])
            configuration.callbackExecutor = .immediate
            let client = UserClient(configuration: configuration, service: try InteropEnvironment.service(), storage: try FileStorage(directory: directory))
            return (client, try await client.start())
        }

        static func demo(_ directory: URL) throws -> DemoProcess {
            try DemoProcess(arguments: try DemoInteropTests.arguments(["--storage", directory.path]))
        }

        static func killAndWait(_ demo: DemoProcess) async {
            demo.kill()
            _ = await demo.finished()
        }

        static func browserURL(in output: String) throws -> URL {
            let line = try #require(output.split(separator: "\n").first { $0.contains("  open  ") })
            return try #require(URL(string: String(line.split(separator: " ").last ?? "")))
        }

        static func pinLoginAndLogout(_ client: UserClient, _ profile: UserProfile) async throws {
            _ = try await client.authenticateUser(profile) { challenge in
                if case .pin(let entry) = challenge { entry.sender.respond(with: pin, to: entry) } else { challenge.cancel() }
            }
            #expect(client.authenticatedUserProfile == profile)
            try await client.logout()
        }

        @Test("killed while the user is in the browser, the registration completes in the next process, then a PIN login", .timeLimit(.minutes(2)))
        func killedInBrowser() async throws {
            let directory = try Self.directory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let demo = try Self.demo(directory)
            let shown = try #require(await demo.output(containing: "redirected to: "))
            let url = try Self.browserURL(in: shown)
            await Self.killAndWait(demo)

            let redirect = try await HeadlessBrowser().authorize(url)
            let (client, report) = try await Self.restartedClient(directory)
            #expect(report.resumableRegistrations.count == 1)
            #expect(report.profiles.isEmpty)
            #expect(client.handleRedirect(redirect))
            let result = try await client.registerUser(.resume) { challenge in
                if case .createPin(let create) = challenge { create.sender.respond(with: Self.pin, to: create) } else { challenge.cancel() }
            }
            #expect(client.userProfiles == [result.profile])
            #expect(!client.handleRedirect(redirect), "a replayed redirect belongs to no flow")
            try await Self.pinLoginAndLogout(client, result.profile)

            let state = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value)
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent(file)), as: UTF8.self)
                #expect(!text.contains(state), "\(file) still holds the registration's state")
            }
        }

        @Test(
            "killed at the start, at the PIN prompt, or after storing: the next process finds a complete profile or none", .timeLimit(.minutes(3)),
            arguments: ["started", "choosingPin", "registered"])
        func killedElsewhere(point: String) async throws {
            let directory = try Self.directory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let demo = try Self.demo(directory)
            switch point {
            case "started":
                _ = try #require(await demo.output(containing: "IdentityFlow demo against"))
            case "choosingPin":
                _ = try await DemoInteropTests.signIn(demo)
                _ = try #require(await demo.output(containing: "choose a 5-digit PIN"))
            default:
                _ = try await DemoInteropTests.signIn(demo)
                _ = try #require(await demo.output(containing: "choose a 5-digit PIN"))
                demo.type(Self.pin)
                _ = try #require(await demo.output(containing: "attempts left"))
            }
            await Self.killAndWait(demo)

            let (client, report) = try await Self.restartedClient(directory)
            if point == "started" {
                // The kill lands before or after the checkpoint is written; either way the store is whole.
                #expect(report.resumableRegistrations.count <= 1)
            } else {
                #expect(report.resumableRegistrations.isEmpty, "\(point): the code exchange consumed the checkpoint")
            }
            if point == "registered" {
                let profile = try #require(report.profiles.first)
                #expect(report.profiles.count == 1)
                try await Self.pinLoginAndLogout(client, profile)
            } else {
                #expect(report.profiles.isEmpty, "\(point): no half-made profile")
            }
        }
    }
}
