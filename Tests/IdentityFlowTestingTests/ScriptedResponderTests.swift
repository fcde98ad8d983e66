import Foundation
import IdentityFlowTesting
import Testing

/// A scripted test explains its own failure, and the script covers every challenge kind.
@Suite("ScriptedResponder")
struct ScriptedResponderTests {
    static func client(_ server: ReferenceIdentityService) async throws -> UserClient {
        let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
        try await client.start()
        return client
    }

    @Test("a step whose answer throws (a user the server does not know): the flow's error carries the reason")
    func unknownUserReason() async throws {
        let server = ReferenceIdentityService()
        let client = try await Self.client(server)
        let responder = ScriptedResponder([
            .browserRegistration(.respondWith { try server.logIn(at: $0.url, as: "carol") }),
            .createPin(.respond("24680")),
        ])
        let error = await #expect(throws: IdentityFlowError.self) { try await client.registerUser(.default, responder: responder) }
        #expect(error?.code == .actionCancelled)
        let message = error?.message ?? ""
        #expect(message.contains("step 1: computing the answer failed"), "\(message)")
        #expect(message.contains("No user carol") && message.contains("alice, bob"), "\(message)")
        #expect(throws: ScriptMismatch.self) { try responder.verify() }
    }

    @Test("an unexpected challenge: the flow's error names what the script expected and what came")
    func unexpectedChallengeReason() async throws {
        let server = ReferenceIdentityService()
        let client = try await Self.client(server)
        let responder = ScriptedResponder([.createPin(.respond("24680"))])
        let error = await #expect(throws: IdentityFlowError.self) { try await client.registerUser(.default, responder: responder) }
        #expect(error?.message.contains("step 1: expected createPin, got") == true, "\(error?.message ?? "")")
    }

    @Test("a provider logout is scripted, through the async API and as the delegate")
    func providerLogout() async throws {
        let server = ReferenceIdentityService()
        let client = try await Self.client(server)
        let register = [ScriptStep.browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680"))]
        let profile = try await client.registerUser(.default, responder: ScriptedResponder(register)).profile

        let responder = ScriptedResponder([.providerLogout(.respondWith { try server.logOut(at: $0.url) })])
        try await client.providerLogout(responder: responder)
        try responder.verify()
        #expect(responder.outcomes.map(\.description) == ["loggedOutAtProvider(\(profile))"])

        try await client.authenticateUser(profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        let delegate = ScriptedResponder([.providerLogout(.respondWith { try server.logOut(at: $0.url) })])
        client.providerLogout(delegate: delegate)
        #expect(await delegate.outcome().description == "loggedOutAtProvider(\(profile))")
        try delegate.verify()
        #expect(delegate.events.first == "didStartProviderLogoutOf(\(profile))")
    }

    @Test("an expected challenge that never came is named with how the flow ended")
    func missingStepIsNamed() async throws {
        let server = ReferenceIdentityService()
        let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
        try await client.start()
        let responder = ScriptedResponder([.browserRegistration(.cancel), .createPin(.respond("24680"))])
        client.registerUser(delegate: responder)
        _ = await responder.outcome()
        #expect { try responder.verify() } throws: { error in
            "\(error)".contains("step 2 of 2: expected createPin, but the flow ended with failed(9006)")
        }
        #expect(
            responder.events == ["didStartRegistrationOf", "challenge BrowserRegistrationChallenge(reference-browser)", "answer cancel", "result failed(9006)"])
    }
}
