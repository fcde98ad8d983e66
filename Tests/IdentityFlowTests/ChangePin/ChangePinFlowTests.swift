import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

@Suite("Change PIN and biometrics")
struct ChangePinFlowTests {
    @Test("without a logged-in user, changing the PIN fails with userNotAuthenticated (both APIs)")
    func needsAuthentication() async throws {
        let harness = try await Harness.make()
        let responder = ScriptedResponder([])
        harness.client.changePin(delegate: responder)
        #expect(await responder.outcome().error?.code == .userNotAuthenticated)
        let result = await Result { () async throws(IdentityFlowError) in try await harness.client.changePin(responder: ScriptedResponder([])) }
        #expect(result.failure?.code == .userNotAuthenticated)
    }

    @Test("a wrong current PIN counts; a new PIN must follow the policy; then only the new PIN logs in")
    func changesThePin() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        let responder = ScriptedResponder([
            .pin(.respond("99999")),
            .pin(.respond("24680"), expecting: .invalidPin),
            .createPin(.respond("55555")),
            .createPin(.respond("31415"), expecting: .pinShouldNotUseSimilarDigits),
        ])
        harness.client.changePin(delegate: responder)
        guard case .pinChanged(let changed) = await responder.outcome() else { Issue.record("\(responder.events)"); return }
        try responder.verify()
        #expect(changed == profile)
        #expect(responder.events.first == "didStartPinChangeFor")
        let old = ScriptedResponder([.pin(.respond("24680")), .pin(.respond("31415"), expecting: .invalidPin)])
        #expect(try await harness.client.authenticateUser(profile, responder: old).profile == profile)
        try old.verify()
    }

    @Test("a cancel that lands as the server accepts the new PIN changes nothing: the change completes, says so, and only the new PIN logs in")
    func cancelAsTheServerAcceptsTheNewPin() async throws {
        let server = ReferenceIdentityService()
        let service = HookedService(server)
        let client = UserClient(configuration: .testing(), service: service, storage: InMemoryStorage())
        try await client.start()
        let profile = try await client.registerUser(
            responder: ScriptedResponder([
                .browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680")),
            ])
        ).profile
        let cancelled = Locked<Bool?>(nil)
        // The new PIN's enrolment is under way: the server has taken it, the flow has not seen the answer.
        service.after("enrolPin") { cancelled.withLock { $0 = client.cancelCurrentFlow() } }
        let result = await Result { () async throws(IdentityFlowError) in
            try await client.changePin(responder: ScriptedResponder([.pin(.respond("24680")), .createPin(.respond("31415"))]))
        }
        #expect(cancelled.current == false, "a cancel after the new PIN was sent must not be taken")
        #expect(result.failure == nil, "the server holds the new PIN, so the change succeeded: \(String(describing: result.failure))")
        // Device and server agree: the new PIN logs in, the old one is wrong (and counts as such).
        let login = ScriptedResponder([.pin(.respond("24680")), .pin(.respond("31415"), expecting: .invalidPin)])
        #expect(try await client.authenticateUser(profile, responder: login).profile == profile)
        try login.verify()
    }

    @Test("the last allowed wrong current PIN deregisters the profile")
    func lockoutDuringChange() async throws {
        let harness = try await Harness.make(server: ReferenceIdentityService(maxPinFailures: 2))
        _ = try await AuthenticationFlowTests.registered(harness)
        let responder = ScriptedResponder([.pin(.respond("99999")), .pin(.respond("99999"), expecting: .invalidPin)])
        let result = await Result { () async throws(IdentityFlowError) in try await harness.client.changePin(responder: responder) }
        #expect(result.failure?.code == .userDeregistered)
        #expect(harness.client.userProfiles.isEmpty)
        #expect(harness.client.authenticatedUserProfile == nil)
    }

    @Test("biometrics: register with the PIN, log in with the sensor, fall back, fail over to the PIN, deregister")
    func biometrics() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        let registration = ScriptedResponder([.pin(.respond("24680"))])
        harness.client.registerBiometricAuthenticator(for: profile, delegate: registration)
        guard case .authenticatorRegistered(.biometric, profile) = await registration.outcome() else { Issue.record("\(registration.events)"); return }
        #expect(harness.client.registeredAuthenticators(for: profile) == [.pin, .biometric])

        let confirmed = ScriptedResponder([.biometric(.respond(.confirmed))])
        #expect(try await harness.client.authenticateUser(profile, responder: confirmed).authenticator == .biometric)

        let fallback = ScriptedResponder([.biometric(.respond(.pinFallback)), .pin(.respond("24680"))])
        #expect(try await harness.client.authenticateUser(profile, responder: fallback).profile == profile)
        try fallback.verify()

        let failure = ScriptedResponder([.biometric(.respond(.failed)), .pin(.respond("24680"), expecting: .biometricAuthenticatorFailure)])
        harness.client.authenticateUser(profile, authenticator: .biometric, delegate: failure)
        guard case .authenticated = await failure.outcome() else { Issue.record("\(failure.events)"); return }
        try failure.verify()

        try harness.client.deregisterBiometricAuthenticator(for: profile)
        #expect(harness.client.registeredAuthenticators(for: profile) == [.pin])
        #expect(throws: IdentityFlowError.self) { try harness.client.deregisterBiometricAuthenticator(for: profile) }
    }

    @Test("after a PIN change the biometric key follows the new PIN")
    func biometricsSurvivePinChange() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        try await harness.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        try await harness.client.changePin(responder: ScriptedResponder([.pin(.respond("24680")), .createPin(.respond("31415"))]))
        let login = ScriptedResponder([.biometric(.respond(.confirmed))])
        #expect(try await harness.client.authenticateUser(profile, responder: login).authenticator == .biometric)
        try login.verify()
    }
}

