import Foundation
import IdentityFlowTesting
import Testing

/// A host's own `@MainActor` screen drives a login through its delegate; the test awaits the end.
@Suite("Awaiting a delegate-driven flow")
@MainActor
struct FlowEndingTests {
    /// A login screen as an app writes it: it starts the flow itself and keeps what it shows.
    @MainActor
    final class LoginScreen {
        let client: UserClient
        var pin: String
        private(set) var shown = "idle"

        init(client: UserClient, pin: String) {
            self.client = client
            self.pin = pin
        }

        func logIn(_ profile: UserProfile) { client.authenticateUser(profile, delegate: self) }
    }

    static func registered() async throws -> (UserClient, UserProfile) {
        let server = ReferenceIdentityService()
        let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
        try await client.start()
        let responder = ScriptedResponder([.browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680"))])
        let profile = try await client.registerUser(.default, responder: responder).profile
        try await client.logout()
        return (client, profile)
    }

    @Test("the wait returns after the screen's terminal callback ran: success, then a failure with its error")
    func awaitsTheScreensOwnFlow() async throws {
        let (client, profile) = try await Self.registered()
        let screen = LoginScreen(client: client, pin: "24680")
        let success = await client.outcomeOfNextFlow { screen.logIn(profile) }
        #expect(success.description == "succeeded")
        #expect(screen.shown == "logged in")

        try await client.logout()
        screen.pin = "cancel"
        let failure = await client.outcomeOfNextFlow { screen.logIn(profile) }
        #expect(failure.error?.code == .actionCancelled)
        #expect(screen.shown == "failed 9006")
    }

    @Test("a start that begins no delegate flow times out instead of hanging")
    func noFlowTimesOut() async throws {
        let (client, _) = try await Self.registered()
        let ending = await client.outcomeOfNextFlow(timeout: .zero) {}
        guard case .timedOut = ending else {
            Issue.record("expected a timeout, got \(ending)")
            return
        }
    }
}

extension FlowEndingTests.LoginScreen: @MainActor AuthenticationDelegate {
    func userClient(_ client: UserClient, didReceivePinChallenge challenge: PinChallenge) {
        if pin == "cancel" { return _ = challenge.sender.cancel(challenge) }
        challenge.sender.respond(with: pin, to: challenge)
    }

    func userClient(_ client: UserClient, didAuthenticateUser profile: UserProfile, authenticator: Authenticator, info: CustomInfo?) {
        shown = "logged in"
    }

    func userClient(_ client: UserClient, didFailToAuthenticateUser profile: UserProfile, authenticator: Authenticator, error: IdentityFlowError) {
        shown = "failed \(error.code)"
    }
}
