import Foundation

// identityflow-crash-writer DIR
// identityflow-crash-writer guess DIR PROFILE PIN GUESSES MAX
// identityflow-crash-writer change-pin DIR
// identityflow-crash-writer rotate-without-pin DIR
//
// The child process of the storage tests.
//
// With DIR alone: writes into a FileStorage directory until it is killed, for the crash-safety
// test (Tests/IdentityFlowTests/Storage/CrashSafetyTests.swift, scripts/crash-kill.sh): raw items
// `stress.0`...`stress.3` with rising versions, profiles stored by one-step registrations, and
// registration checkpoints written and deleted by browser registrations, all against an
// in-process reference server. After each write returns it prints a line, flushed:
//   item stress.K V        the item now holds version V
//   profile ID             the profile is stored
// A store killed at any moment must hold, for every printed line, that version or a newer one,
// and every printed profile, readable.
//
// With `guess`: a device-mode client (maxPinFailures MAX) on the FileStorage in DIR starts,
// prints `ready`, waits for a line on its standard input, then logs PROFILE in GUESSES times with
// the wrong PIN (one attempt each) and prints `done`: the counter test's other processes
// (Tests/IdentityFlowTests/DeviceAuthenticators/VaultCounterTests.swift).
//
// With `change-pin`: registers a device-mode profile in DIR (`pin 24680`), then changes its PIN
// back and forth until killed, printing `changing` before each change and `pin P` after it: a
// vault killed at any step of the rotation must open with the last printed PIN, or after a
// `changing` with the next one (Tests/IdentityFlowTests/DeviceAuthenticators/VaultRotationTests.swift).
//
// With `rotate-without-pin`: registers a device-mode profile in DIR under resumeLastUser (`pin
// 24680`), then removes biometrics and ends resumable sessions until killed (`rotating`, `rotated`):
// a vault killed at any step must open with 24680
// (Tests/IdentityFlowTests/DeviceAuthenticators/VaultRotationWithoutPinTests.swift).

/// Prints a line straight to the file descriptor: no buffer for a kill to lose.
func report(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// Ends the process with a usage line.
func usage() -> Never {
    let forms = "DIR | guess DIR PROFILE PIN GUESSES MAX | change-pin DIR | rotate-without-pin DIR"
    FileHandle.standardError.write(Data("usage: identityflow-crash-writer \(forms)\n".utf8))
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "guess":
    guard arguments.count == 6, let guesses = Int(arguments[4]), let maximum = Int(arguments[5]) else { usage() }
    await guessPins(in: URL(fileURLWithPath: arguments[1]), profileId: arguments[2], pin: arguments[3], guesses: guesses, maxPinFailures: maximum)
case "change-pin":
    guard arguments.count == 2 else { usage() }
    await changePinUntilKilled(in: URL(fileURLWithPath: arguments[1]))
case "rotate-without-pin":
    guard arguments.count == 2 else { usage() }
    await rotateWithoutPinUntilKilled(in: URL(fileURLWithPath: arguments[1]))
case .some(let directory) where arguments.count == 1:
    await writeUntilKilled(into: URL(fileURLWithPath: directory))
default:
    usage()
}
