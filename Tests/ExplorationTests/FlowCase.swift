import Foundation
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart
import Testing

/// A flow to explore and the situation it starts from.
struct FlowCase: Sendable, CustomStringConvertible {
    enum Kind: String, Sendable {
        case browserRegistration = "registration (browser)"
        case stepUpRegistration = "registration (browser, step-up: acr_values and max_age asked)"
        case resumedRegistration = "registration (browser, resumed in a new process)"
        case oneStepRegistration = "registration (custom one-step)"
        case twoStepRegistration = "registration (custom two-step)"
        case pinAuthentication = "authentication (PIN)"
        case biometricAuthentication = "authentication (biometric)"
        case changePin = "change PIN"
        case biometricRegistration = "biometric registration"
        case logout = "logout"
        case providerLogout = "provider logout (RP-Initiated Logout)"
        case deregistration = "deregistration"
        case statelessRegistration = "stateless registration (browser)"
        case statelessCustomRegistration = "stateless registration (custom one-step)"
        case partialRegistration = "registration (browser, partial: the provider asks for attributes)"
        case statelessPartialRegistration = "stateless registration (browser, partial)"
        case credentialsRegistration = "registration (login and password)"
        case statelessCredentialsRegistration = "stateless registration (login and password)"
        case tokenExchangeRegistration = "registration (social token exchange)"
        case statelessTokenExchangeRegistration = "stateless registration (social token exchange)"
        case mobileAuthConfirmation = "mobile authentication (push, confirmation)"
        case mobileAuthPin = "mobile authentication (push, PIN step-up)"
        case mobileAuthBiometric = "mobile authentication (pending list, biometric step-up)"
        case mobileAuthOTP = "mobile authentication (one-time code, confirmation)"
    }

    /// What is true before the flow starts.
    enum Setup: String, Sendable {
        /// Profile A registered with the PIN, logged in (nothing registered for registrations).
        case plain = ""
        /// Profile B registered after A, so B is logged in when A authenticates.
        case otherUserLoggedIn = ", other user logged in"
        /// The server forgot profile A (locked out elsewhere, deregistered elsewhere).
        case unknownToServer = ", profile unknown to the server"
        /// The PIN was changed on another device: the biometric key no longer matches.
        case pinChangedElsewhere = ", PIN changed elsewhere"
        /// The server allows one wrong PIN only: the first one locks the profile out.
        case lastAttempt = ", one PIN attempt"
        /// The device's clock is an hour ahead: every request it fetches looks expired.
        case clientClockAhead = ", device clock an hour ahead"
        /// The profile is logged in with a valid token and the client reuses such a session.
        case validSessionReused = ", valid session reused"
        /// The user must accept consents in the browser first (interaction_required).
        case interactionRequired = ", interaction required in the browser"
        /// The server does not know the other provider's token.
        case refusedToken = ", token refused"
        /// A BankID return (a configured intermediate redirect) comes back before the redirect.
        case intermediateRedirect = ", BankID return first"
        /// The authenticators live on the device (``AuthenticatorPlacement/device(maxPinFailures:)``, 2 tries).
        case deviceMode = ", authenticators on the device"
        /// The provider signs the user in with another `acr` than the one asked for.
        case stepUpRefused = ", another acr claimed"
        /// Authenticators on the device, and a refresh on its way that the provider answers only
        /// after the flow ended (``PathRun`` then lets it land).
        case refreshInFlight = ", authenticators on the device, a refresh on its way"
        /// How long the refresh of ``refreshInFlight`` waits on the path's clock: far beyond what
        /// the flow's own slow answers move it.
        static let refreshLatency = Duration.seconds(3600)
    }

    let kind: Kind
    var setup: Setup = .plain

    var description: String { kind.rawValue + setup.rawValue }

