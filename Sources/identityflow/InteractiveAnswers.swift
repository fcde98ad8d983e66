@_spi(Integrator) import IdentityFlow
import IdentityFlowTesting

/// The answers of `identityflow demo --interactive`: asks the person at the terminal for each
/// PIN and each piece of custom registration data, one line each. End of input (Ctrl-D, or the
/// end of a piped file) cancels the challenge.
struct InteractiveAnswers: DemoAnswerSource {
    func pin(for challenge: CreatePinChallenge, in registration: DemoRegistration) async -> String? {
        let hint = challenge.error == nil ? "" : ", try again"
        return await ask("choose a \(challenge.pinLength)-digit PIN\(hint)", hidden: true)
    }

    func customData(for challenge: CustomRegistrationChallenge) async -> String? {
        let what =
            switch (challenge.step, challenge.error) {
            case (.initialization, _): "init data for \(challenge.identityProvider.identifier) (e.g. an e-mail address)"
            case (.finish, nil): "finish data (e.g. the confirmation code)"
            case (.finish, _): "finish data again (the server asked to retry)"
            }
        return await ask(what, hidden: false)
    }

    private func ask(_ prompt: String, hidden: Bool) async -> String? {
        await TerminalPrompt.ask(prompt, hidden: hidden)
    }
}
