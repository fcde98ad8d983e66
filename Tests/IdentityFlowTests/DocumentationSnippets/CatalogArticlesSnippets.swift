// swift-format-ignore-file
// The Swift blocks of the IdentityFlow catalog's shorter articles, verbatim
// (DocumentationSnippetTests): BiometricRegistration, ChangingThePin, Deregistration,
// DeviceAuthenticators, ErrorCodes, FAPI2ClientProfile, Logout, MobileAuthentication, ProviderLogout, Registration,
// SurvivingProcessDeath, UsingImplicitAuthentication. GettingStarted has its own file; Login's block is the README's.
import Foundation
import IdentityFlow

#if canImport(FoundationNetworking)
import FoundationNetworking  // URLRequest on Linux
#endif

// BiometricRegistration.md
private func biometricRegistration(client: UserClient, profile: UserProfile, pinScreen: SnippetPinScreen) async throws {
    // pinScreen: your ChallengeResponder (a type with `receive(_ challenge: Challenge) async`) that asks for the PIN
    try await client.registerBiometricAuthenticator(for: profile, responder: pinScreen)   // asks the PIN once
}

// ChangingThePin.md
private func changingThePin(client: UserClient, pinScreen: SnippetPinScreen) async throws {
    // pinScreen: your ChallengeResponder (a type with `receive(_ challenge: Challenge) async`) that asks for the PIN
    try await client.changePin(responder: pinScreen)   // current PIN, then a new one
}

// Deregistration.md
private func deregistration(client: UserClient, profile: UserProfile) async throws {
    try await client.deregister(profile)   // localDeregistration (10003) when only the device forgot it
}

// DeviceAuthenticators.md
private func deviceAuthenticators() {
    var configuration = ClientConfiguration(redirectURI: URL(string: "myapp://callback")!)
    configuration.authenticators = .device()
    configuration.launchPolicy = .resumeLastUser
    _ = configuration
}

// ErrorCodes.md and Logout.md (the second block)
private func errorCodes(client: UserClient) async throws {
    do { try await client.logout() }
    catch where error.code == .localLogout { /* logged out here; the server will expire the tokens */ }
}

// Logout.md
private func logout(client: UserClient) async throws {
    try await client.logout()   // localLogout (10009) when the server could not be told
}

/// A push notification's shape (UNNotification is Apple-only).
private struct SnippetNotification {
    struct Request { struct Content { let userInfo: [AnyHashable: Any] }; let content: Content }
    let request: Request
}

// MobileAuthentication.md
private func mobileAuthentication(
    client: UserClient, apnsToken: Data, notification: SnippetNotification, scanned: String, screen: SnippetPinScreen
) async throws {
    try await client.enrollMobileAuthentication()                          // the user is logged in
    try await client.enrollPushMobileAuthentication(deviceToken: apnsToken) // optional: announce requests by push

    // A push arrived (its payload carries ids only, never the message):
    if let push = MobileAuthPush(pushPayload: notification.request.content.userInfo) {
        let result = try await client.handleMobileAuthRequest(.push(push)) { challenge in
            switch challenge {
            case .mobileAuthConfirmation(let confirm):   // show confirm.request.message
                confirm.sender.respond(with: await askUser(confirm.request.message), to: confirm)
            case .pin(let pin):                          // a stepped-up request: counters and lockout as at login
                pin.sender.respond(with: await askForPin(pin), to: pin)
            case .biometric(let prompt):
                prompt.sender.respond(to: prompt)        // after LAContext said yes
            default:
                challenge.cancel()
            }
        }
        print(result.accepted ? "accepted" : "denied")  // a denial is a result, not an error
    }

    // Pushes get lost: list what is open when the app comes to the foreground.
    for request in try await client.pendingMobileAuthRequests() { _ = try await client.handleMobileAuthRequest(.request(request), responder: screen) }

    // A one-time code scanned from a QR code:
    if client.canHandleMobileAuthOTP(scanned) { _ = try await client.handleMobileAuthRequest(.otp(scanned), responder: screen) }
}

// ProviderLogout.md
private func providerLogout(client: UserClient, browser: SnippetClosableBrowser) async throws {
    do {
        try await client.providerLogout { challenge in
            guard case .providerLogout(let logout) = challenge else { return }
            browser.open(logout.url) { redirect in
                if let redirect { logout.sender.respond(with: redirect, to: logout) } else { logout.sender.cancel(logout) }
            }
        }
    } catch where error.code == .providerLogoutNotSupported {
        // no end_session_endpoint: logged out on the device only
    } catch where error.code == .providerLogoutUnconfirmed {
        // cancelled, another state or an error: logged out on the device; the provider's session may remain
    }
}

// Registration.md
private func registration(client: UserClient, login: String, password: String, googleAccessToken: String, screen: SnippetPinScreen) async throws {
    let sevenPass = IdentityProvider(identifier: "7pass", name: "7Pass", kind: .credentials)
    let result = try await client.registerUser(.provider(sevenPass)) { challenge in
        if case .credentials(let form) = challenge {
            form.sender.respond(withLogin: login, password: password, to: form)
        }   // then .createPin as usual
    }
    let social = try await client.registerUser(.externalToken(ExternalToken(provider: "google", token: googleAccessToken)), responder: screen)
    _ = (result, social)
}

private func partialRegistration(challenge: Challenge, email: String, name: String) {
    switch challenge {
    case .partialRegistration(let partial):   // partial.identifier: what the provider knows ("ada@example.com")
        partial.sender.respond(with: ["email": email, "name": name], to: partial)
    default:
        challenge.cancel()
    }
}

private func statelessRegistration(client: UserClient, provider: IdentityProvider, screen: SnippetPinScreen) async throws {
    let result = try await client.registerUser(.provider(provider).stateless(), responder: screen)
    let stateless = result.profile.isStateless   // true
    _ = stateless
}

// SurvivingProcessDeath.md (its first block, SwiftUI and UIKit, is a listed fragment)
private func survivingProcessDeath(client: UserClient, registrationScreen: SnippetPinScreen) async throws {
    // At launch
    let report = try await client.start()
    if !report.resumableRegistrations.isEmpty {
        let result = try await client.registerUser(.resume, responder: registrationScreen)   // or delegate: / a closure
        print(result.profile)   // registered and logged in
    }
}

// UsingImplicitAuthentication.md
private func implicitAuthentication(client: UserClient, profile: UserProfile, request: inout URLRequest) async throws {
    let implicit = try await client.implicitlyAuthenticate(profile, scopes: ["read"])
    request.setValue("Bearer \(implicit.tokens.accessToken.value)", forHTTPHeaderField: "Authorization")
}

// FAPI2ClientProfile.md
private func fapi2ClientProfile() -> HTTPServiceConfiguration {
    var configuration = HTTPServiceConfiguration(
        issuer: URL(string: "https://bank.example.com")!,
        clientID: "my-app",
        redirectURI: URL(string: "https://app.example.com/callback")!)
    configuration.securityProfile = .fapi2
    return configuration
}
