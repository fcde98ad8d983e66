import Foundation
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// The secrets a path hands the client; none may appear in a transition record or a log line.
enum Secrets {
    static let pin = "24680"
    static let wrongPin = "39157"
    static let violatingPin = "11111"
    static let newPin = "38164"
    static let customData = "custom-secret-data"
    static let password = "correct-horse-battery"
    static let wrongPassword = "wrong-horse-battery"
    static let externalToken = "google-access-token-secret"
    static let all = [pin, wrongPin, violatingPin, newPin, customData, password, wrongPassword, externalToken]
}

/// The host of one path: answers every challenge as the path's chooser decides (the expected
/// answer, a wrong or policy-violating one, cancel, drop, answer twice, or hold it and cancel the
/// flow, to answer after the flow ended), and records every terminal callback.
final class ExploringHost: ChallengeResponder, RegistrationDelegate, AuthenticationDelegate, ChangePinDelegate, AuthenticatorRegistrationDelegate,
    MobileAuthRequestDelegate, ProviderLogoutDelegate
{
    enum Outcome: Sendable {
        case success
        case failure(IdentityFlowError)

        var error: IdentityFlowError? {
            if case .failure(let error) = self { return error }
            return nil
        }
    }

    static let common = ["cancel", "drop", "answerTwice", "holdThenCancelFlow"]

    private let control: PathControl
    private let reference: ReferenceIdentityService
    private let createdPin: String
    /// Whether the flow's challenges time out when its mobile authentication request expires:
    /// the host may then let one expire.
    private let requestsExpire: Bool
    /// Whether the browser sign-in ends in a partial registration (Zephr's `status=partial`).
    private let partialSignIn: Bool
    /// Whether a BankID return (a configured intermediate redirect) comes back before the answer.
    private let intermediateFirst: Bool
    static let bankIDReturn = URL(string: "identityflow-test:/bankId")!
    private let outcomes = Locked<(all: [Outcome], waiters: [CheckedContinuation<Outcome, Never>])>(([], []))

    init(
        control: PathControl, reference: ReferenceIdentityService, createdPin: String, requestsExpire: Bool = false, partialSignIn: Bool = false,
        intermediateFirst: Bool = false
    ) {
        self.intermediateFirst = intermediateFirst
        self.control = control
        self.reference = reference
        self.createdPin = createdPin
        self.requestsExpire = requestsExpire
        self.partialSignIn = partialSignIn
    }

    /// The deviations a challenge offers: those of every challenge, and letting the request
    /// expire where the flow has one.
    private var common: [String] { Self.common + (requestsExpire ? ["letExpire"] : []) }

    // MARK: - Outcomes

    /// Every terminal callback so far.
    var all: [Outcome] { outcomes.withLock { $0.all } }

    /// Records a terminal callback: the client must already accept a new flow.
    func finish(_ outcome: Outcome) {
        if control.client?.isFlowRunning != false { control.violation("the flow slot was still taken at the terminal callback") }
        let waiters = outcomes.withLock { state in
            state.all.append(outcome)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Waits for the first terminal callback.
    func outcome() async -> Outcome {
        await withCheckedContinuation { continuation in
            let ready: Outcome? = outcomes.withLock { state in
                if let first = state.all.first { return first }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    // MARK: - Challenges

    func receive(_ challenge: Challenge) async { handle(challenge) }

    func handle(_ challenge: Challenge) {
        switch challenge {
        case .browserRegistration(let browser):
            let choice = control.choose("browserChallenge", among: ["login", "deny", "forgedState", "otherRedirect", "noCode", "zephrSession"] + common)
            if intermediateFirst, !browser.sender.respond(with: Self.bankIDReturn, to: browser) {
                control.violation("an intermediate redirect was refused")
            }
            act(
                choice, expected: ["login", "deny", "forgedState", "otherRedirect", "noCode", "zephrSession"], challenge: challenge,
                answer: { browser.sender.respond(with: self.redirect(choice, for: browser.url), to: browser) })
        case .customRegistration(let custom):
            let site = custom.step == .initialization ? "customInitChallenge" : "customFinishChallenge"
            let choice = control.choose(site, among: ["data"] + common)
            act(choice, expected: ["data"], challenge: challenge, answer: { custom.sender.respond(with: Secrets.customData, to: custom) })
        case .createPin(let create):
            let choice = control.choose("createPinChallenge", among: ["validPin", "policyViolation"] + common)
            let pin = choice == "policyViolation" ? Secrets.violatingPin : createdPin
            act(choice, expected: ["validPin", "policyViolation"], challenge: challenge, answer: { create.sender.respond(with: pin, to: create) })
        case .pin(let prompt):
            let checked = control.notes.withLock { $0.wrongPinsChecked }
            if prompt.previousFailureCount != checked || prompt.remainingFailureCount <= 0 {
                control.violation("PinChallenge shows \(prompt.counters) after \(checked) wrong PIN(s) checked")
            }
            let choice = control.choose("pinChallenge", among: ["rightPin", "wrongPin"] + common)
            let pin = choice == "wrongPin" ? Secrets.wrongPin : Secrets.pin
            act(choice, expected: ["rightPin", "wrongPin"], challenge: challenge, answer: { prompt.sender.respond(with: pin, to: prompt) })
        case .biometric(let biometric):
            let choice = control.choose("biometricChallenge", among: ["confirm", "pinFallback", "sensorFails"] + common)
            act(
                choice, expected: ["confirm", "pinFallback", "sensorFails"], challenge: challenge,
                answer: {
                    switch choice {
                    case "pinFallback": biometric.sender.respondWithPinFallback(to: biometric)
                    case "sensorFails": biometric.sender.reportFailure(for: biometric)
                    default: biometric.sender.respond(to: biometric)
                    }
                })
        case .credentials(let credentials):
            let choice = control.choose("credentialsChallenge", among: ["rightPassword", "wrongPassword"] + common)
            let password = choice == "wrongPassword" ? Secrets.wrongPassword : Secrets.password
            act(
                choice, expected: ["rightPassword", "wrongPassword"], challenge: challenge,
                answer: { credentials.sender.respond(withLogin: "alice", password: password, to: credentials) })
        case .partialRegistration(let partial):
            let answers = ["newUser", "existingUser", "blockedDomain", "noEmail"]
            let choice = control.choose("partialRegistrationChallenge", among: answers + common)
            let attributes: [String: String] =
                switch choice {
                case "existingUser": ["email": "alice@example.com"]
                case "blockedDomain": ["email": "someone@blocked.example"]
                case "noEmail": ["name": "Ada"]
                default: ["email": "ada-\(UUID().uuidString.prefix(8))@example.com"]
                }
            act(choice, expected: answers, challenge: challenge, answer: { partial.sender.respond(with: attributes, to: partial) })
        case .providerLogout(let logout):
            let answers = ["confirm", "forgedState", "providerError"]
            let choice = control.choose("providerLogoutChallenge", among: answers + common)
            let redirect: URL =
                switch choice {
                case "forgedState": URL(string: "identityflow-test://callback?state=forged")!
                case "providerError": (try? reference.logOut(at: logout.url, error: "server_error")) ?? logout.url
                default: (try? reference.logOut(at: logout.url)) ?? logout.url
                }
            act(choice, expected: answers, challenge: challenge, answer: { logout.sender.respond(with: redirect, to: logout) })
        case .mobileAuthConfirmation(let confirmation):
            let choice = control.choose("mobileAuthConfirmation", among: ["accept", "deny"] + common)
            act(
                choice, expected: ["accept", "deny"], challenge: challenge, answer: { confirmation.sender.respond(with: choice == "accept", to: confirmation) })
        }
    }

    private func act(_ choice: String, expected: [String], challenge: Challenge, answer: @escaping @Sendable () -> Bool) {
        switch choice {
        case "cancel":
            if !challenge.cancel() { control.violation("cancelling \(challenge) was refused") }
        case "drop":
            break
        case "answerTwice":
            if !answer() { control.violation("the first answer to \(challenge) was refused") }
            if answer() { control.violation("a second answer to \(challenge) was accepted") }
        case "letExpire":
            // Keep the challenge and move the path's clock past the request's expiry until the
            // flow notices (its timer may start sleeping only after this choice).
            control.notes.withLock { $0.held.append(challenge) }
            let clock = control.deviceClock, client = control.client
            control.helper {
                for _ in 0..<5_000 where client?.isFlowRunning == true {
                    clock.advance(by: .seconds(3_600))
                    try? await Task.sleep(for: .milliseconds(1))
                }
            }
        case "holdThenCancelFlow":
            control.notes.withLock { $0.held.append(challenge) }
            control.heldAnswers.withLock { $0.append(answer) }
            if control.client?.cancelCurrentFlow() != true { control.violation("cancelCurrentFlow found no flow while \(challenge) was open") }
        default:
            if !answer() { control.violation("the answer to \(challenge) was refused") }
        }
    }

    private func redirect(_ choice: String, for url: URL) -> URL {
        let state = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value ?? ""
        switch choice {
        case "deny": return (try? reference.logIn(at: url, consent: .deny)) ?? url
        case "forgedState": return URL(string: "identityflow-test://callback?code=C&state=forged")!
        case "otherRedirect":
            let redirect = (try? reference.logIn(at: url))?.absoluteString ?? ""
            return URL(string: redirect.replacingOccurrences(of: "identityflow-test://callback", with: "other://callback"))!
        case "noCode": return URL(string: "identityflow-test://callback?state=\(state)")!
        // Zephr's login of an existing user: status=success&session_id, without state.
        case "zephrSession": return (try? reference.logIn(at: url, consent: .session)) ?? url
        default: return (try? reference.logIn(at: url, consent: partialSignIn ? .partial(identifier: "ada@example.com") : .allow)) ?? url
        }
    }

    // MARK: - Delegates

    func userClient(_ client: UserClient, didStartRegistrationOf profile: UserProfile) {}
    func userClient(_ client: UserClient, didReceiveBrowserRegistrationChallenge challenge: BrowserRegistrationChallenge) {
        handle(.browserRegistration(challenge))
    }
    func userClient(_ client: UserClient, didReceiveCustomRegistrationInitChallenge challenge: CustomRegistrationChallenge) {
        handle(.customRegistration(challenge))
    }
    func userClient(_ client: UserClient, didReceiveCustomRegistrationFinishChallenge challenge: CustomRegistrationChallenge) {
        handle(.customRegistration(challenge))
    }
    func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge) { handle(.createPin(challenge)) }
    func userClient(_ client: UserClient, didReceivePartialRegistrationChallenge challenge: PartialRegistrationChallenge) {
        handle(.partialRegistration(challenge))
    }
    func userClient(_ client: UserClient, didReceiveCredentialsChallenge challenge: CredentialsChallenge) { handle(.credentials(challenge)) }
    func userClient(_ client: UserClient, didRegisterUser profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?) { finish(.success) }
    func userClient(_ client: UserClient, didFailToRegisterUserWith identityProvider: IdentityProvider?, error: IdentityFlowError) { finish(.failure(error)) }

    func userClient(_ client: UserClient, didReceiveProviderLogoutChallenge challenge: ProviderLogoutChallenge) { handle(.providerLogout(challenge)) }
    func userClient(_ client: UserClient, didLogOutAtProvider profile: UserProfile) { finish(.success) }
    func userClient(_ client: UserClient, didFailProviderLogoutOf profile: UserProfile?, error: IdentityFlowError) { finish(.failure(error)) }

    func userClient(_ client: UserClient, didStartAuthenticating profile: UserProfile, authenticator: Authenticator) {}
    func userClient(_ client: UserClient, didReceivePinChallenge challenge: PinChallenge) { handle(.pin(challenge)) }
    func userClient(_ client: UserClient, didReceiveBiometricChallenge challenge: BiometricChallenge) { handle(.biometric(challenge)) }
    func userClient(_ client: UserClient, didAuthenticateUser profile: UserProfile, authenticator: Authenticator, info: CustomInfo?) { finish(.success) }
    func userClient(_ client: UserClient, didFailToAuthenticateUser profile: UserProfile, authenticator: Authenticator, error: IdentityFlowError) {
        finish(.failure(error))
    }

    func userClient(_ client: UserClient, didStartPinChangeFor profile: UserProfile) {}
    func userClient(_ client: UserClient, didChangePinFor profile: UserProfile) { finish(.success) }
    func userClient(_ client: UserClient, didFailToChangePinFor profile: UserProfile?, error: IdentityFlowError) { finish(.failure(error)) }

    func userClient(_ client: UserClient, didReceiveConfirmationChallenge challenge: MobileAuthConfirmationChallenge) {
        handle(.mobileAuthConfirmation(challenge))
    }
    func userClient(_ client: UserClient, didHandle result: MobileAuthResult) { finish(.success) }
    func userClient(_ client: UserClient, didFailToHandle source: MobileAuthSource, error: IdentityFlowError) { finish(.failure(error)) }

    func userClient(_ client: UserClient, didStartRegistering authenticator: Authenticator, for profile: UserProfile) {}
    func userClient(_ client: UserClient, didRegister authenticator: Authenticator, for profile: UserProfile) { finish(.success) }
    func userClient(_ client: UserClient, didFailToRegister authenticator: Authenticator, for profile: UserProfile, error: IdentityFlowError) {
        finish(.failure(error))
    }
}
