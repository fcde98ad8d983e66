// A @MainActor screen conforms to every delegate protocol with isolated conformances: no
// `nonisolated`, no `MainActor.assumeIsolated`. This file imports what a host's test target
// imports (IdentityFlowTesting alone), so it also proves the host face is enough.
import Foundation
import IdentityFlowTesting
import Testing

/// One screen of an app: answers every challenge from the main actor, records each callback and
/// whether it ran on the main queue (the main actor's executor; `Thread.isMainThread` says `false`
/// on the main actor under Swift Testing on Linux, so the queue is marked instead).
@MainActor
final class MainActorLoginScreen {
    let server: ReferenceIdentityService
    private var pins: [String]
    private(set) var callbacks: [String] = []
    private(set) var offMainCallbacks = 0
    private var finished: String?
    private var waiting: CheckedContinuation<String, Never>?

    private static let mainQueue = DispatchSpecificKey<String>()

    init(server: ReferenceIdentityService, pins: [String] = []) {
        self.server = server
        self.pins = pins
        DispatchQueue.main.setSpecific(key: Self.mainQueue, value: "main")
    }

    private func note(_ callback: String) {
        callbacks.append(callback)
        if DispatchQueue.getSpecific(key: Self.mainQueue) != "main" { offMainCallbacks += 1 }
    }

    private func finish(_ outcome: String) {
        note(outcome)
        finished = outcome
        waiting?.resume(returning: outcome)
        waiting = nil
    }

    /// The terminal callback's name, once it came.
    func outcome() async -> String {
        if let finished { return finished }
        return await withCheckedContinuation { waiting = $0 }
    }

    private func nextPin() -> String { pins.isEmpty ? "00000" : pins.removeFirst() }
}

extension MainActorLoginScreen: @MainActor RegistrationDelegate {
    func userClient(_ client: UserClient, didStartRegistrationOf profile: UserProfile) { note("didStartRegistration") }

    func userClient(_ client: UserClient, didReceiveBrowserRegistrationChallenge challenge: BrowserRegistrationChallenge) {
        note("browser")
        guard let redirect = try? server.logIn(at: challenge.url) else { return _ = challenge.sender.cancel(challenge) }
        challenge.sender.respond(with: redirect, to: challenge)
    }

    func userClient(_ client: UserClient, didReceiveCustomRegistrationInitChallenge challenge: CustomRegistrationChallenge) {
        note("customInit")
        challenge.sender.respond(with: nil, to: challenge)
    }

    func userClient(_ client: UserClient, didReceiveCustomRegistrationFinishChallenge challenge: CustomRegistrationChallenge) {
        note("customFinish")
        challenge.sender.respond(with: "name=Ada", to: challenge)
    }

    func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge) {
        note("createPin")
        challenge.sender.respond(with: nextPin(), to: challenge)
    }

    func userClient(_ client: UserClient, didRegisterUser profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?) {
        finish("didRegisterUser")
    }

    func userClient(_ client: UserClient, didFailToRegisterUserWith identityProvider: IdentityProvider?, error: IdentityFlowError) {
        finish("didFailToRegister \(error.code)")
    }
}

extension MainActorLoginScreen: @MainActor AuthenticationDelegate {
    func userClient(_ client: UserClient, didStartAuthenticating profile: UserProfile, authenticator: Authenticator) { note("didStartAuthenticating") }

    func userClient(_ client: UserClient, didReceivePinChallenge challenge: PinChallenge) {
        note("pin")
        challenge.sender.respond(with: nextPin(), to: challenge)
    }

    func userClient(_ client: UserClient, didReceiveBiometricChallenge challenge: BiometricChallenge) {
        note("biometric")
        challenge.sender.respond(to: challenge)
    }

    func userClient(_ client: UserClient, didAuthenticateUser profile: UserProfile, authenticator: Authenticator, info: CustomInfo?) {
        finish("didAuthenticateUser")
    }

    func userClient(_ client: UserClient, didFailToAuthenticateUser profile: UserProfile, authenticator: Authenticator, error: IdentityFlowError) {
        finish("didFailToAuthenticate \(error.code)")
    }
}

extension MainActorLoginScreen: @MainActor ChangePinDelegate {
    func userClient(_ client: UserClient, didStartPinChangeFor profile: UserProfile) { note("didStartPinChange") }

    func userClient(_ client: UserClient, didChangePinFor profile: UserProfile) { finish("didChangePin") }

    func userClient(_ client: UserClient, didFailToChangePinFor profile: UserProfile?, error: IdentityFlowError) {
        finish("didFailToChangePin \(error.code)")
    }
}

extension MainActorLoginScreen: @MainActor AuthenticatorRegistrationDelegate {
    func userClient(_ client: UserClient, didStartRegistering authenticator: Authenticator, for profile: UserProfile) {
        note("didStartRegistering")
    }

