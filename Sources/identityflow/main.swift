import Foundation
import IdentityFlow

/// `identityflow <command>`: `demo`, `charts`, `bench`.
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    usage: identityflow <command> [options]
      demo [--interactive]        register two users against an in-process reference server
      charts [--check] [--format scxml|mermaid|dot] [--output DIR]
                                  write StateCharts/ from the machines' charts
      bench [--json] [--iterations N] [--quick]
                                  measure the engine against the Swift floor (use -c release)
    """

switch arguments.first {
case "demo":
    exit(await DemoCommand.run(Array(arguments.dropFirst())))
case "charts":
    exit(ChartsCommand.run(Array(arguments.dropFirst())))
case "bench":
    exit(await BenchCommand.run(Array(arguments.dropFirst())))
case "-h", "--help", "help":
    print(usage)
default:
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
