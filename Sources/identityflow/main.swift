import Foundation
@_spi(Integrator) import IdentityFlow

/// `identityflow <command>`: `demo`, `charts`, `bench`.
let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    usage: identityflow <command> [options]
      demo [--interactive]        register two users against an in-process reference server
      demo --issuer URL --client-id ID --redirect-uri URI
                                  register, log in and log out against an OpenID Connect provider
      charts [--check] [--format scxml|mermaid|dot|all] [--output DIR] [--readme FILE]
                                  write (or --check) StateCharts/ and docs/statecharts.md's charts block
      bench [--json] [--iterations N] [--quick] [--only IDS]
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
