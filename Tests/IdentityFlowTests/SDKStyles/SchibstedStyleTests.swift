import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// Schibsted account's browser options on the engine: an ephemeral or shared browser session, and
/// intermediate redirects (BankID) that leave the browser challenge open.
@Suite("Schibsted style: browser session and intermediate redirects")
struct SchibstedStyleTests {
    static func client(ephemeral: Bool = false, intermediate: [URL] = []) async throws -> (UserClient, ReferenceIdentityService) {
        var configuration = ClientConfiguration.testing()
        configuration.prefersEphemeralBrowserSession = ephemeral
        configuration.intermediateRedirects = intermediate
        let server = ReferenceIdentityService()
        let client = UserClient(configuration: configuration, service: server, storage: InMemoryStorage())
        try await client.start()
        return (client, server)
    }

    @Test("the browser challenge says whether an ephemeral session is wanted", arguments: [false, true])
    func browserSession(ephemeral: Bool) async throws {
        let (client, server) = try await Self.client(ephemeral: ephemeral)
        let responder = ScriptedResponder([
            .browserRegistration(
                .respondWith { challenge in
                    #expect(challenge.prefersEphemeralSession == ephemeral)
                    return try server.logIn(at: challenge.url)
                }),
            .createPin(.respond("24680")),
        ])
        _ = try await client.registerUser(responder: responder)
        try responder.verify()
    }

    @Test("a BankID return is ignored, through the sender and handleRedirect; the real redirect then completes the sign-in")
    func intermediateRedirect() async throws {
        let bankID = URL(string: "identityflow-test:/bankId")!
        let (client, server) = try await Self.client(intermediate: [bankID])
        #expect(!client.handleRedirect(URL(string: "identityflow-test:/bankId?x=1")!), "nothing waits yet")
        let responder = ScriptedResponder([.browserRegistration(.hold), .createPin(.respond("24680"))])
        async let registered = client.registerUser(responder: responder)
        var held: BrowserRegistrationChallenge?
        for _ in 0..<2_000 {
            if case .browserRegistration(let browser)? = responder.heldChallenges.first { held = browser; break }
            try await Task.sleep(for: .milliseconds(1))
        }
        let challenge = try #require(held)
        #expect(challenge.sender.respond(with: URL(string: "identityflow-test:/bankId/return?session=1")!, to: challenge))
        #expect(client.handleRedirect(URL(string: "identityflow-test:/bankId")!))
        #expect(client.isFlowRunning, "an intermediate redirect ended the flow")
        #expect(client.handleRedirect(try server.logIn(at: challenge.url)))
        let result = try await registered
        #expect(client.userProfiles == [result.profile])
    }
}
