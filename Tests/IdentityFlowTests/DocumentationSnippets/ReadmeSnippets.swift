// swift-format-ignore-file
// README.md's Swift blocks, verbatim (DocumentationSnippetTests): each wrapped so it type-checks.
import Foundation
import IdentityFlow

#if canImport(FoundationNetworking)
import FoundationNetworking  // URLRequest on Linux
#endif

private func readmeConfigure() async throws {
    var configuration = ClientConfiguration(redirectURI: URL(string: "myapp://callback")!)
    configuration.authenticators = .device()          // PIN and biometrics on the device: Keycloak, Auth0, Okta, Entra ID, ...
    configuration.launchPolicy = .resumeLastUser      // optional: the last user stays logged in across launches (see below)
    let server = try IdentityServer.openIDConnect(HTTPServiceConfiguration(
        issuer: URL(string: "https://sso.example.com/realms/app")!, clientID: "my-app",
        redirectURI: URL(string: "myapp://callback")!, scopes: ["openid", "profile", "offline_access"]))
    let client = UserClient(
        configuration: configuration, server: server,
        storage: KeychainStorage(service: "com.example.app.identity"))   // Apple platforms
    let launch = try await client.start()   // loads profiles; launch.resumedProfile under resumeLastUser
    _ = launch
}

private func readmeRegister(client: UserClient, pinScreen: SnippetPinScreen) async throws {
    let registration = try await client.registerUser(.default) { challenge in
        switch challenge {
        case .browserRegistration(let browser):
            let redirect = await webAuthentication(browser.url)   // ASWebAuthenticationSession, say
            browser.sender.respond(with: redirect, to: browser)
        case .createPin(let createPin):
            let pin = await pinScreen.newPin(length: createPin.pinLength, error: createPin.error)
            createPin.sender.respond(with: pin, to: createPin)
        default:
            challenge.cancel()
        }
    }
    print(registration.profile)   // registered and logged in
}

@MainActor
final class RegistrationScreen { /* browser, pinPad, ... */ }

extension RegistrationScreen: @MainActor RegistrationDelegate {
    func userClient(_ client: UserClient, didReceiveBrowserRegistrationChallenge challenge: BrowserRegistrationChallenge) {
        browser.open(challenge.url) { redirect in challenge.sender.respond(with: redirect, to: challenge) }
    }

    func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge) {
        pinPad.ask(challenge)   // keeps the challenge until the user answers
    }

    func userClient(_ client: UserClient, didRegisterUser profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?) {
        showHome(profile)
    }

    func userClient(_ client: UserClient, didFailToRegisterUserWith identityProvider: IdentityProvider?, error: IdentityFlowError) {
        showError(error.message)
    }
}

/// What the block's comment elides.
extension RegistrationScreen {
    var browser: SnippetBrowser { SnippetBrowser() }
    var pinPad: SnippetPinPad { SnippetPinPad() }
    func showHome(_ profile: UserProfile) {}
    func showError(_ message: String) {}
}

@MainActor
private func readmeRegisterWithADelegate(client: UserClient, provider: IdentityProvider, registrationScreen: RegistrationScreen) {
    client.registerUser(.provider(provider, scopes: ["openid", "profile"]), delegate: registrationScreen)
}

private func readmeLogIn(client: UserClient, profile: UserProfile, pinPad: SnippetPinPad, pinScreen: SnippetPinScreen, api: URL) async throws {
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
    try await client.logout()               // localLogout (10009) when the server could not be told; device mode keeps the sealed sign-in
    try await client.deregister(profile)    // localDeregistration (10003) when only the device forgot it
    _ = (login, data, response)
}

// README.md, "DPoP and PAR": requests the host sends itself.
private func readmeAuthorizeOwnRequests(client: UserClient, api: URL, myHTTPStack: SnippetHTTPStack) async throws {
var request = try await client.authorize(URLRequest(url: api.appendingPathComponent("accounts")))
var (data, response) = try await myHTTPStack.send(request)   // your stack: (Data, HTTPURLResponse)
if try await client.handleResponse(response, body: data, to: request) == .retry {
    request = try await client.authorize(request)             // a fresh proof (and token)
    (data, response) = try await myHTTPStack.send(request)
    _ = try await client.handleResponse(response, body: data, to: request)   // remembers its nonce
}
}

// README.md, "DPoP and PAR".
private func readmeDPoPAndPAR() -> HTTPServiceConfiguration {
    var configuration = HTTPServiceConfiguration(
        issuer: URL(string: "https://id.example.com/o")!,
        clientID: "my-app",
        redirectURI: URL(string: "myapp://callback")!)
    configuration.dpop = .required                 // .whenAdvertised (the default) or .off
    configuration.pushedAuthorization = .required  // .whenAdvertised (the default) or .off
    configuration.securityProfile = .fapi2         // or all of FAPI 2.0's client side at once
    return configuration
}
