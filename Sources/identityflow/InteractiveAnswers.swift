import Dispatch
import Foundation
import IdentityFlow
import IdentityFlowTesting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The answers of `identityflow demo --interactive`: asks the person at the terminal for each
/// PIN and each piece of custom registration data, one line each. End of input (Ctrl-D, or the
/// end of a piped file) cancels the challenge.
struct InteractiveAnswers: DemoAnswerSource {
    func pin(for challenge: CreatePinChallenge, in registration: DemoRegistration) async -> String? {
        let hint = challenge.error == nil ? "" : ", try again"
        return await ask("choose a \(challenge.pinLength)-digit PIN\(hint)", hidden: true)
    }

    func customData(for challenge: CustomRegistrationChallenge) async -> String? {
        let what = switch (challenge.step, challenge.error) {
        case (.initialization, _): "init data for \(challenge.identityProvider.identifier) (e.g. an e-mail address)"
        case (.finish, nil): "finish data (e.g. the confirmation code)"
        case (.finish, _): "finish data again (the server asked to retry)"
        }
        return await ask(what, hidden: false)
    }

    /// Prints a prompt and reads one line on a thread of its own, so that no task of the
    /// cooperative pool blocks on the terminal.
    private func ask(_ prompt: String, hidden: Bool) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                print("  ?           \(prompt): ", terminator: "")
                fflush(nil)  // all output streams: `stdout` itself is not concurrency-safe to name
                let line = hidden ? Self.readLineWithoutEcho() : readLine()
                if line == nil {
                    print("(end of input)")
                } else if isatty(STDIN_FILENO) != 1 {
                    print("(read from input)")
                }
                continuation.resume(returning: line)
            }
        }
    }

    /// Reads a line with the terminal's echo off, when standard input is a terminal.
    private static func readLineWithoutEcho() -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return readLine() }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return readLine() }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            print("")
        }
        return readLine()
    }
}
