import Foundation
import IdentityFlowTesting
import Statechart
import Testing

/// Part 1 of `identityflow demo`: device mode with no extension API, every step with its host code.
@Suite("Device-mode demo")
struct DeviceDemoTests {
    @Test("device mode: register to deregister, each step named with its host code, no extension call")
    func deviceModeRun() async {
        let lines = Locked<[String]>([])
        let succeeded = await DeviceDemoScenario().run { line in lines.withLock { $0.append(line) } }
        let text = lines.current.joined(separator: "\n")
        #expect(succeeded, "\(text)")
        let steps = ["register + create PIN", "PIN login", "wrong PIN", "biometrics", "PIN change", "claims", "logout", "relaunch", "deregistration"]
        for step in steps { #expect(text.contains("  \(step) "), "no \(step) line in:\n\(text)") }
        #expect(lines.current.filter { $0.contains("host code: ") }.count == steps.count)
        #expect(text.contains("9009 invalidPin, 2 tries left"), "\(text)")
        #expect(text.contains("logged in with biometric"), "\(text)")
        #expect(text.contains("extension API calls: none"))
    }
}
