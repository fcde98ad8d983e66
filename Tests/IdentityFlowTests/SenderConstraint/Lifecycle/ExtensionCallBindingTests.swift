import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// Server placement against the reference server requiring DPoP: the extension calls that carry
/// the user's DPoP-bound access token prove it with the profile's key, and a copy of the token
/// alone (or with another key's proof) enrols nothing.
@Suite("DPoP on the extension calls that carry a bound access token")
struct ExtensionCallBindingTests {
    static let authorization = PinKeyAuthorization(nonce: [1, 2, 3], proof: [UInt8](repeating: 2, count: 64))

    /// An enrolment a thief tries with the session's copied access token and, when given, a key of their own.
    struct Theft: Sendable, CustomTestStringConvertible {
        let name: String
        let attempt: @Sendable (ReferenceIdentityService, UserProfile, Redacted<String>, DPoPKey?) async throws(IdentityFlowError) -> Void
        var testDescription: String { name }
    }

    static let thefts: [Theft] = [
        Theft(name: "a PIN") { server, _, token, key throws(IdentityFlowError) in
            let thief = try DeviceKey.random()
            let enrolment = PinEnrolment(profile: UserProfile(profileId: "T1"), salt: Array(0..<16), iterations: 1, publicKey: thief.publicKey)
            _ = try await server.enrolPin(enrolment, accessToken: token, proofKey: key)
        },
        Theft(name: "a biometric key") { server, profile, token, key throws(IdentityFlowError) in
            try await server.enrolBiometricKey(
                try DeviceKey.random().publicKey, for: profile, authorization: authorization, accessToken: token, proofKey: key)
        },
        Theft(name: "mobile authentication") { server, profile, token, key throws(IdentityFlowError) in
            try await server.enrolMobileAuthentication(
                publicKey: try DeviceKey.random().publicKey, for: profile, authorization: authorization, accessToken: token, proofKey: key)
        },
        Theft(name: "a push token") { server, profile, token, key throws(IdentityFlowError) in
            try await server.enrolPushMobileAuthentication(deviceToken: [6, 6, 6], for: profile, accessToken: token, proofKey: key)
        },
        Theft(name: "implicit authentication") { server, profile, token, key throws(IdentityFlowError) in
            try await server.enrolImplicitAuthentication(
                publicKey: try DeviceKey.random().publicKey, for: profile, authorization: authorization, accessToken: token, proofKey: key)
        },
    ]

    @Test("a copied bound access token enrols nothing at the reference server, alone or with another key's proof", arguments: thefts)
    func copiedTokenRefused(_ theft: Theft) async throws {
        let setup = try await DPoPLifecycleTests.Setup(.server)
        let profile = try await setup.register()
        try await setup.client.enrollMobileAuthentication()
        let copied = try setup.client.sessionTokens().accessToken
        let before = setup.server.calls.count
        for key in [nil, try DPoPKey.generate()] {
            let refused = await Result { () async throws(IdentityFlowError) in try await theft.attempt(setup.server, profile, copied, key) }
            #expect(refused.failure?.code == .dpopProofRefused, "\(key == nil ? "alone" : "with another key")")
        }
        #expect(setup.server.calls.count == before + 2)
        #expect(setup.server.enrolledProfiles == [profile], "no PIN of the thief's")
        #expect(!setup.server.hasBiometricKey(for: profile))
        #expect(setup.server.pushToken(of: profile) == nil)
        let challenge = try await setup.server.pinLoginChallenge(for: profile)
        #expect(challenge.failureCount == 0, "refused before any PIN key proof was looked at")
    }

    @Test("server mode: registration, biometric registration, PIN change and the mobile, push and implicit enrolments prove the bound token")
    func clientProvesEveryCall() async throws {
        let setup = try await DPoPLifecycleTests.Setup(.server)
        let profile = try await setup.register()
        #expect(try setup.client.sessionTokens().isSenderConstrained)
        #expect(setup.server.isImplicitAuthenticationEnrolled(profile), "the registration's implicit enrolment went through with a proof")
        try await setup.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        #expect(setup.server.hasBiometricKey(for: profile))
        try await setup.client.enrollMobileAuthentication()
        #expect(setup.server.isMobileAuthEnrolled(profile))
        try await setup.client.enrollPushMobileAuthentication(deviceToken: Data([1, 2, 3]))
        #expect(setup.server.pushToken(of: profile) == Data([1, 2, 3]))
        try await setup.client.enrollImplicitAuthentication()
        try await setup.client.changePin(responder: ScriptedResponder([.pin(.respond("24680")), .createPin(.respond("80426"))]))
        try await setup.client.logout()
        _ = try await setup.client.authenticateUser(profile, authenticator: .pin, responder: ScriptedResponder([.pin(.respond("80426"))]))
        #expect(setup.server.pinProofVersion(of: profile) == 2, "the new PIN's enrolment went through")
    }

    @Test("server mode: a biometric registration whose key the server refuses revokes the abandoned login's bound tokens with the profile's key")
    func abandonedLoginRevoked() async throws {
        let setup = try await DPoPLifecycleTests.Setup(.server)
        let profile = try await setup.register()
        let live = Set(setup.server.issuedTokensForTesting)
        setup.server.inject(.serverError, into: .enrolBiometricKey)
        let failed = await Result { () async throws(IdentityFlowError) in
            try await setup.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        }
        #expect(failed.failure?.code == .serverNotReachable)
        #expect(setup.server.calls.contains(.revoke))
        #expect(Set(setup.server.issuedTokensForTesting) == live, "the login's access and refresh tokens are dead")
    }
}