@Suite("Logout and deregistration")
struct LogoutDeregistrationTests {
    @Test("logout revokes the tokens on the server and ends the session")
    func logout() async throws {
        let harness = try await Harness.make()
        _ = try await AuthenticationFlowTests.registered(harness)
        #expect(harness.server.activeAccessTokenCount == 1)
        try await harness.client.logout()
        #expect(harness.client.authenticatedUserProfile == nil)
        #expect(harness.server.activeAccessTokenCount == 0)
        await #expect { try await harness.client.logout() } throws: { ($0 as? IdentityFlowError)?.code == .userNotAuthenticated }
    }

    @Test("logout without the server is local only: localLogout, and the user is logged out all the same")
    func localLogout() async throws {
        let harness = try await Harness.make()
        _ = try await AuthenticationFlowTests.registered(harness)
        harness.server.inject(.networkError, into: .revoke)
        let error = await withCheckedContinuation { continuation in harness.client.logout { continuation.resume(returning: $0) } }
        #expect(error?.code == .localLogout)
        #expect(harness.client.authenticatedUserProfile == nil)
    }

    @Test("deregistration removes the profile on the server and on the device")
    func deregister() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        let error = await withCheckedContinuation { continuation in harness.client.deregister(profile) { continuation.resume(returning: $0) } }
        #expect(error == nil)
        #expect(harness.client.userProfiles.isEmpty)
        #expect(harness.server.enrolledProfiles.isEmpty)
        #expect(harness.server.activeAccessTokenCount == 0)
    }

    @Test("deregistration without the server is local only: localDeregistration carrying the profile")
    func localDeregistration() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        harness.server.inject(.serverError, into: .deregister)
        let result = await Result { () async throws(IdentityFlowError) in try await harness.client.deregister(profile) }
        #expect(result.failure?.code == .localDeregistration)
        #expect(result.failure?.userProfile == profile)
        #expect(harness.client.userProfiles.isEmpty)
        #expect(harness.server.enrolledProfiles == [profile])
    }

    @Test("deregistering an unknown profile fails with requestInvalid")
    func unknownProfile() async throws {
        let harness = try await Harness.make()
        let result = await Result { () async throws(IdentityFlowError) in try await harness.client.deregister(UserProfile(profileId: "nobody")) }
        #expect(result.failure?.code == .requestInvalid)
    }
}
