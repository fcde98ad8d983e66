import Foundation
import Testing
import ChildProcessSupport
@_spi(Integrator) @testable import IdentityFlow

/// FileStorage survives SIGKILL at any moment: a writer process (`identityflow-crash-writer`)
/// writes items, profiles and registration checkpoints into one directory and is killed at a random
/// point, over and over. After every kill each item it reported is there, readable, at that version
/// or a newer one; every profile it reported is there and readable; a checkpoint, if any, reads.
///
/// `IDENTITYFLOW_CRASH_KILLS` sets the number of kills (200 here; scripts/crash-kill.sh runs 1,000).
@Suite("FileStorage survives SIGKILL", .enabled(if: CrashWriter.binary != nil, "identityflow-crash-writer was not built beside the tests"))
struct CrashSafetyTests {
    static let kills = Int(ProcessInfo.processInfo.environment["IDENTITYFLOW_CRASH_KILLS"] ?? "") ?? 200

    @Test(
        "killed at random moments while writing, the store always holds the old or the new version of each item",
        .timeLimit(.minutes(10)))
    func killRepeatedly() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("identityflow-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SystemRandomNumberGenerator()
        var confirmed: [String: Int] = [:]
        for run in 1...Self.kills {
            let (lines, killed) = try await CrashWriter.run(directory: directory, killAfterLines: Int.random(in: 1...60, using: &generator))
            #expect(killed, "run \(run): the writer ended by itself: \(lines.suffix(3))")
            var profiles: [String] = []
            for line in lines {
                let words = line.split(separator: " ")
                if words.count == 3, words[0] == "item", let version = Int(words[2]) {
                    confirmed[String(words[1])] = max(confirmed[String(words[1])] ?? 0, version)
                } else if words.count == 2, words[0] == "profile" {
                    profiles.append(String(words[1]))
                }
            }
            try Self.check(directory, confirmed: confirmed, profiles: profiles, run: run)
        }
        #expect(!confirmed.isEmpty)
    }

    static func check(_ directory: URL, confirmed: [String: Int], profiles: [String], run: Int) throws {
        let storage = try FileStorage(directory: directory)
        for (key, version) in confirmed {
            let data = try #require(try storage.data(forKey: key), "run \(run): \(key) is missing")
            let json = try #require(try? JSONSerialization.jsonObject(with: data) as? [String: Any], "run \(run): \(key) is corrupt")
            let stored = try #require(json["version"] as? Int)
            #expect(stored >= version, "run \(run): \(key) went back from \(version) to \(stored)")
            #expect(json["key"] as? String == key)
        }
        for id in profiles {
            let data = try #require(try storage.data(forKey: "identityflow.profile.\(id)"), "run \(run): profile \(id) is missing")
            #expect((try? JSONDecoder().decode(StoredProfile.self, from: data)) != nil, "run \(run): profile \(id) is corrupt")
        }
        for key in try storage.keys() where key.hasPrefix("identityflow.profile.") {
            let data = try #require(try storage.data(forKey: key))
            #expect((try? JSONDecoder().decode(StoredProfile.self, from: data)) != nil, "run \(run): \(key) is corrupt")
        }
        if let checkpoint = try storage.data(forKey: RegistrationCheckpoint.storageKey) {
            #expect(RegistrationCheckpoint(jsonData: checkpoint) != nil, "run \(run): the checkpoint is corrupt")
        }
    }
}

/// The writer process: started, read line by line, killed with SIGKILL.
///
/// Its output is read by a ``PipeReader`` on a thread of its own. It stops when it has the lines,
/// or when the writer has exited and the pipe holds nothing more.
enum CrashWriter {
    static let binary: URL? = {
        [Bundle.main.bundleURL.deletingLastPathComponent(), URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
            .map { $0.appendingPathComponent("identityflow-crash-writer") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs the writer (with `arguments`, by default the directory alone) until it has printed
    /// `killAfterLines` lines (or ended), kills it, and returns every complete line it printed and
    /// whether it ended by the kill.
    static func run(directory: URL, arguments: [String]? = nil, killAfterLines: Int) async throws -> (lines: [String], killed: Bool) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments ?? [directory.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let reader = PipeReader(descriptor: pipe.fileHandleForReading.fileDescriptor)
                while reader.lineCount < killAfterLines {
                    if !reader.readChunk(waitingUpTo: 100) && !process.isRunning { break }
                }
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                // What the writer wrote before it died is in the pipe already.
                reader.drain()
                let text = String(decoding: reader.output, as: UTF8.self)
                let complete = text.lastIndex(of: "\n").map { text[..<$0].split(separator: "\n").map(String.init) } ?? []
                continuation.resume(returning: (complete, process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL))
            }
        }
    }
}
