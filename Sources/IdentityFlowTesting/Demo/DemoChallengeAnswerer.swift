import Foundation
@_spi(Integrator) import IdentityFlow
import Statechart

/// Answers one registration's challenges for a ``DemoScenario`` and writes each challenge and
/// answer to the transcript: plays the browser on the reference server, takes PINs and custom
/// data from the ``DemoAnswerSource``. Both the delegate and the async API use it.
struct DemoChallengeAnswerer: ChallengeResponder {
    let registration: DemoRegistration
    let server: ReferenceIdentityService
    let browserUser: String
    let answers: any DemoAnswerSource
    let transcript: DemoTranscript
    /// The last PIN chosen at a `CreatePinChallenge` (the one the registration enrolled), for
    /// the mobile authentication step-up that follows.
    let chosenPin = Locked<String?>(nil)

    func receive(_ challenge: Challenge) async {
        transcript.challenge(challenge)
        switch challenge {
        case .browserRegistration(let browser):
            playBrowser(browser)
        case .customRegistration(let custom):
            guard let data = await answers.customData(for: custom) else {
                cancel(challenge)
                return
            }
            transcript.answer("\(custom.step) data <redacted>")
            custom.sender.respond(with: data, to: custom)
        case .createPin(let create):
            guard let pin = await answers.pin(for: create, in: registration) else {
                cancel(challenge)
                return
            }
            transcript.answer("PIN <redacted>")
            chosenPin.withLock { $0 = pin }
            create.sender.respond(with: pin, to: create)
        case .pin, .biometric, .mobileAuthConfirmation, .partialRegistration, .credentials, .providerLogout:
            cancel(challenge)  // the demo's registrations never ask for these
        }
    }

    /// Logs the user in at the challenge's URL, as a browser would, and hands back the redirect.
    private func playBrowser(_ challenge: BrowserRegistrationChallenge) {
        let page = DemoTranscript.parameterNames(of: challenge.url)
        transcript.line("browser", "\(browserUser) signs in at \(page.base)")
        transcript.line("", "(query: \(page.names.joined(separator: ", ")))")
        do {
            let redirect = try server.logIn(at: challenge.url, as: browserUser)
            transcript.answer("redirect → " + DemoTranscript.redactingQuery(of: redirect))
            challenge.sender.respond(with: redirect, to: challenge)
        } catch {
            transcript.line("browser", "the sign-in failed: " + DemoTranscript.explain(error))
            cancel(.browserRegistration(challenge))
        }
    }

    private func cancel(_ challenge: Challenge) {
        transcript.answer("cancel (no answer given)")
        challenge.cancel()
    }
}

/// The delegate of the browser registration: prints the callbacks, answers through a
/// ``DemoChallengeAnswerer``, and hands the terminal callback to ``finished``.
final class DemoRegistrationDelegate: RegistrationDelegate {
    private let answerer: DemoChallengeAnswerer
    private let finished: @Sendable (Result<RegistrationResult, IdentityFlowError>) -> Void

    init(answerer: DemoChallengeAnswerer, finished: @escaping @Sendable (Result<RegistrationResult, IdentityFlowError>) -> Void) {
        self.answerer = answerer
        self.finished = finished
    }

    func userClient(_ client: UserClient, didStartRegistrationOf profile: UserProfile) {
        answerer.transcript.line("delegate", "didStartRegistrationOf(\(profile))")
    }

    func userClient(_ client: UserClient, didReceiveBrowserRegistrationChallenge challenge: BrowserRegistrationChallenge) {
        answer(.browserRegistration(challenge))
    }

    func userClient(_ client: UserClient, didReceiveCustomRegistrationInitChallenge challenge: CustomRegistrationChallenge) {
        answer(.customRegistration(challenge))
    }

    func userClient(_ client: UserClient, didReceiveCustomRegistrationFinishChallenge challenge: CustomRegistrationChallenge) {
        answer(.customRegistration(challenge))
    }

    func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge) {
        answer(.createPin(challenge))
    }

    func userClient(_ client: UserClient, didRegisterUser profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?) {
        answerer.transcript.line("delegate", "didRegisterUser(\(profile), \(identityProvider.identifier))")
        finished(.success(RegistrationResult(profile: profile, identityProvider: identityProvider, info: info)))
    }

    func userClient(_ client: UserClient, didFailToRegisterUserWith identityProvider: IdentityProvider?, error: IdentityFlowError) {
        answerer.transcript.line("delegate", "didFailToRegister(\(error.code))")
        finished(.failure(error))
    }

    /// Callbacks must return quickly: the answer (which may wait for a person) comes from a task
    /// that keeps the challenge alive until it is answered.
    private func answer(_ challenge: Challenge) {
        let answerer = answerer
        Task { await answerer.receive(challenge) }
    }
}
