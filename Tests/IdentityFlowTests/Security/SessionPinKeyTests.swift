import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
@testable import IdentityFlowTesting
import Statechart

/// The session's PIN key (`docs/pin-proof.md`, "Credential changes"): a login or registration
/// with the PIN keeps it in memory to prove credential changes; a biometric session has none,
/// and the calls that need one say so before anything is sent.
@Suite("Credential changes prove the PIN with the session's key")
struct SessionPinKeyTests {
    static let pin = "24680"

    /// A registered profile that also has biometrics.
    static func withBiometrics(_ harness: Harness) async throws -> UserProfile {
        let profile = try await AuthenticationFlowTests.registered(harness)
        try await harness.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond(pin))]))
        return profile
    }

    static func biometricLogin(_ harness: Harness, _ profile: UserProfile) async throws {
        _ = try await harness.client.authenticateUser(profile, authenticator: .biometric, responder: ScriptedResponder([.biometric(.respond(.confirmed))]))
    }

    @Test("a registration's session proves the PIN: mobile and implicit keys register, and the implicit key was registered by the registration")
    func registrationSession() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        #expect(harness.server.calls.contains(.enrolImplicitAuthentication))
        _ = try await harness.client.implicitlyAuthenticate(profile, scopes: ["read"])
        try await harness.client.enrollMobileAuthentication()
        try await harness.client.enrollImplicitAuthentication()
        #expect(harness.client.isMobileAuthEnrolled(profile))
    }

    @Test("a biometric session holds no PIN key: key registrations fail with pinProofRequired (11030) and send nothing; a PIN login makes them work")
    func biometricSession() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.withBiometrics(harness)
        try await harness.client.logout()
        try await Self.biometricLogin(harness, profile)
        let before = harness.server.calls.count
        do {
            try await harness.client.enrollMobileAuthentication()
            Issue.record("a biometric session registered a mobile authentication key")
        } catch {
            #expect(error.code == .pinProofRequired)
        }
        do {
            try await harness.client.enrollImplicitAuthentication()
            Issue.record("a biometric session registered an implicit key")
        } catch {
            #expect(error.code == .pinProofRequired)
        }
        #expect(harness.server.calls.count == before, "nothing was sent")
        _ = try await harness.client.authenticateUser(profile, authenticator: .pin, responder: ScriptedResponder([.pin(.respond(Self.pin))]))
        try await harness.client.enrollMobileAuthentication()
    }

    @Test("after a PIN change the session proves with the new key; a logout forgets it")
    func pinChangeAndLogout() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        try await harness.client.changePin(responder: ScriptedResponder([.pin(.respond(Self.pin)), .createPin(.respond("80426"))]))
        try await harness.client.enrollMobileAuthentication()
        #expect(try await harness.server.pinLoginChallenge(for: profile).failureCount == 0, "the new key's proof was right")
        try await harness.client.logout()
        do {
            try await harness.client.enrollImplicitAuthentication()
            Issue.record("enrolled without a session")
        } catch {
            #expect(error.code == .userNotAuthenticated)
        }
    }

    @Test("deregistering a profile without a PIN session revokes its tokens and removes it here: 10003 caused by 11030; the server's record stays")
    func deregistrationWithoutPinSession() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        try await harness.client.logout()
        do {
            try await harness.client.deregister(profile)
            Issue.record("deregistered on the server without the PIN key")
        } catch {
            #expect(error.code == .localDeregistration)
            #expect((error.underlying as? IdentityFlowError)?.code == .pinProofRequired)
        }
        #expect(harness.client.userProfiles.isEmpty)
        #expect(harness.server.enrolledProfiles.contains(profile))
        #expect(harness.server.activeAccessTokenCount == 0 && harness.server.activeRefreshTokenCount == 0)
        #expect(!harness.server.calls.contains(.deregister))
    }

    @Test("deregistering the profile of a PIN session removes it on the server too")
    func deregistrationWithPinSession() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        try await harness.client.logout()
        _ = try await harness.client.authenticateUser(profile, responder: ScriptedResponder([.pin(.respond(Self.pin))]))
        try await harness.client.deregister(profile)
        #expect(!harness.server.enrolledProfiles.contains(profile))
    }

    @Test("biometrics removed in a biometric session: gone here at once, revoked on the server at the next PIN login")
    func pendingBiometricRevocation() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.withBiometrics(harness)
        try await harness.client.logout()
        try await Self.biometricLogin(harness, profile)
        try harness.client.deregisterBiometricAuthenticator(for: profile)
        #expect(harness.server.hasBiometricKey(for: profile), "no PIN key yet: the server keeps it")
        try await harness.client.logout()
        _ = try await harness.client.authenticateUser(profile, authenticator: .pin, responder: ScriptedResponder([.pin(.respond(Self.pin))]))
        #expect(!harness.server.hasBiometricKey(for: profile))
        #expect(try await harness.server.pinLoginChallenge(for: profile).failureCount == 0)
        // Registered again, the new key is not revoked by the old pending revocation.
        try await harness.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond(Self.pin))]))
        try await harness.client.logout()
        _ = try await harness.client.authenticateUser(profile, authenticator: .pin, responder: ScriptedResponder([.pin(.respond(Self.pin))]))
        #expect(harness.server.hasBiometricKey(for: profile))
    }

    @Test("the reference server refuses an implicit token at its extension endpoints (11031) and a first enrolment with a bound sign-in")
    func referenceRefusesUnfitTokens() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        let implicit = try await harness.client.implicitlyAuthenticate(profile, scopes: ["read"])
        let other = UserProfile(profileId: "other")
        let enrolment = PinEnrolment(profile: other, salt: Array(repeating: 1, count: 16), iterations: 1, publicKey: try DeviceKey.random().publicKey)
        for token in [implicit.tokens.accessToken, try harness.client.sessionTokens().accessToken] {
            do {
                _ = try await harness.server.enrolPin(enrolment, accessToken: token)
                Issue.record("enrolled another profile with an unfit token")
            } catch {
                #expect(error.code == .accessTokenNotAllowed)
            }
        }
        #expect(!harness.server.enrolledProfiles.contains(other))
    }
}