    func userClient(_ client: UserClient, didRegister authenticator: Authenticator, for profile: UserProfile) { finish("didRegister \(authenticator)") }

    func userClient(_ client: UserClient, didFailToRegister authenticator: Authenticator, for profile: UserProfile, error: IdentityFlowError) {
        finish("didFailToRegister \(error.code)")
    }
}

extension MainActorLoginScreen: @MainActor MobileAuthRequestDelegate {
    func userClient(_ client: UserClient, didReceiveConfirmationChallenge challenge: MobileAuthConfirmationChallenge) {
        note("confirmation")
        challenge.sender.respond(with: true, to: challenge)
    }

    func userClient(_ client: UserClient, didHandle result: MobileAuthResult) { finish(result.accepted ? "accepted" : "denied") }

    func userClient(_ client: UserClient, didFailToHandle source: MobileAuthSource, error: IdentityFlowError) {
        finish("didFailToHandle \(error.code)")
    }
}

extension MainActorLoginScreen: @MainActor ProviderLogoutDelegate {
    func userClient(_ client: UserClient, didStartProviderLogoutOf profile: UserProfile) { note("didStartProviderLogout") }

    func userClient(_ client: UserClient, didReceiveProviderLogoutChallenge challenge: ProviderLogoutChallenge) {
        note("providerLogout")
        challenge.sender.respond(with: try! server.logOut(at: challenge.url), to: challenge)
    }

    func userClient(_ client: UserClient, didLogOutAtProvider profile: UserProfile) { finish("didLogOutAtProvider") }

    func userClient(_ client: UserClient, didFailProviderLogoutOf profile: UserProfile?, error: IdentityFlowError) {
        finish("didFailProviderLogout \(error.code)")
    }
}

@Suite("A @MainActor host conforms to the delegates with isolated conformances")
@MainActor
struct MainActorDelegateTests {
    /// `.testing()` delivers nonisolated callers' callbacks at once, on the flow's own context:
    /// these must still arrive on the main actor, because the flows were started from it.
    @Test("registration, login, PIN change, biometric registration and mobile authentication call a @MainActor screen back on the main actor")
    func everyDelegateOnTheMainActor() async throws {
        let server = ReferenceIdentityService()
        let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
        try await client.start()

        let registration = MainActorLoginScreen(server: server, pins: ["24680"])
        client.registerUser(.default, delegate: registration)
        #expect(await registration.outcome() == "didRegisterUser")
        #expect(registration.callbacks == ["didStartRegistration", "browser", "createPin", "didRegisterUser"])
        let profile = try #require(client.authenticatedUserProfile)

        let login = MainActorLoginScreen(server: server, pins: ["24680"])
        client.authenticateUser(profile, authenticator: .pin, delegate: login)
        #expect(await login.outcome() == "didAuthenticateUser")
        #expect(login.callbacks == ["didStartAuthenticating", "pin", "didAuthenticateUser"])

        let change = MainActorLoginScreen(server: server, pins: ["24680", "80417"])
        client.changePin(delegate: change)
        #expect(await change.outcome() == "didChangePin")
        #expect(change.callbacks == ["didStartPinChange", "pin", "createPin", "didChangePin"])

        let biometrics = MainActorLoginScreen(server: server, pins: ["80417"])
        client.registerBiometricAuthenticator(for: profile, delegate: biometrics)
        #expect(await biometrics.outcome() == "didRegister biometric")
        #expect(biometrics.callbacks == ["didStartRegistering", "pin", "didRegister biometric"])

        try await client.enrollMobileAuthentication()
        let push = try server.sendMobileAuthRequest(to: profile, message: "Log in to shop.example?", type: .pin)
        let mobile = MainActorLoginScreen(server: server, pins: ["80417"])
        client.handleMobileAuthRequest(.push(push), delegate: mobile)
        #expect(await mobile.outcome() == "accepted")
        #expect(mobile.callbacks == ["confirmation", "pin", "accepted"])
        #expect(server.mobileAuthDecision(of: push.requestId) == true)

        let logout = MainActorLoginScreen(server: server, pins: [])
        client.providerLogout(delegate: logout)
        #expect(await logout.outcome() == "didLogOutAtProvider")
        #expect(logout.callbacks == ["didStartProviderLogout", "providerLogout", "didLogOutAtProvider"])

        for screen in [registration, login, change, biometrics, mobile, logout] { #expect(screen.offMainCallbacks == 0) }
    }

    @Test("a registration that cannot start still reports its one failure on the main actor")
    func failureBeforeStartOnTheMainActor() async throws {
        let server = ReferenceIdentityService()
        let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
        let screen = MainActorLoginScreen(server: server)
        client.registerUser(.default, delegate: screen)  // before start()
        #expect(await screen.outcome() == "didFailToRegister \(ErrorCode.requestInvalid)")
        #expect(screen.offMainCallbacks == 0)
    }
}