    var isRegistration: Bool {
        [
            .browserRegistration, .stepUpRegistration, .resumedRegistration, .oneStepRegistration, .twoStepRegistration, .statelessRegistration,
            .statelessCustomRegistration,
            .partialRegistration, .statelessPartialRegistration, .credentialsRegistration, .statelessCredentialsRegistration,
            .tokenExchangeRegistration, .statelessTokenExchangeRegistration,
        ].contains(kind)
    }
    var isMobileAuth: Bool { [.mobileAuthConfirmation, .mobileAuthPin, .mobileAuthBiometric, .mobileAuthOTP].contains(kind) }
    var asksForPin: Bool {
        [.pinAuthentication, .biometricAuthentication, .changePin, .biometricRegistration, .mobileAuthPin, .mobileAuthBiometric].contains(kind)
    }

    /// Every flow and set-up the exploration runs.
    static let all: [FlowCase] = [
        FlowCase(kind: .browserRegistration),
        FlowCase(kind: .browserRegistration, setup: .intermediateRedirect),
        FlowCase(kind: .stepUpRegistration),
        FlowCase(kind: .stepUpRegistration, setup: .stepUpRefused),
        FlowCase(kind: .resumedRegistration),
        FlowCase(kind: .oneStepRegistration),
        FlowCase(kind: .twoStepRegistration),
        FlowCase(kind: .pinAuthentication),
        FlowCase(kind: .pinAuthentication, setup: .otherUserLoggedIn),
        FlowCase(kind: .pinAuthentication, setup: .unknownToServer),
        FlowCase(kind: .pinAuthentication, setup: .validSessionReused),
        FlowCase(kind: .biometricAuthentication),
        FlowCase(kind: .biometricAuthentication, setup: .otherUserLoggedIn),
        FlowCase(kind: .biometricAuthentication, setup: .unknownToServer),
        FlowCase(kind: .biometricAuthentication, setup: .pinChangedElsewhere),
        FlowCase(kind: .changePin),
        FlowCase(kind: .changePin, setup: .unknownToServer),
        FlowCase(kind: .changePin, setup: .lastAttempt),
        FlowCase(kind: .biometricRegistration),
        FlowCase(kind: .biometricRegistration, setup: .unknownToServer),
        FlowCase(kind: .biometricRegistration, setup: .lastAttempt),
        FlowCase(kind: .logout),
        FlowCase(kind: .providerLogout),
        FlowCase(kind: .deregistration),
        FlowCase(kind: .statelessRegistration),
        FlowCase(kind: .statelessCustomRegistration),
        FlowCase(kind: .partialRegistration),
        FlowCase(kind: .statelessPartialRegistration),
        FlowCase(kind: .credentialsRegistration),
        FlowCase(kind: .credentialsRegistration, setup: .interactionRequired),
        FlowCase(kind: .statelessCredentialsRegistration),
        FlowCase(kind: .tokenExchangeRegistration),
        FlowCase(kind: .tokenExchangeRegistration, setup: .interactionRequired),
        FlowCase(kind: .tokenExchangeRegistration, setup: .refusedToken),
        FlowCase(kind: .statelessTokenExchangeRegistration),
        FlowCase(kind: .mobileAuthConfirmation),
        FlowCase(kind: .mobileAuthConfirmation, setup: .clientClockAhead),
        FlowCase(kind: .mobileAuthPin),
        FlowCase(kind: .mobileAuthPin, setup: .unknownToServer),
        FlowCase(kind: .mobileAuthPin, setup: .lastAttempt),
        FlowCase(kind: .mobileAuthBiometric),
        FlowCase(kind: .mobileAuthBiometric, setup: .pinChangedElsewhere),
        FlowCase(kind: .mobileAuthBiometric, setup: .unknownToServer),
        FlowCase(kind: .mobileAuthOTP),
        FlowCase(kind: .browserRegistration, setup: .deviceMode),
        FlowCase(kind: .pinAuthentication, setup: .deviceMode),
        FlowCase(kind: .biometricAuthentication, setup: .deviceMode),
        FlowCase(kind: .changePin, setup: .deviceMode),
        FlowCase(kind: .biometricRegistration, setup: .deviceMode),
        FlowCase(kind: .logout, setup: .deviceMode),
        FlowCase(kind: .deregistration, setup: .deviceMode),
        FlowCase(kind: .logout, setup: .refreshInFlight),
        FlowCase(kind: .providerLogout, setup: .refreshInFlight),
        FlowCase(kind: .deregistration, setup: .refreshInFlight),
    ]
}

