import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
import Statechart

extension InteropSuite {
    /// The extension probe against a stock provider that answers it other than with 404: Canaille,
    /// stock, with the extension base at its `/login/<name>` route, which redirects to its login
    /// page (an HTML page with status 200), as LemonLDAP::NG's portal answers unknown paths with
    /// `401` JSON. Only the documented provider list means the extension API is there.
    @Suite(
        "Interop: the extension probe against answers other than 404",
        .enabled(if: InteropProvider.all.contains { $0.fixture == "oidc-canaille" }, "Canaille's issuer is not set"))
    struct ExtensionProbeInteropTests {
        static func service() throws -> HTTPIdentityService {
            let canaille = try #require(InteropProvider.all.first { $0.fixture == "oidc-canaille" })
            var configuration = HTTPServiceConfiguration(
                issuer: canaille.issuer, clientID: InteropEnvironment.clientID, redirectURI: InteropEnvironment.redirectURI,
                scopes: ["openid", "profile", "email"])
            configuration.extensionBaseURL = canaille.issuer.appendingPathComponent("login")
            return try HTTPIdentityService(configuration: configuration)
        }

        @Test("a login page where the provider list would be: no extension API, said at debug level")
        func loginPageMeansAbsent() async throws {
            let logged = Locked<[IdentityFlowLogger.Record]>([])
            let logger = IdentityFlowLogger(minimumLevel: .debug) { record in logged.withLock { $0.append(record) } }
            #expect(try await Self.service().servesExtensionEndpoints(logger: logger) == false)
            #expect(logged.current.map(\.level) == [.debug])
        }

        @Test("a server-mode registration there fails with 11020 before any challenge")
        func serverModeRefusedEarly() async throws {
            var configuration = ClientConfiguration(redirectURI: InteropEnvironment.redirectURI)
            configuration.callbackExecutor = .immediate
            configuration.logger = .disabled
            let client = UserClient(configuration: configuration, service: try Self.service(), storage: InMemoryStorage())
            try await client.start()
            let responder = InteropResponder()
            do {
                _ = try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: responder)
                Issue.record("a server-mode registration went through without the extension API")
            } catch {
                #expect(error.code == .featureNotSupported, "\(error)")
            }
            #expect(responder.seen.current.isEmpty, "no challenge before the refusal")
        }
    }
}
