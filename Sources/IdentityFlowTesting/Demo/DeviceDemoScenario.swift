import Foundation
@_spi(Integrator) import IdentityFlow
import Statechart

/// Part 1 of `identityflow demo`: device mode (`.device()`) against an in-process reference server
/// used as a stock OpenID Connect provider, with no IdentityFlow extension API. Registers,
/// creates a PIN, logs in with the PIN, refuses a wrong one, registers and uses biometrics,
/// changes the PIN, reads the user's claims, logs out, relaunches with the session resumed and
/// deregisters. Each line names the host code behind it (the async API with a closure) and where
/// that code is written out: the README section, or the DocC article. Transition lines (as part 2
/// prints them) are one switch away: ``showsTransitions``.
public struct DeviceDemoScenario: Sendable {
    /// The calls a stock OpenID Connect provider answers; any other is an extension endpoint.
    static let providerCalls: Set<ServiceCall> = [.authorizationURL, .exchangeCode, .refresh, .revoke]

    /// Whether every state transition of the flows is printed too (`identityflow demo
    /// --transitions`); by default only the steps, so the transcript stays readable.
    public var showsTransitions = false

    /// Creates the scenario.
    public init() {}

    /// Runs every step and prints one line per step.
    /// - Parameter output: Receives each line.
    /// - Returns: Whether every step did what the line says.
    public func run(output: @escaping @Sendable (String) -> Void) async -> Bool {
        let server = ReferenceIdentityService()
        let storage = InMemoryStorage()
        output("Part 1: device mode, against a provider with no IdentityFlow extension API (PIN and tokens sealed on this device)")
        do {
            let client = try await Self.launch(server: server, storage: storage)
            let observation = observeTransitions(of: client, output: output)
            defer { observation?.cancel() }
            let registered = try await client.registerUser(.provider(ReferenceIdentityService.browserProvider)) { challenge in
                switch challenge {
                case .browserRegistration(let browser):
                    if let redirect = try? server.logIn(at: browser.url, as: "alice") { browser.sender.respond(with: redirect, to: browser) }
                case .createPin(let create): create.sender.respond(with: "24680", to: create)
                default: challenge.cancel()
                }
            }
            let profile = registered.profile
            Self.step(
                output, "register + create PIN", "\(profile), a PIN chosen (printed nowhere)",
                "registerUser(.provider(provider)) { challenge in ... } (.browserRegistration, .createPin)",
                "README.md § Quick start, Register a user: async API")
            try await client.logout()
            try await client.authenticateUser(profile) { challenge in
                if case .pin(let pin) = challenge { pin.sender.respond(with: "24680", to: pin) }
            }
            Self.step(
                output, "PIN login", "logged in as \(profile)", "authenticateUser(profile) { challenge in ... } (.pin)",
                "README.md § Quick start, Log in, change the PIN, call your API, log out")
            try await client.logout()
            let wrong = Locked<String>("")
            try await client.authenticateUser(profile) { challenge in
                guard case .pin(let pin) = challenge else { return }
                if pin.error == nil {
                    pin.sender.respond(with: "11111", to: pin)
                } else {
                    wrong.withLock { $0 = "\(pin.error!.code) invalidPin, \(pin.remainingFailureCount) tries left" }
                    pin.sender.respond(with: "24680", to: pin)
                }
            }
            Self.step(
                output, "wrong PIN", "\(wrong.current), then the right one", "the PinChallenge comes back with error and remainingFailureCount",
                "the DocC article Login (Sources/IdentityFlow/IdentityFlow.docc/Login.md)")
            try await client.registerBiometricAuthenticator(
                for: profile,
                responder: ClosureResponder { challenge in
                    if case .pin(let pin) = challenge { pin.sender.respond(with: "24680", to: pin) }
                })
            try await client.logout()
            let biometric = try await client.authenticateUser(profile, authenticator: .biometric) { challenge in
                if case .biometric(let sensor) = challenge { sensor.sender.respond(to: sensor) }
            }
            Self.step(
                output, "biometrics", "registered, then logged in with \(biometric.authenticator)",
                "registerBiometricAuthenticator(for:responder:), .biometric: sender.respond(to:)",
                "the DocC article BiometricRegistration (Sources/IdentityFlow/IdentityFlow.docc/BiometricRegistration.md)")
            try await client.authenticateUser(profile, authenticator: .pin) { challenge in
                if case .pin(let pin) = challenge { pin.sender.respond(with: "24680", to: pin) }
            }
            try await client.changePin { challenge in
                switch challenge {
                case .pin(let pin): pin.sender.respond(with: "24680", to: pin)
                case .createPin(let create): create.sender.respond(with: "31415", to: create)
                default: challenge.cancel()
                }
            }
            Self.step(
                output, "PIN change", "the current PIN, then a new one", "changePin { challenge in ... } (.pin, then .createPin)",
                "the DocC article ChangingThePin (Sources/IdentityFlow/IdentityFlow.docc/ChangingThePin.md)")
            let subject = client.identityClaims?.subject ?? "none"
            Self.step(output, "claims", "subject \(subject)", "client.identityClaims", "docs/identity.md")
            try await client.logout()
            Self.step(
                output, "logout", "nobody logged in: \(client.authenticatedUserProfile == nil)", "client.logout()",
                "README.md § Quick start, Log in, change the PIN, call your API, log out")
            try await client.authenticateUser(profile, authenticator: .pin) { challenge in
                if case .pin(let pin) = challenge { pin.sender.respond(with: "31415", to: pin) }
            }
            let relaunched = try await Self.launch(server: server, storage: storage)
            let relaunchObservation = observeTransitions(of: relaunched, output: output)
            defer { relaunchObservation?.cancel() }
            let resumed = relaunched.authenticatedUserProfile
            Self.step(
                output, "relaunch", "session resumed for \(resumed.map { "\($0)" } ?? "nobody")", "launchPolicy = .resumeLastUser; client.start()",
                "README.md § Quick start, Create and start the client")
            try await relaunched.deregister(profile)
            Self.step(
                output, "deregistration", "profiles left: \(relaunched.userProfiles.count)", "client.deregister(profile)",
                "the DocC article Deregistration (Sources/IdentityFlow/IdentityFlow.docc/Deregistration.md)")
            let extensionCalls = server.calls.filter { !Self.providerCalls.contains($0) }
            output("  extension API calls: \(extensionCalls.isEmpty ? "none" : "\(extensionCalls)")")
            return resumed == profile && relaunched.userProfiles.isEmpty && extensionCalls.isEmpty && !wrong.current.isEmpty
        } catch {
            output("  failed: \(error)")
            return false
        }
    }

    /// A client in device mode that resumes the last user's session, started.
    static func launch(server: ReferenceIdentityService, storage: InMemoryStorage) async throws -> UserClient {
        var configuration = ClientConfiguration.testing()
        configuration.authenticators = .device()
        configuration.launchPolicy = .resumeLastUser
        let client = UserClient(configuration: configuration, service: server, storage: storage)
        try await client.start()
        return client
    }

    /// Prints the client's transitions as part 2 does (`  transition  …`), when asked to.
    private func observeTransitions(of client: UserClient, output: @escaping @Sendable (String) -> Void) -> TransitionObservation? {
        guard showsTransitions else { return nil }
        return client.transitionLog.observe { record in output("  transition  \(record.description)") }
    }

    private static func step(_ output: (String) -> Void, _ name: String, _ result: String, _ code: String, _ location: String) {
        let indent = "".padding(toLength: 22, withPad: " ", startingAt: 0)
        output("  \(name.padding(toLength: 22, withPad: " ", startingAt: 0)) \(result)")
        output("  \(indent) host code: \(code)")
        output("  \(indent)   written out in \(location)")
    }
}
