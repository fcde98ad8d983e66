import Foundation
@_spi(Integrator) import IdentityFlow
import Statechart

/// `identityflow demo --scenario NAME`: one of the other reference SDKs' flows, run against an
/// in-process reference server and narrated like ``DemoScenario``.
public enum SDKStyleScenario: String, Sendable, CaseIterable {
    /// Zephr: the browser sign-in ends in a partial registration; a refused attribute, then success.
    case zephr
    /// 7Pass: a wrong password, the right one answered `interaction_required`, the browser
    /// continuation with its autologin token; then social login by token exchange.
    case sevenPass = "7pass"
    /// Grab: app-to-app login through the identity app's URL, then a login that reuses the valid session.
    case grab
    /// Schibsted: an ephemeral browser session and a BankID return that leaves the challenge open.
    case schibsted

    /// Runs the scenario, narrating to `output`.
    /// - Parameter output: Receives each line.
    /// - Returns: Whether every step succeeded.
    public func run(output: @escaping @Sendable (String) -> Void) async -> Bool {
        let transcript = DemoTranscript(output: output)
        let server = ReferenceIdentityService()
        var configuration = DemoScenario.configuration(logger: IdentityFlowLogger { transcript.log($0) })
        if self == .grab { configuration.reusesValidSession = true }
        if self == .schibsted {
            configuration.prefersEphemeralBrowserSession = true
            configuration.intermediateRedirects = [URL(string: "identityflow-demo:/bankId")!]
        }
        let client = UserClient(configuration: configuration, service: server, storage: InMemoryStorage())
        transcript.title("IdentityFlow demo: \(rawValue) style")
        let observation = client.transitionLog.observe { transcript.transition($0) }
        defer { observation.cancel() }
        do {
            try await client.start()
            try await steps(client: client, server: server, transcript: transcript)
            transcript.section("Result")
            transcript.note("every step succeeded")
            return true
        } catch {
            transcript.line("error", DemoTranscript.explain(error))
            return false
        }
    }

    private func steps(client: UserClient, server: ReferenceIdentityService, transcript: DemoTranscript) async throws(IdentityFlowError) {
        switch self {
        case .zephr:
            transcript.section("Partial registration: the provider needs the e-mail address")
            let attempts = ScriptedAttempts(["email": "alice@example.com"], then: ["email": "ada@example.com"])
            try transcript.result(
                .success(
                    await client.registerUser(
                        responder: Narrator(transcript) { challenge in
                            switch challenge {
                            case .browserRegistration(let browser):
                                browser.sender.respond(with: try server.logIn(at: browser.url, consent: .partial(identifier: "ada@example.com")), to: browser)
                            case .partialRegistration(let partial): partial.sender.respond(with: attempts.next(), to: partial)
                            case .createPin(let create): create.sender.respond(with: "24680", to: create)
                            default: challenge.cancel()
                            }
                        })))
        case .sevenPass:
            let provider = server.addCredentialsProvider(id: "seven-pass", name: "7Pass")
            server.setPassword("correct horse", for: "carol")
            server.requireInteraction(for: "carol")
            transcript.section("Login and password, then interaction_required in the browser")
            let passwords = ScriptedAttempts("wrong horse", then: "correct horse")
            try transcript.result(
                .success(
                    await client.registerUser(
                        .provider(provider),
                        responder: Narrator(transcript) { challenge in
                            switch challenge {
                            case .credentials(let credentials): credentials.sender.respond(withLogin: "carol", password: passwords.next(), to: credentials)
                            case .browserRegistration(let browser): browser.sender.respond(with: try server.logIn(at: browser.url), to: browser)
                            case .createPin(let create): create.sender.respond(with: "24680", to: create)
                            default: challenge.cancel()
                            }
                        })))
            transcript.section("Social login: a Google token exchanged (RFC 8693)")
            server.addExternalToken("google-demo-token", provider: "google", for: "dave")
            try transcript.result(
                .success(
                    await client.registerUser(
                        .externalToken(ExternalToken(provider: "google", token: "google-demo-token")),
                        responder: Narrator(transcript) { challenge in
                            if case .createPin(let create) = challenge { create.sender.respond(with: "24680", to: create) } else { challenge.cancel() }
                        })))
        case .grab:
            server.offersAppLogin = true
            transcript.section("App-to-app login: the identity app's URL is opened")
            let registered = try await client.registerUser(
                responder: Narrator(transcript) { challenge in
                    switch challenge {
                    case .browserRegistration(let browser):
                        let app = browser.appURL ?? browser.url
                        transcript.line("host", "the identity app is installed: open \(app.scheme ?? "")://…")
                        browser.sender.respond(with: try server.logIn(at: app), to: browser)
                    case .createPin(let create): create.sender.respond(with: "24680", to: create)
                    default: challenge.cancel()
                    }
                })
            transcript.result(.success(registered))
            transcript.section("Login with a valid session: no challenge (reusesValidSession)")
            let login = try await client.authenticateUser(registered.profile, responder: Narrator(transcript) { $0.cancel() })
            transcript.line("result", "logged in \(login.profile.profileId) without a challenge")
        case .schibsted:
            transcript.section("Ephemeral browser session; a BankID return is ignored")
            try transcript.result(
                .success(
                    await client.registerUser(
                        responder: Narrator(transcript) { challenge in
                            switch challenge {
                            case .browserRegistration(let browser):
                                transcript.line("host", "prefersEphemeralSession: \(browser.prefersEphemeralSession)")
                                let bankID = URL(string: "identityflow-demo:/bankId")!
                                transcript.line("host", "BankID returns to \(bankID): taken and ignored = \(browser.sender.respond(with: bankID, to: browser))")
                                browser.sender.respond(with: try server.logIn(at: browser.url), to: browser)
                            case .createPin(let create): create.sender.respond(with: "24680", to: create)
                            default: challenge.cancel()
                            }
                        })))
        }
    }
}

/// Prints each challenge, then lets `answer` answer it (a failure cancels it).
private struct Narrator: ChallengeResponder {
    let transcript: DemoTranscript
    let answer: @Sendable (Challenge) throws -> Void

    init(_ transcript: DemoTranscript, _ answer: @escaping @Sendable (Challenge) throws -> Void) {
        self.transcript = transcript
        self.answer = answer
    }

    func receive(_ challenge: Challenge) async {
        transcript.challenge(challenge)
        do { try answer(challenge) } catch { challenge.cancel() }
    }
}

/// Hands out scripted answers in order; the last one repeats.
private final class ScriptedAttempts<Answer: Sendable>: Sendable {
    private let answers: Locked<(next: [Answer], last: Answer)>
    init(_ first: Answer, then rest: Answer...) { answers = Locked(([first] + rest, rest.last ?? first)) }
    func next() -> Answer { answers.withLock { $0.next.isEmpty ? $0.last : $0.next.removeFirst() } }
}
