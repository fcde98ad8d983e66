import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks the person at the terminal for one line. End of input (Ctrl-D, or the end of a piped
/// file) answers `nil`.
enum TerminalPrompt {
    /// Prints a prompt and reads one line on a thread of its own, so that no task of the
    /// cooperative pool blocks on the terminal.
    /// - Parameters:
    ///   - prompt: What to ask.
    ///   - hidden: Whether to switch the terminal's echo off (PINs).
    /// - Returns: The line, or `nil` at the end of input.
    static func ask(_ prompt: String, hidden: Bool) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                print("  ?           \(prompt): ", terminator: "")
                fflush(nil)  // all output streams: `stdout` itself is not concurrency-safe to name
                let line = hidden ? readLineWithoutEcho() : readLine()
                if line == nil {
                    print("(end of input)")
                } else if isatty(STDIN_FILENO) != 1 {
                    print("(read from input)")
                }
                fflush(nil)
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
