// swift-format-ignore-file
// GettingStarted.md's Swift blocks that differ from the README's, verbatim (DocumentationSnippetTests).
import Foundation
import IdentityFlow

#if canImport(FoundationNetworking)
import FoundationNetworking  // URLRequest on Linux
#endif

private func gettingStartedConfigure() async throws {
    var configuration = ClientConfiguration(redirectURI: URL(string: "myapp://callback")!)
    configuration.authenticators = .device()          // PIN and biometrics on the device: any OpenID Connect provider
    let server = try IdentityServer.openIDConnect(HTTPServiceConfiguration(
        issuer: URL(string: "https://sso.example.com/realms/app")!, clientID: "my-app",
        redirectURI: URL(string: "myapp://callback")!, scopes: ["openid", "profile", "offline_access"]))
    let client = UserClient(
        configuration: configuration, server: server,
        storage: KeychainStorage(service: "com.example.app.identity"))   // Apple platforms
    let launch = try await client.start()   // loads profiles, removes those the server forgot
    _ = launch
}

private func gettingStartedLogIn(client: UserClient, profile: UserProfile, pinPad: SnippetPinPad, pinScreen: SnippetPinScreen, api: URL) async throws {
    let login = try await client.authenticateUser(profile) { challenge in
        switch challenge {
        case .biometric(let biometric):   // only when biometrics are registered for the profile
            if await faceID() { biometric.sender.respond(to: biometric) } else { biometric.sender.reportFailure(for: biometric) }
        case .pin(let pin):               // carries remainingFailureCount and, after a wrong PIN, error 9009
            pin.sender.respond(with: await pinPad.pin(for: pin), to: pin)
        default:
            challenge.cancel()
        }
    }
    // pinScreen: your ChallengeResponder (any type with `receive(_ challenge: Challenge) async`) that asks for the PIN
    try await client.registerBiometricAuthenticator(for: profile, responder: pinScreen)   // asks the PIN once
    try await client.changePin(responder: pinScreen)                                      // current PIN, then a new one
    let (data, response) = try await client.authenticatedRequest(URLRequest(url: api.appendingPathComponent("me")))   // Linux: import FoundationNetworking
    try await client.logout()               // localLogout (10009) when the server could not be told
    try await client.deregister(profile)    // localDeregistration (10003) when only the device forgot it
    _ = (login, data, response)
}
