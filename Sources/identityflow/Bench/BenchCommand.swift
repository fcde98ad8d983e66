import Foundation

/// `identityflow bench [--json] [--iterations N] [--quick] [--scale X] [--only IDS]`: measures the engine
/// against the Swift floor in the same run and prints a table (or JSON). Exit code 0 when every
/// scenario ran, 1 when one failed, 2 for a bad command line. Targets are printed, never enforced.
enum BenchCommand {
    static let usage = """
        usage: identityflow bench [--json] [--iterations N] [--quick] [--scale X] [--only IDS]
          Measures the engine and, in the same run, what plain Swift cannot go below (the floor);
          prints median, min and max over N runs after a warm-up, and each figure's ratio to its
          floor. Build with -c release for meaningful figures.
          --json          print the same data as JSON
          --iterations N  measured runs per figure (default 7)
          --scale X       multiply every scenario's operation count (default 1)
          --quick         a smoke run: 2 runs, a thousandth of the work, 200 waiting flows
          --only IDS      measure only these rows, e.g. --only a,g1 (for profiling);
                          `crypto` stands for the crypto rows k1…k15 (IdentityFlow vs OpenSSL),
                          `n` for the rows with 1, 100 and 1,000 stored profiles
        """

    static func run(_ arguments: [String]) async -> Int32 {
        var settings = BenchSettings()
        var json = false
        var only: Set<String>?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--json":
                json = true
            case "--quick":
                settings.runs = 2
                settings.scale = 0.001
                settings.suspendedFlows = 200
            case "--iterations", "--scale":
                guard let value = remaining.popFirst().flatMap(Double.init), value > 0 else {
                    return fail("\(argument) needs a positive number")
                }
                if argument == "--iterations" { settings.runs = Int(value) } else { settings.scale = value }
            case "--only":
                guard let list = remaining.popFirst() else { return fail("--only needs a list of row ids") }
                let ids = Set(list.split(separator: ",").map(String.init))
                only = ids.contains("crypto") ? ids.union(CryptoScenarios.rowIDs) : ids
                if ids.contains("n") { only?.formUnion(ProfileCountScenarios.rowIDs) }
            case "--help", "-h":
                print(usage)
                return 0
            default:
                return fail("unknown option \(argument)")
            }
        }
        do {
            let report = try await BenchSuite(settings: settings, only: only).run()
            print(json ? report.json : report.table)
            return 0
        } catch {
            FileHandle.standardError.write(Data("identityflow bench: \(error)\n".utf8))
            return 1
        }
    }

    private static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("identityflow bench: \(message)\n\(usage)\n".utf8))
        return 2
    }
}
