import ChildProcessSupport
import Foundation
import IdentityFlowTesting
import Statechart
import Testing

/// Part 1 of `identityflow demo`: device mode with no extension API, every step with its host code.
@Suite("Device-mode demo")
struct DeviceDemoTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func run(_ scenario: DeviceDemoScenario) async -> (Bool, [String]) {
        let lines = Locked<[String]>([])
        let succeeded = await scenario.run { line in lines.withLock { $0.append(line) } }
        return (succeeded, lines.current)
    }

    @Test("device mode: register to deregister, each step named with its host code, no extension call")
    func deviceModeRun() async {
        let (succeeded, lines) = await Self.run(DeviceDemoScenario())
        let text = lines.joined(separator: "\n")
        #expect(succeeded, "\(text)")
        let steps = ["register + create PIN", "PIN login", "wrong PIN", "biometrics", "PIN change", "claims", "logout", "relaunch", "deregistration"]
        for step in steps { #expect(text.contains("  \(step) "), "no \(step) line in:\n\(text)") }
        #expect(lines.filter { $0.contains("host code: ") }.count == steps.count)
        #expect(lines.filter { $0.contains("written out in ") }.count == steps.count, "every step says where its code is written out")
        #expect(text.contains("9009 invalidPin, 2 tries left"), "\(text)")
        #expect(text.contains("logged in with biometric"), "\(text)")
        #expect(text.contains("extension API calls: none"))
        #expect(!text.contains("  transition  "), "the default transcript has no transition lines")
    }

    /// The demo's own narration names no PIN it answered with, also with the transitions shown
    /// (the library redacts its log and transcripts; the demo must not print the digits itself).
    @Test func transcriptShowsNoPin() async {
        var scenario = DeviceDemoScenario()
        scenario.showsTransitions = true
        let (_, lines) = await Self.run(scenario)
        let text = lines.joined(separator: "\n")
        for pin in ["24680", "31415", "11111"] { #expect(!text.contains(pin), "the demo printed PIN \(pin)") }
    }

    /// Each pointer names a file of the repository that exists, and a README section by its heading.
    @Test func everyCodePointerExists() async throws {
        let (_, lines) = await Self.run(DeviceDemoScenario())
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let pointers = lines.compactMap { $0.components(separatedBy: "written out in ").dropFirst().first }
        #expect(pointers.count == 9)
        for pointer in pointers {
            if let section = pointer.components(separatedBy: "README.md § Quick start, ").dropFirst().first {
                #expect(readme.contains("\n### \(section)"), "README.md has no section \(section)")
            } else {
                let path = pointer.contains("(") ? String(pointer.split(separator: "(").last?.dropLast() ?? "") : pointer
                #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(path) does not exist")
            }
        }
    }

    @Test("with showsTransitions, part 1 prints its transitions (both launches)")
    func transitionsOnRequest() async {
        var scenario = DeviceDemoScenario()
        scenario.showsTransitions = true
        let (succeeded, lines) = await Self.run(scenario)
        #expect(succeeded)
        let transitions = lines.filter { $0.hasPrefix("  transition  ") }
        #expect(transitions.count > 20, "\(lines.joined(separator: "\n"))")
        let relaunch = lines.firstIndex { $0.contains("  relaunch ") } ?? 0
        let deregistration = lines.firstIndex { $0.contains("  deregistration ") } ?? 0
        #expect(lines[relaunch..<deregistration].contains { $0.hasPrefix("  transition  ") }, "the relaunched client's deregistration is shown too")
    }
}

/// The command itself: `identityflow demo` without and with `--transitions`, and `--interactive`.
@Suite("identityflow demo: parts and switches", .enabled(if: DemoProcess.binary != nil, "the identityflow executable was not built beside the tests"))
struct DemoCommandTests {
    static func output(_ arguments: [String]) async throws -> (Int32, String) {
        let process = try DemoProcess(arguments: arguments)
        process.closeInput()
        return await process.finished()
    }

    @Test func theDefaultIsReadable() async throws {
        let (status, text) = try await Self.output(["demo"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("Part 1: device mode") && text.contains("Part 2: server-only features"))
        #expect(!text.contains("  transition  "), "\(text)")
    }

    @Test func transitionsShowInBothParts() async throws {
        let (status, text) = try await Self.output(["demo", "--transitions"])
        #expect(status == 0, "\(text)")
        let parts = text.components(separatedBy: "Part 2: server-only features")
        #expect(parts.count == 2)
        #expect(parts.allSatisfy { $0.contains("  transition  ") }, "\(text)")
    }

    @Test func interactiveStillRunsPartOne() async throws {
        let (_, text) = try await Self.output(["demo", "--interactive"])
        #expect(text.contains("Part 1: device mode") && text.contains("extension API calls: none"), "\(text)")
        #expect(text.contains("Part 2: server-only features"))
    }
}
