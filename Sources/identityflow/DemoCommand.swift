import Foundation
@_spi(Integrator) import IdentityFlow
import IdentityFlowTesting

/// `identityflow demo [--interactive] [--transitions]`: runs ``DeviceDemoScenario`` (device
/// mode), then ``DemoScenario`` (server mode; `--interactive` asks for its PINs and data), against in-process reference servers
/// and prints their transcripts. `identityflow demo --issuer URL --client-id ID
/// --redirect-uri URI` runs ``OpenIDDemo`` against a real provider instead. Exit code 0 when
/// every step succeeds, 1 otherwise, 2 for a bad command line.
enum DemoCommand {
    static let usage = """
        usage: identityflow demo [--interactive] [--transitions]
               identityflow demo --scenario zephr|7pass|grab|schibsted
               identityflow demo --issuer URL --client-id ID --redirect-uri URI [--scope S]...
          Part 1: device mode against an in-process provider with no extension API (register,
          PIN login, a wrong PIN, biometrics, PIN change, claims, logout, relaunch, deregister),
          each step with the host code behind it and where that code is written out. Part 2:
          server-only features (two registrations, a push confirmation, an implicit token)
          with every challenge and answer. No network.
          --transitions   also print every state transition, in both parts
          --interactive   ask at the terminal for part 2's PINs and custom registration data
                          (end of input cancels the challenge); part 1 runs as scripted
          --scenario NAME instead, another reference SDK's flow on the same engine: zephr
                          (partial registration), 7pass (password, interaction_required,
                          token exchange), grab (app-to-app login, cached session), schibsted
                          (ephemeral browser session, ignored BankID redirect)
          --issuer URL    instead, register, log in, call userinfo and log out against this
                          OpenID Connect provider: open the printed URL, sign in, paste the
                          redirect URL. A provider without IdentityFlow's extension API runs
                          in device mode (the PIN and the tokens' seal on the device), and says so
          --client-id ID, --redirect-uri URI, --scope S (repeatable; default openid)
          --extension-base URL  where the registration and PIN endpoints live (default
                          <issuer origin>/identityflow)
          --device        device mode whatever the provider serves (the extension API is
                          not probed)
          --sign-in-only  show only the OpenID Connect part: sign-in, ID token validation,
                          userinfo and revocation, straight through the service
          --storage DIR   keep profiles and the registration checkpoint in DIR (FileStorage):
                          kill the demo while it waits for the redirect, run it again with the
                          same DIR, paste the redirect, and the registration continues
        """

    static func run(_ arguments: [String]) async -> Int32 {
        var interactive = false
        var transitions = false
        var options: [String: String] = [:]
        var scopes: [String] = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--interactive", "-i":
                interactive = true
            case "--transitions", "-t":
                transitions = true
            case "--sign-in-only", "--device":
                options[argument] = "yes"
            case "--help", "-h":
                print(usage)
                return 0
            case "--scenario":
                guard let name = remaining.popFirst(), let scenario = SDKStyleScenario(rawValue: name) else {
                    return refuse("--scenario needs one of \(SDKStyleScenario.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return await scenario.run { print($0) } ? 0 : 1
            case "--issuer", "--client-id", "--redirect-uri", "--scope", "--extension-base", "--storage":
                guard let value = remaining.popFirst() else { return refuse("\(argument) needs a value") }
                if argument == "--scope" { scopes.append(value) } else { options[argument] = value }
            default:
                return refuse("unknown option \(argument)")
            }
        }
        if !options.isEmpty {
            guard let issuer = options["--issuer"].flatMap(URL.init(string:)), let clientID = options["--client-id"],
                let redirect = options["--redirect-uri"].flatMap(URL.init(string:))
            else {
                return refuse("--issuer, --client-id and --redirect-uri go together")
            }
            var configuration = HTTPServiceConfiguration(
                issuer: issuer, clientID: clientID, redirectURI: redirect, scopes: scopes.isEmpty ? ["openid"] : scopes)
            configuration.extensionBaseURL = options["--extension-base"].flatMap(URL.init(string:))
            return await OpenIDDemo(
                configuration: configuration, storageDirectory: options["--storage"].map { URL(fileURLWithPath: $0) },
                signInOnly: options["--sign-in-only"] != nil, forceDevice: options["--device"] != nil
            ).run()
        }
        let answers: any DemoAnswerSource = interactive ? InteractiveAnswers() : ScriptedDemoAnswers()
        var device = DeviceDemoScenario()
        device.showsTransitions = transitions
        let deviceMode = await device.run { line in print(line) }
        print("\nPart 2: server-only features (IdentityFlow's extension API: custom registration, push, implicit tokens)")
        var scenario = DemoScenario(answers: answers)
        scenario.showsTransitions = transitions
        let report = await scenario.run { line in print(line) }
        return report.succeeded && deviceMode ? 0 : 1
    }

    private static func refuse(_ problem: String) -> Int32 {
        FileHandle.standardError.write(Data("identityflow demo: \(problem)\n\(usage)\n".utf8))
        return 2
    }
}
