import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// Login through the public API: wrong PINs, counters, lockout, network errors, biometrics.
@Suite("Authentication flows")
struct AuthenticationFlowTests {
    /// Registers a user with PIN 24680 and returns the profile.
    static func registered(_ harness: Harness, as user: String = "alice") async throws -> UserProfile {
        let responder = ScriptedResponder([harness.browserLogin(as: user), .createPin(.respond("24680"))])
        return try await harness.client.registerUser(responder: responder).profile
    }

    func authenticate(_ harness: Harness, _ profile: UserProfile, authenticator: Authenticator? = nil, _ steps: [ScriptStep]) async throws -> (
        Result<AuthenticationResult, IdentityFlowError>, ScriptedResponder
    ) {
        let responder = ScriptedResponder(steps)
        let result = await Result { () async throws(IdentityFlowError) in
            try await harness.client.authenticateUser(profile, authenticator: authenticator, responder: responder)
        }
        return (result, responder)
    }

    @Test("a wrong then right PIN logs in; the second challenge carries invalidPin and updated counters")
    func wrongThenRight() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.registered(harness)
        let steps: [ScriptStep] = [
            .pin(
                .respondWith { challenge in
                    #expect(challenge.counters == PinCounters(maxFailureCount: 3, previousFailureCount: 0))
                    return "11223"
                }),
            .pin(
                .respondWith { challenge in
                    #expect(challenge.previousFailureCount == 1)
                    #expect(challenge.remainingFailureCount == 2)
                    return "24680"
                }, expecting: .invalidPin),
        ]
        let (result, responder) = try await authenticate(harness, profile, steps)
        try responder.verify()
        #expect(try result.get() == AuthenticationResult(profile: profile, authenticator: .pin, info: nil))
        #expect(harness.client.authenticatedUserProfile == profile)
    }

    @Test("lockout happens exactly at maxFailureCount, not one attempt earlier", arguments: [1, 3, 5])
    func lockoutAtTheLimit(limit: Int) async throws {
        let harness = try await Harness.make(server: ReferenceIdentityService(maxPinFailures: limit))
        let profile = try await Self.registered(harness)
        var steps: [ScriptStep] = [.pin(.respond("99999"))]
        steps += (1..<limit).map { _ in ScriptStep.pin(.respond("99999"), expecting: .invalidPin) }
        let (result, responder) = try await authenticate(harness, profile, steps)
        try responder.verify()
        #expect(result.failure?.code == .userDeregistered)
        #expect(result.failure?.userProfile == profile)
        #expect(harness.client.userProfiles.isEmpty)
        #expect(harness.server.enrolledProfiles.isEmpty)
        #expect(harness.server.activeAccessTokenCount == 0)
    }

    @Test("a network error between two wrong PINs leaves the counters untouched")
    func networkErrorKeepsCounters() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.registered(harness)
        let steps: [ScriptStep] = [
            .pin(.respond("99999")),
            .pin(
                .respondWith { [server = harness.server] challenge in
                    #expect(challenge.previousFailureCount == 1)
                    server.inject(.networkError, into: .verifyPinProof)
                    return "99999"
                }, expecting: .invalidPin),
            .pin(
                .respondWith { challenge in
                    #expect(challenge.previousFailureCount == 1)
                    return "99999"
                }, expecting: .networkConnectivityFailure),
            .pin(
                .respondWith { challenge in
                    #expect(challenge.previousFailureCount == 2)
                    return "24680"
                }, expecting: .invalidPin),
        ]
        let (result, responder) = try await authenticate(harness, profile, steps)
        try responder.verify()
        #expect((try? result.get()) != nil)
    }

    @Test("logging in another user logs the first one out and revokes its tokens; the replaced session is revoked too")
    func otherUserIsLoggedOutFirst() async throws {
        let harness = try await Harness.make()
        let alice = try await Self.registered(harness, as: "alice")
        let bob = try await Self.registered(harness, as: "bob")
        #expect(harness.client.authenticatedUserProfile == bob)
        let tokensBefore = harness.server.activeAccessTokenCount
        let (result, _) = try await authenticate(harness, alice, [.pin(.respond("24680"))])
        #expect(try result.get().profile == alice)
        #expect(harness.client.authenticatedUserProfile == alice)
        // Bob's session and alice's replaced one are revoked; alice's new one is the only one left.
        #expect(tokensBefore == 2)
        #expect(harness.server.activeAccessTokenCount == 1)
    }

    @Test("the delegate API reports start, PIN challenges and exactly one result")
    func delegateAPI() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.registered(harness)
        let responder = ScriptedResponder([.pin(.respond("13579")), .pin(.respond("24680"), expecting: .invalidPin)])
        harness.client.authenticateUser(profile, delegate: responder)
        guard case .authenticated(let result) = await responder.outcome() else { Issue.record("\(responder.events)"); return }
        try responder.verify()
        #expect(result.authenticator == .pin)
        #expect(responder.events.first == "didStartAuthenticating")
    }

    @Test("cancel and drop at the PIN challenge fail with actionCancelled and keep the profile")
    func cancelAndDrop() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.registered(harness)
        for step in [ScriptStep.pin(.cancel), .pin(.drop)] {
            let (result, responder) = try await authenticate(harness, profile, [step])
            try responder.verify()
            #expect(result.failure?.code == .actionCancelled)
            #expect(harness.client.userProfiles == [profile])
        }
    }

    @Test("a profile the server forgot is removed at login with userDeregistered")
    func serverForgotProfile() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.registered(harness)
        harness.server.removeProfile(profile)
        let (result, _) = try await authenticate(harness, profile, [])
        #expect(result.failure?.code == .userDeregistered)
        #expect(harness.client.userProfiles.isEmpty)
    }

    @Test("asking for biometrics that are not registered fails with authenticatorNotRegistered")
    func biometricNotRegistered() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.registered(harness)
        let (result, _) = try await authenticate(harness, profile, authenticator: .biometric, [])
        #expect(result.failure?.code == .authenticatorNotRegistered)
    }
}