/// The fixture of one path: a fresh reference server, client and host, wired to the path's choices.
struct PathWorld {
    let control: PathControl
    let reference: ReferenceIdentityService
    let client: UserClient
    let logs: LogCapture
    let storage: ExploringStorage
    let oneStep: IdentityProvider
    let twoStep: IdentityProvider
    let credentials: IdentityProvider

    init(control: PathControl, flow: FlowCase) async throws {
        self.control = control
        let reference = ReferenceIdentityService(maxPinFailures: 2, clock: control.clock)
        let script: CustomProviderScript = { _, _ in
            control.notes.withLock { notes in
                defer { notes.customAnswer = .status(2000, data: "ok") }
                return notes.customAnswer
            }
        }
        oneStep = reference.addCustomProvider(id: "one-step", steps: .oneStep, script: script)
        twoStep = reference.addCustomProvider(id: "two-step", steps: .twoStep, script: script)
        credentials = reference.addCredentialsProvider(id: "seven-pass")
        reference.setPassword(Secrets.password, for: "alice")
        if flow.setup != .refusedToken { reference.addExternalToken(Secrets.externalToken, provider: "google", for: "bob") }
        if flow.setup == .stepUpRefused { reference.setAuthentication(acr: "urn:identityflow:pwd") }
        if flow.setup == .interactionRequired {
            reference.requireInteraction(for: "alice")
            reference.requireInteraction(for: "bob")
        }
        logs = LogCapture()
        let skew: TimeInterval = flow.setup == .clientClockAhead ? 3600 : 0
        var configuration = ClientConfiguration.testing(clock: control.deviceClock, now: { Date().addingTimeInterval(skew) }, logger: logs.logger)
        configuration.reusesValidSession = flow.setup == .validSessionReused
        if flow.setup == .intermediateRedirect { configuration.intermediateRedirects = [ExploringHost.bankIDReturn] }
        if flow.setup == .deviceMode || flow.setup == .refreshInFlight { configuration.authenticators = .device(maxPinFailures: 2) }
        storage = ExploringStorage(control: control)
        client = UserClient(configuration: configuration, service: ExploringService(reference: reference, control: control), storage: storage)
        self.reference = reference
        control.attach(client)
        try await client.start()
    }

    /// Brings the client into the flow case's starting situation (choice points are not armed yet).
    /// - Returns: The profile the flow is about, if any.
    func prepare(_ flow: FlowCase) async throws -> UserProfile? {
        if flow.kind == .resumedRegistration { try await checkpointInAnotherProcess() }
        guard !flow.isRegistration else { return nil }
        let profile = try await registerProfile()
        if flow.kind == .biometricAuthentication || flow.kind == .mobileAuthBiometric {
            try await client.registerBiometricAuthenticator(
                for: profile,
                responder: ClosureResponder { challenge in
                    if case .pin(let prompt) = challenge { prompt.sender.respond(with: Secrets.pin, to: prompt) }
                })
        }
        if flow.isMobileAuth { try await sendMobileAuthRequest(flow, to: profile) }
        switch flow.setup {
        case .plain, .clientClockAhead, .validSessionReused, .interactionRequired, .refusedToken, .intermediateRedirect, .deviceMode, .stepUpRefused:
            break
        case .otherUserLoggedIn: _ = try await registerProfile()
        case .refreshInFlight:
            // A refresh the provider answers only when the path's clock moves on: the flow under
            // test runs while it is on its way.
            reference.inject(.latency(FlowCase.Setup.refreshLatency), into: .refresh)
            let sleeps = control.clock.sleepsStarted + 1
            let client = self.client
            control.helper { _ = try? await client.freshAccessToken(minimumValidity: 86_400) }
            await control.clock.waitForSleepsStarted(sleeps)
        case .unknownToServer: reference.removeProfile(profile)
        case .lastAttempt: reference.setMaxPinFailures(1)
        case .pinChangedElsewhere:
            // Another key now stands for the profile on the server: every proof of this device is wrong.
            reference.replacePinKeyForTesting(of: profile, with: DeviceKey(keyMaterial: Array(repeating: 5, count: DeviceKey.keyMaterialLength)).publicKey)
        }
        return profile
    }

