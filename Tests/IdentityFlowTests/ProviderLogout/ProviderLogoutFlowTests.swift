import Foundation
import Testing
import IdentityFlow
import IdentityFlowTesting
import Statechart

/// Provider logout (OpenID Connect RP-Initiated Logout 1.0) through the public API.
@Suite("Provider logout")
struct ProviderLogoutFlowTests {
    /// A client over the reference server with alice registered and logged in.
    static func registered() async throws -> (Harness, UserProfile) {
        let harness = try await Harness.make()
        let result = try await harness.client.registerUser(responder: ScriptedResponder([harness.browserLogin(), .createPin(.respond("24680"))]))
        return (harness, result.profile)
    }

    static func code(of call: () async throws(IdentityFlowError) -> UserProfile) async -> IdentityFlowError? {
        do throws(IdentityFlowError) {
            _ = try await call()
            return nil
        } catch { return error }
    }

    @Test("the logout page carries id_token_hint, post_logout_redirect_uri and state; the confirmed redirect logs out here and there")
    func confirmedThroughTheSender() async throws {
        let (harness, profile) = try await Self.registered()
        let server = harness.server
        let seen = Locked<URL?>(nil)
        let idToken = try #require(harness.client.identityClaims)
        let loggedOut = try await harness.client.providerLogout { challenge in
            guard case .providerLogout(let logout) = challenge else {
                Issue.record("unexpected \(challenge)")
                return
            }
            seen.withLock { $0 = logout.url }
            #expect(harness.client.authenticatedUserProfile == nil, "the session ends on the device before the browser opens")
            #expect(!logout.description.contains("id_token_hint"))
            logout.sender.respond(with: try! server.logOut(at: logout.url), to: logout)
        }
        #expect(loggedOut == profile)
        let url = try #require(seen.withLock { $0 })
        let names = Set(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name) ?? [])
        #expect(names.isSuperset(of: ["id_token_hint", "post_logout_redirect_uri", "state", "client_id"]))
        #expect(server.providerLogouts == [idToken.subject])
        #expect(harness.client.authenticatedUserProfile == nil)
        #expect(server.activeAccessTokenCount == 0 && server.activeRefreshTokenCount == 0)
        #expect(harness.client.userProfiles.contains(profile), "the profile stays registered")
    }

    @Test("neither the ID token sent as id_token_hint nor the state reaches a transition record, a log line or an error")
    func secretsStayOut() async throws {
        let (harness, _) = try await Self.registered()
        let server = harness.server
        let secrets = Locked<[String]>([])
        let error = await Self.code {
            () throws(IdentityFlowError) in
            try await harness.client.providerLogout { challenge in
                guard case .providerLogout(let logout) = challenge else { return }
                let items = URLComponents(url: logout.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
                secrets.withLock { $0 = items.filter { ["id_token_hint", "state"].contains($0.name) }.compactMap(\.value) }
                let redirect = try! server.logOut(at: logout.url, error: "server_error")
                logout.sender.respond(with: redirect, to: logout)
            }
        }
        let texts = harness.transitions.all.map(\.description) + harness.logs.messages + [error.map { "\($0)" } ?? ""]
        #expect(secrets.current.count == 2)
        for secret in secrets.current {
            #expect(!texts.contains { $0.contains(secret) })
        }
    }

    @Test("the redirect handed to handleRedirect answers the challenge")
    func confirmedThroughHandleRedirect() async throws {
        let (harness, profile) = try await Self.registered()
        let server = harness.server, client = harness.client
        let loggedOut = try await client.providerLogout { challenge in
            guard case .providerLogout(let logout) = challenge else { return }
            let redirect = try! server.logOut(at: logout.url)
            #expect(!client.handleRedirect(URL(string: "identityflow-test://callback?state=another")!))
            #expect(client.handleRedirect(redirect))
            withExtendedLifetime(logout) {}
        }
        #expect(loggedOut == profile)
    }

    @Test("cancelled, another state, or the provider's error: 11063 with the cause; logged out here and the tokens revoked all the same")
    func unconfirmed() async throws {
        for answer in ["cancel", "forgedState", "error"] {
            let (harness, _) = try await Self.registered()
            let server = harness.server
            let error = await Self.code {
                () throws(IdentityFlowError) in
                try await harness.client.providerLogout { challenge in
                    guard case .providerLogout(let logout) = challenge else { return }
                    switch answer {
                    case "cancel": logout.sender.cancel(logout)
                    case "forgedState": logout.sender.respond(with: URL(string: "identityflow-test://callback?state=forged")!, to: logout)
                    default: logout.sender.respond(with: try! server.logOut(at: logout.url, error: "server_error"), to: logout)
                    }
                }
            }
            #expect(error?.code == .providerLogoutUnconfirmed, "\(answer)")
            let cause = (error?.underlying as? IdentityFlowError)?.code
            #expect(cause == ["cancel": .actionCancelled, "forgedState": .invalidState, "error": .externalIdentityProviderFailure][answer], "\(answer)")
            #expect(harness.client.authenticatedUserProfile == nil, "\(answer)")
            #expect(server.activeAccessTokenCount == 0, "\(answer)")
            #expect(server.providerLogouts.isEmpty, "\(answer)")
            #expect(!harness.client.isFlowRunning)
        }
    }

    @Test("a provider without end_session_endpoint: no challenge, 11062, logged out on the device with the tokens revoked")
    func notSupported() async throws {
        let (harness, _) = try await Self.registered()
        harness.server.offersProviderLogout = false
        let error = await Self.code {
            () throws(IdentityFlowError) in
            try await harness.client.providerLogout { challenge in Issue.record("no challenge expected, got \(challenge)") }
        }
        #expect(error?.code == .providerLogoutNotSupported)
        #expect(harness.client.authenticatedUserProfile == nil)
        #expect(harness.server.activeAccessTokenCount == 0)
    }

    @Test("nobody logged in: userNotAuthenticated, before anything is sent")
    func nobodyLoggedIn() async throws {
        let harness = try await Harness.make()
        let error = await Self.code {
            () throws(IdentityFlowError) in try await harness.client.providerLogout { _ in }
        }
        #expect(error?.code == .userNotAuthenticated)
        #expect(!harness.server.calls.contains(.endSessionURL))
    }

    final class Recorder: ProviderLogoutDelegate, Sendable {
        let server: ReferenceIdentityService
        let events = Locked<[String]>([])
        let done = Locked<CheckedContinuation<Void, Never>?>(nil)
        init(server: ReferenceIdentityService) { self.server = server }

        func userClient(_ client: UserClient, didStartProviderLogoutOf profile: UserProfile) { events.withLock { $0.append("start") } }
        func userClient(_ client: UserClient, didReceiveProviderLogoutChallenge challenge: ProviderLogoutChallenge) {
            events.withLock { $0.append("challenge") }
            challenge.sender.respond(with: try! server.logOut(at: challenge.url), to: challenge)
        }
        func userClient(_ client: UserClient, didLogOutAtProvider profile: UserProfile) { finish("success") }
        func userClient(_ client: UserClient, didFailProviderLogoutOf profile: UserProfile?, error: IdentityFlowError) {
            finish("failure \(error.code.rawValue)")
        }
        private func finish(_ event: String) {
            events.withLock { $0.append(event) }
            done.withLock { $0 }?.resume()
        }
    }

    @Test("the delegate style: didStart, the challenge, then exactly one terminal callback")
    func delegate() async throws {
        let (harness, _) = try await Self.registered()
        let recorder = Recorder(server: harness.server)
        await withCheckedContinuation { continuation in
            recorder.done.withLock { $0 = continuation }
            harness.client.providerLogout(delegate: recorder)
        }
        #expect(recorder.events.withLock { $0 } == ["start", "challenge", "success"])
    }
}
