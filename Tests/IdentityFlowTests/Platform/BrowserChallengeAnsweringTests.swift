import Foundation
import Statechart
import Testing
@testable import IdentityFlow

/// A web authentication session that records each request and ends as told.
struct FakeWebAuthenticationSessions: WebAuthenticationSessionRunner {
    let outcome: WebAuthenticationOutcome
    let requests = Locked<[WebAuthenticationRequest]>([])

    @MainActor
    func run(_ request: WebAuthenticationRequest) async -> WebAuthenticationOutcome {
        requests.withLock { $0.append(request) }
        return outcome
    }
}

/// `WebAuthenticationAnswerer`'s logic on a fake session: callbacks, session kinds, answers.
@Suite("Web authentication session answerer logic")
@MainActor
struct BrowserChallengeAnsweringTests {
    static let redirectURI = URL(string: "myapp://callback")!
    static let page = URL(string: "https://sso.example.com/authorize?state=s")!

    static func registration(_ sender: RecordingSender, ephemeral: Bool) -> BrowserRegistrationChallenge {
        BrowserRegistrationChallenge(
            identityProvider: IdentityProvider(identifier: "idp", name: "IdP", kind: .browser), url: page, prefersEphemeralSession: ephemeral, sender: sender)
    }

    @Test("A redirect answers the sign-in challenge, in the session kind the challenge asks for", arguments: [false, true])
    func redirectAnswers(ephemeral: Bool) async throws {
        let sessions = FakeWebAuthenticationSessions(outcome: .redirected(URL(string: "myapp://callback?code=1&state=s")!))
        let sender = RecordingSender()
        let answering = BrowserChallengeAnswering(runner: sessions, redirectURI: Self.redirectURI, prefersEphemeralLogoutSession: false)
        try await answering.answer(Self.registration(sender, ephemeral: ephemeral))
        #expect(sender.answers.current == ["respond myapp://callback?code=1&state=s"])
        #expect(sessions.requests.current == [WebAuthenticationRequest(url: Self.page, callback: .customScheme("myapp"), prefersEphemeralSession: ephemeral)])
    }

    @Test("The user closing the sheet cancels the challenge and throws 9006")
    func userCancel() async {
        let sender = RecordingSender()
        let answering = BrowserChallengeAnswering(
            runner: FakeWebAuthenticationSessions(outcome: .cancelledByUser), redirectURI: Self.redirectURI, prefersEphemeralLogoutSession: false)
        do {
            try await answering.answer(Self.registration(sender, ephemeral: false))
            Issue.record("no error")
        } catch { #expect(error.code == .actionCancelled) }
        #expect(sender.answers.current == ["cancel"])
    }

    @Test(
        "Every other failure cancels the challenge and throws 11070 naming the reason",
        arguments: [
            (WebAuthenticationFailure.presentationContextNotProvided, "presentationContextNotProvided"),
            (.presentationContextInvalid, "presentationContextInvalid"), (.httpsCallbackUnavailable, "iOS 17.4"),
            (.notStarted, "did not start"), (.system(domain: "SomeDomain", code: 7), "SomeDomain 7"),
        ])
    func failures(failure: WebAuthenticationFailure, named: String) async {
        let sender = RecordingSender()
        let answering = BrowserChallengeAnswering(
            runner: FakeWebAuthenticationSessions(outcome: .failed(failure)), redirectURI: Self.redirectURI, prefersEphemeralLogoutSession: false)
        do {
            try await answering.answer(Self.registration(sender, ephemeral: false))
            Issue.record("no error")
        } catch {
            #expect(error.code == .browserSessionFailed)
            #expect(error.message.contains(named))
        }
        #expect(sender.answers.current == ["cancel"])
    }

    @Test("A logout page opens in the configured session kind and waits for the post-logout redirect URI", arguments: [false, true])
    func logout(ephemeral: Bool) async throws {
        let sessions = FakeWebAuthenticationSessions(outcome: .redirected(URL(string: "https://app.example.com/loggedout?state=x")!))
        let sender = RecordingSender()
        let challenge = ProviderLogoutChallenge(
            userProfile: UserProfile(profileId: "p"), url: Self.page, postLogoutRedirectURI: URL(string: "https://app.example.com/loggedout")!, sender: sender)
        let answering = BrowserChallengeAnswering(runner: sessions, redirectURI: Self.redirectURI, prefersEphemeralLogoutSession: ephemeral)
        try await answering.answer(challenge)
        #expect(sender.answers.current == ["respond https://app.example.com/loggedout?state=x"])
        #expect(sessions.requests.current.map(\.callback) == [.https(host: "app.example.com", path: "/loggedout")])
        #expect(sessions.requests.current.map(\.prefersEphemeralSession) == [ephemeral])
    }

    @Test("Callbacks: a custom scheme, an https host and path; http and scheme-less URIs are refused with 10001")
    func callbacks() throws {
        #expect(try BrowserChallengeAnswering<FakeWebAuthenticationSessions>.callback(for: URL(string: "MyApp://cb")!) == .customScheme("myapp"))
        #expect(
            try BrowserChallengeAnswering<FakeWebAuthenticationSessions>.callback(for: URL(string: "https://a.example/cb/x")!)
                == .https(host: "a.example", path: "/cb/x"))
        #expect(
            try BrowserChallengeAnswering<FakeWebAuthenticationSessions>.callback(for: URL(string: "https://a.example")!)
                == .https(host: "a.example", path: "/"))
        for uri in ["http://a.example/cb", "callback"] {
            #expect(throws: IdentityFlowError.self) { try BrowserChallengeAnswering<FakeWebAuthenticationSessions>.callback(for: URL(string: uri)!) }
        }
    }

    @Test("An unusable redirect URI cancels the challenge before any session opens")
    func unusableRedirectURI() async {
        let sessions = FakeWebAuthenticationSessions(outcome: .cancelledByUser)
        let sender = RecordingSender()
        let answering = BrowserChallengeAnswering(runner: sessions, redirectURI: URL(string: "http://a.example/cb")!, prefersEphemeralLogoutSession: false)
        do {
            try await answering.answer(Self.registration(sender, ephemeral: false))
            Issue.record("no error")
        } catch { #expect(error.code == .configurationInvalid) }
        #expect(sender.answers.current == ["cancel"] && sessions.requests.current.isEmpty)
    }
}