    /// Leaves the checkpoint a process killed in the browser leaves: another client on the same
    /// storage starts a browser registration; at its challenge the stored items are copied; its
    /// cancel then deletes the checkpoint, and the copy is put back.
    private func checkpointInAnotherProcess() async throws {
        let other = UserClient(configuration: client.configuration, service: reference, storage: storage)
        try await other.start()
        let saved = Locked<[String: Data]>([:])
        let storage = self.storage
        _ = try? await other.registerUser(.provider(ReferenceIdentityService.browserProvider)) { challenge in
            for key in (try? storage.keys()) ?? [] { saved.withLock { $0[key] = try? storage.data(forKey: key) } }
            challenge.cancel()
        }
        for (key, data) in saved.current { try storage.setData(data, forKey: key) }
    }

    /// The checkpointed registration's redirect, as the provider would send it.
    func checkpointedRedirect() throws -> URL {
        let data = try #require(try storage.data(forKey: "identityflow.checkpoint.registration"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let authorize = try #require((json["authorizationURL"] as? String).flatMap(URL.init(string:)))
        return try reference.logIn(at: authorize)
    }

    /// Makes the stored checkpoint one that expired a minute ago.
    func expireCheckpoint() throws {
        let key = "identityflow.checkpoint.registration"
        let data = try #require(try storage.data(forKey: key))
        var json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        json["expiresAt"] = Date().timeIntervalSince1970 - 60
        storage.setDataWithoutChoice(try JSONSerialization.data(withJSONObject: json), forKey: key)
    }

    /// Enrols the profile for (push) mobile authentication and has the server send it a request,
    /// noting where the host will take it from.
    private func sendMobileAuthRequest(_ flow: FlowCase, to profile: UserProfile) async throws {
        try await client.enrollMobileAuthentication()
        try await client.enrollPushMobileAuthentication(deviceToken: Data([1, 2, 3, 4]))
        let source: MobileAuthSource
        switch flow.kind {
        case .mobileAuthPin: source = .push(try reference.sendMobileAuthRequest(to: profile, message: "Log in to the web shop?", type: .pin))
        case .mobileAuthBiometric:
            try reference.sendMobileAuthRequest(to: profile, message: "Pay 10 EUR?", type: .biometric)
            source = .request(try #require(try await client.pendingMobileAuthRequests(for: profile).first))
        case .mobileAuthOTP: source = .otp(try reference.createMobileAuthOTP(for: profile, message: "Log in at the desk?"))
        default: source = .push(try reference.sendMobileAuthRequest(to: profile, message: "Log in to the web shop?"))
        }
        control.notes.withLock { $0.mobileAuthSource = source }
    }

    private func registerProfile() async throws -> UserProfile {
        try await client.registerUser(
            .provider(oneStep),
            answering: { challenge in
                switch challenge {
                case .customRegistration(let custom): custom.sender.respond(with: "set-up", to: custom)
                case .createPin(let create): create.sender.respond(with: Secrets.pin, to: create)
                default: challenge.cancel()
                }
            }
        ).profile
    }
}
