import Foundation
import Testing

/// `identityflow bench --quick` runs every scenario and prints every row. The figures of a quick
/// (and debug) run mean nothing, and no test ever asserts a timing: this only shows the bench works.
@Suite("Bench smoke run")
struct BenchSmokeTests {
    /// The `identityflow` executable built beside the test bundle, or `IDENTITYFLOW_BINARY`.
    static let binary: URL? = {
        if let path = ProcessInfo.processInfo.environment["IDENTITYFLOW_BINARY"] { return URL(fileURLWithPath: path) }
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
        ]
        return
            candidates
            .map { $0.appendingPathComponent("identityflow") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    static let rows = ["a", "b", "c", "c2", "d", "d2", "d3", "d4", "l", "l2", "e", "e3", "e2", "f", "g1", "g2", "g3", "g4", "g5", "g6"]
    static let cryptoRows = (1...15).map { "k\($0)" }
    /// The rows with 1, 100 and 1,000 stored profiles, and the launch rows.
    static let profileCountRows =
        ["", "-resume"].flatMap { policy in [1, 100, 1_000].flatMap { count in ["login", "registration"].map { "n-\($0)-\(count)\(policy)" } } }
        + ["n-launch-server", "n-launch-device"]

    /// Runs the binary and returns its exit code and standard output.
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["bench", "--quick"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("the quick bench prints a table with every row", .enabled(if: binary != nil, "the identityflow executable was not built beside the tests"))
    func table() throws {
        let (status, output) = try run([])
        #expect(status == 0)
        let ids = Set(output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        for row in Self.rows + Self.profileCountRows + Self.cryptoRows { #expect(ids.contains(row), "row \(row) is missing") }
        #expect(output.contains("pinKeyIterations = 1"))
    }

    @Test("--json prints the same rows as JSON", .enabled(if: binary != nil, "the identityflow executable was not built beside the tests"))
    func json() throws {
        let (status, output) = try run(["--json"])
        #expect(status == 0)
        struct Report: Decodable { struct Row: Decodable { let id: String }; let rows: [Row] }
        let report = try JSONDecoder().decode(Report.self, from: Data(output.utf8))
        #expect(report.rows.map(\.id).sorted() == (Self.rows + Self.profileCountRows + Self.cryptoRows).sorted())
    }

    @Test("--only crypto prints just the crypto rows", .enabled(if: binary != nil, "the identityflow executable was not built beside the tests"))
    func onlyCrypto() throws {
        let (status, output) = try run(["--json", "--only", "crypto"])
        #expect(status == 0)
        struct Report: Decodable { struct Row: Decodable { let id: String }; let rows: [Row] }
        let report = try JSONDecoder().decode(Report.self, from: Data(output.utf8))
        #expect(report.rows.map(\.id) == Self.cryptoRows)
    }

    @Test(
        "--only n prints just the rows with 1, 100 and 1,000 stored profiles",
        .enabled(if: binary != nil, "the identityflow executable was not built beside the tests"))
    func onlyProfileCounts() throws {
        let (status, output) = try run(["--json", "--only", "n"])
        #expect(status == 0)
        struct Report: Decodable { struct Row: Decodable { let id: String }; let rows: [Row] }
        let report = try JSONDecoder().decode(Report.self, from: Data(output.utf8))
        #expect(report.rows.map(\.id).sorted() == Self.profileCountRows.sorted())
    }
}
