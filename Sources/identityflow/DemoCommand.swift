import Foundation
import IdentityFlow
import IdentityFlowTesting

/// `identityflow demo [--interactive]`: runs ``DemoScenario`` against an in-process reference
/// server and prints its transcript. Exit code 0 when both registrations succeed, 1 otherwise,
/// 2 for a bad command line.
enum DemoCommand {
    static let usage = """
        usage: identityflow demo [--interactive]
          Registers two users against an in-process reference server (no network) and prints
          every challenge, answer and state transition.
          --interactive   ask at the terminal for the PINs and the custom registration data
                          (end of input cancels the challenge)
        """

    static func run(_ arguments: [String]) async -> Int32 {
        var interactive = false
        for argument in arguments {
            switch argument {
            case "--interactive", "-i":
                interactive = true
            case "--help", "-h":
                print(usage)
                return 0
            default:
                FileHandle.standardError.write(Data("identityflow demo: unknown option \(argument)\n\(usage)\n".utf8))
                return 2
            }
        }
        let answers: any DemoAnswerSource = interactive ? InteractiveAnswers() : ScriptedDemoAnswers()
        let report = await DemoScenario(answers: answers).run { line in print(line) }
        return report.succeeded ? 0 : 1
    }
}
