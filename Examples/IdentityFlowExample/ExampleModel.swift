import AuthenticationServices
import IdentityFlow
import SwiftUI
import UIKit

/// The example's state and its flows. Every challenge goes through ``answer(_:)``: the browser
/// and logout pages to `WebAuthenticationAnswerer`, biometrics to `BiometricAnswerer`, PINs to the
/// PIN sheet.
@MainActor
final class ExampleModel: ObservableObject {
    /// A PIN the sheet asks for.
    struct PinRequest: Identifiable {
        let id = UUID()
        let title: String
        /// The PIN policy's length for a new PIN; `nil` when entering the PIN.
        let length: Int?
        let problem: String?
    }

    @Published private(set) var profile: UserProfile?
    @Published private(set) var loggedIn = false
    @Published private(set) var hasBiometrics = false
    @Published private(set) var status = "Starting…"
    @Published var pinRequest: PinRequest?

    private let client: UserClient?
    private let storage: KeychainStorage
    private let configuration: ClientConfiguration
    private let configurationProblem: String?
    private lazy var browser = WebAuthenticationAnswerer(configuration: configuration) { Self.keyWindow() }
    private lazy var biometrics = BiometricAnswerer(reason: "Log in to the IdentityFlow example", keychain: storage)
    private var pinAnswer: CheckedContinuation<String?, Never>?

    /// Nonisolated, so SwiftUI's `@StateObject` can make it (the iOS 16 SDK's `App` is not
    /// main-actor isolated); the main-actor parts are made on first use.
    nonisolated init() {
        // Your provider: its issuer, the app's client ID and redirect URI (a custom scheme the
        // app declares in CFBundleURLTypes, or https from iOS 17.4 with an associated domain).
        let redirectURI = URL(string: "com.example.identityflow://callback")!
        var configuration = ClientConfiguration(redirectURI: redirectURI)
        configuration.authenticators = .device()
        self.configuration = configuration
        let storage = KeychainStorage(service: "com.example.identityflow")
        self.storage = storage
        do {
            let server = try IdentityServer.openIDConnect(
                HTTPServiceConfiguration(
                    issuer: URL(string: "https://sso.example.com/realms/app")!, clientID: "identityflow-example",
                    redirectURI: redirectURI, scopes: ["openid", "profile", "offline_access"]))
            client = UserClient(configuration: configuration, server: server, storage: storage)
            configurationProblem = nil
        } catch {
            client = nil
            configurationProblem = "The server configuration is invalid: \(error.message)"
        }
    }

    /// Loads the profiles; a device locked since it started keeps them unavailable, not gone.
    func start() async {
        guard let client else {
            status = configurationProblem ?? "No client."
            return
        }
        do {
            let report = try await client.start()
            profile = report.profiles.first
            hasBiometrics = profile.map { client.registeredAuthenticators(for: $0).contains(.biometric) } ?? false
            status = report.unavailableProfiles.isEmpty ? (profile == nil ? "No user registered." : "Registered.") : "Unlock the device to continue."
        } catch {
            status = "Could not start (\(error.code)): \(error.message)"
        }
    }

    func register() async {
        await run("Registered.") { client in
            profile = try await client.registerUser(.default) { challenge in await self.answer(challenge) }.profile
            loggedIn = true
        }
    }

    func logIn(with authenticator: Authenticator) async {
        guard let profile else { return }
        await run("Logged in.") { client in
            _ = try await client.authenticateUser(profile, authenticator: authenticator) { challenge in await self.answer(challenge) }
            loggedIn = true
        }
    }

    func addBiometrics() async {
        guard let profile else { return }
        await run("Face ID / Touch ID added.") { client in
            try await client.registerBiometricAuthenticator(for: profile, responder: ClosureResponder { challenge in await self.answer(challenge) })
            hasBiometrics = true
        }
    }

    func logOut() async {
        await run("Logged out.") { client in
            try await client.logout()
            loggedIn = false
        }
    }

    /// The PIN sheet's answer (`nil`: the user cancelled).
    func pinEntered(_ pin: String?) {
        pinRequest = nil
        pinAnswer?.resume(returning: pin)
        pinAnswer = nil
    }

    private func run(_ done: String, _ flow: (UserClient) async throws -> Void) async {
        guard let client else { return }
        do {
            try await flow(client)
            status = done
        } catch let error as IdentityFlowError {
            status = "\(error.code): \(error.message)"
        } catch {
            status = "\(error)"
        }
    }

    private func answer(_ challenge: Challenge) async {
        switch challenge {
        case .browserRegistration(let page):
            try? await browser.answer(page)  // a failure ends the flow; run(_:_:) shows its error
        case .providerLogout(let page):
            try? await browser.answer(page)
        case .biometric(let biometric):
            if case .unavailable(let reason) = await biometrics.answer(biometric) { status = "Biometrics unavailable (\(reason)): enter your PIN." }
        case .createPin(let createPin):
            if let pin = await askPin("Choose a PIN", length: createPin.pinLength, problem: createPin.error?.message) {
                createPin.sender.respond(with: pin, to: createPin)
            } else {
                createPin.sender.cancel(createPin)
            }
        case .pin(let pinChallenge):
            if let pin = await askPin("Enter your PIN", length: nil, problem: pinChallenge.error?.message) {
                pinChallenge.sender.respond(with: pin, to: pinChallenge)
            } else {
                pinChallenge.sender.cancel(pinChallenge)
            }
        default:
            challenge.cancel()
        }
    }

    private func askPin(_ title: String, length: Int?, problem: String?) async -> String? {
        await withCheckedContinuation { continuation in
            pinAnswer = continuation
            pinRequest = PinRequest(title: title, length: length, problem: problem)
        }
    }

    /// The window the sign-in sheet is presented from.
    private static func keyWindow() -> ASPresentationAnchor {
        let windows = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }.flatMap(\.windows)
        return windows.first(where: \.isKeyWindow) ?? windows.first ?? ASPresentationAnchor()
    }
}
