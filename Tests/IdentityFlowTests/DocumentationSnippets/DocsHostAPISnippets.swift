// swift-format-ignore-file
// docs/host-api.md's Swift blocks, verbatim (DocumentationSnippetTests); the second is
// ReadmeExampleTests' registersWithARequest, the last (an adapter's outline) is a listed fragment.
import Foundation
import IdentityFlow

private func hostAPIConfigure() async throws {
    let configuration = ClientConfiguration(redirectURI: URL(string: "myapp://callback")!)
    let server = try IdentityServer.openIDConnect(
        HTTPServiceConfiguration(issuer: URL(string: "https://idp.example")!, clientID: "app", redirectURI: URL(string: "myapp://callback")!))
    let client = UserClient(configuration: configuration, server: server, storage: KeychainStorage(service: "com.example.app.identity"))
    try await client.start()
}

@MainActor
private func hostAPIStyles(
    client: UserClient, browser: IdentityProvider, custom: IdentityProvider, registrationScreen: RegistrationScreen, scriptedOrUI: SnippetPinScreen
) async throws {
    // 1. A delegate (callbacks; see "@MainActor delegates" below).
    client.registerUser(.provider(browser), delegate: registrationScreen)

    // 2. A responder, awaiting the result.
    let result = try await client.registerUser(.provider(custom), responder: scriptedOrUI)

    // 3. An answering closure, awaiting the result.
    let guest = try await client.registerUser(.stateless) { challenge in
        if case .browserRegistration(let browser) = challenge {
            browser.sender.respond(with: await openBrowser(browser.url), to: browser)
        }
    }
    _ = (result, guest)
}

private func hostAPIRedirect(client: UserClient, url: URL, registrationScreen: SnippetPinScreen) async throws {
    client.handleRedirect(url)   // from SwiftUI's .onOpenURL, or the app delegate's application(_:open:options:)
    // After a relaunch, when start() listed a resumable registration:
    let resumed = try await client.registerUser(.resume, responder: registrationScreen)
    _ = resumed
}

@MainActor
final class LoginScreen {
    let client: UserClient
    var pinField = PinField()
    init(client: UserClient) { self.client = client }

    func logIn(_ profile: UserProfile) { client.authenticateUser(profile, delegate: self) }
}

extension LoginScreen: @MainActor AuthenticationDelegate {
    func userClient(_ client: UserClient, didStartAuthenticating profile: UserProfile, authenticator: Authenticator) {}

    func userClient(_ client: UserClient, didReceivePinChallenge challenge: PinChallenge) {
        pinField.ask(remaining: challenge.remainingFailureCount) { pin in challenge.sender.respond(with: pin, to: challenge) }
    }

    func userClient(_ client: UserClient, didReceiveBiometricChallenge challenge: BiometricChallenge) {
        challenge.sender.respondWithPinFallback(to: challenge)
    }

    func userClient(_ client: UserClient, didAuthenticateUser profile: UserProfile, authenticator: Authenticator, info: CustomInfo?) {
        pinField.close()
    }

    func userClient(_ client: UserClient, didFailToAuthenticateUser profile: UserProfile, authenticator: Authenticator, error: IdentityFlowError) {
        pinField.show(error)
    }
}
