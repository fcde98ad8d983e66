import Foundation
import Statechart

/// The I/O steps of handling a mobile authentication request (``MobileAuthFlow``): looking it up,
/// answering it, stepping an acceptance up with the PIN or biometrics, each signed by the
/// profile's device keys over the server's challenges (``ServerAuthenticators``,
/// `docs/mobile-auth.md`); the PIN loop's counters come from ``PinSteps``.
/// A view of the client's ``FlowDependencies``: one word, no allocation.
struct MobileAuthSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    var service: any IdentityService { dependencies.service }
    var sessions: ProfileSessions { dependencies.sessions }
    /// The PIN loop's steps.
    var pinLoop: PinSteps { PinSteps(dependencies: dependencies) }
    /// The server's authenticators, whose challenges the requests are signed over.
    var server: ServerAuthenticators { ServerAuthenticators(dependencies: dependencies) }

    /// The wall-clock time, for a request's expiry.
    func now() -> Date { dependencies.configuration.now() }

    /// Looks one request up; it must be for this profile.
    nonisolated(nonsending) func fetchMobileAuthRequest(_ lookup: MobileAuthLookup, for profile: UserProfile) async throws(IdentityFlowError)
        -> MobileAuthRequest
    {
        let found = try await lookUpMobileAuthRequests(lookup, for: profile)
        guard found.count == 1, let request = found.first, request.userProfile == profile else {
            throw IdentityFlowError(.mobileAuthRequestNotFound, "The server has no open request \(lookup) for this profile.")
        }
        return request
    }

    /// Sends a denial or a plain acceptance.
    nonisolated(nonsending) func answerMobileAuthRequest(_ request: MobileAuthRequest, accepted: Bool) async throws(IdentityFlowError) -> MobileAuthVerdict {
        try await service.answerMobileAuthRequest(try signedAnswer(request, accepted: accepted, stepUp: nil))
    }

    /// Sends an acceptance stepped up with the PIN key (derived from the PIN on a fresh challenge).
    nonisolated(nonsending) func acceptMobileAuthRequest(_ request: MobileAuthRequest, pin: Redacted<String>) async throws(IdentityFlowError)
        -> MobileAuthVerdict
    {
        let profile = request.userProfile
        let stored = try enrolledProfile(profile)
        guard let deviceSecret = stored.deviceSecret else { throw Self.notEnrolled(profile) }
        guard let challenge = try await server.challenge(for: profile, speaking: 2) else { return .deregistered }
        let key = try PinProof.pinKey(pin: pin, salt: challenge.salt, iterations: challenge.iterations, deviceSecret: deviceSecret, profile: profile)
        let proof = key.sign(DeviceKeyProof.message(.mobileAuthPin, profile: profile, nonce: challenge.nonce, subject: Array(request.id.utf8)))
        let stepUp = (Authenticator.pin, PinKeyAuthorization(nonce: challenge.nonce, proof: proof))
        return try await service.answerMobileAuthRequest(try signedAnswer(request, accepted: true, stepUp: stepUp))
    }

    /// Sends an acceptance stepped up with the biometric key (the store may ask for the user's presence).
    nonisolated(nonsending) func acceptMobileAuthRequestWithBiometrics(_ request: MobileAuthRequest) async throws(IdentityFlowError) -> MobileAuthVerdict {
        let profile = request.userProfile
        guard let scalar = try sessions.store.biometricKey(for: profile), let key = DeviceKey(privateKey: scalar) else {
            throw IdentityFlowError(.authenticatorNotRegistered, "Biometrics are not registered for this profile.")
        }
        guard let challenge = try await server.challenge(for: profile, speaking: 2, derivesPinKey: false) else { return .deregistered }
        let proof = key.sign(DeviceKeyProof.message(.mobileAuthBiometric, profile: profile, nonce: challenge.nonce, subject: Array(request.id.utf8)))
        let stepUp = (Authenticator.biometric, PinKeyAuthorization(nonce: challenge.nonce, proof: proof))
        return try await service.answerMobileAuthRequest(try signedAnswer(request, accepted: true, stepUp: stepUp))
    }

    // MARK: - Helpers

    /// A lookup signed by the mobile authentication key over a fresh nonce.
    nonisolated(nonsending) func lookUpMobileAuthRequests(_ lookup: MobileAuthLookup, for profile: UserProfile) async throws(IdentityFlowError)
        -> [MobileAuthRequest]
    {
        let key = try sessions.deviceKey(.mobileAuthentication, of: try enrolledProfile(profile))
        guard let challenge = try await server.challenge(for: profile, speaking: 2, derivesPinKey: false) else {
            throw PinEntry.deregisteredError(profile)
        }
        let proof = key.sign(DeviceKeyProof.message(.mobileAuthLookup, profile: profile, nonce: challenge.nonce, subject: lookup.signedSubject))
        return try await service.mobileAuthRequests(lookup, for: profile, authorization: PinKeyAuthorization(nonce: challenge.nonce, proof: proof))
    }

    private func signedAnswer(_ request: MobileAuthRequest, accepted: Bool, stepUp: (Authenticator, PinKeyAuthorization)?) throws(IdentityFlowError)
        -> MobileAuthAnswer
    {
        let profile = request.userProfile
        let key = try sessions.deviceKey(.mobileAuthentication, of: try enrolledProfile(profile))
        let subject = DeviceKeyProof.answerSubject(requestId: request.id, accepted: accepted)
        let proof = key.sign(DeviceKeyProof.message(.mobileAuthAnswer, profile: profile, nonce: request.nonce, subject: subject))
        return MobileAuthAnswer(
            requestId: request.id, profile: profile, accepted: accepted, proof: Redacted(proof),
            stepUp: stepUp?.1, stepUpAuthenticator: stepUp?.0)
    }

    /// The stored profile, enrolled for mobile authentication on this device; a stateless one is
    /// ``ErrorCode/statelessUser``, as for every device-key feature.
    func enrolledProfile(_ profile: UserProfile) throws(IdentityFlowError) -> StoredProfile {
        try dependencies.authenticatorHome.requireServerAuthenticators()
        let stored = sessions.withState { $0.profiles[profile] }
        if profile.isStateless || stored?.profile.isStateless == true {
            throw IdentityFlowError(.statelessUser, "Mobile authentication needs a profile stored on this device; this one is stateless.")
        }
        guard let stored, stored.mobileAuthEnrolled else { throw Self.notEnrolled(profile) }
        return stored
    }

    static func notEnrolled(_ profile: UserProfile) -> IdentityFlowError {
        var error = IdentityFlowError(.mobileAuthNotEnrolled, "The profile \(profile.profileId) is not enrolled for mobile authentication on this device.")
        error.userProfile = profile
        return error
    }
}

extension ProfileSessions {
    /// The profile's device key for `key`; a profile without a device secret (PIN proof v1, not
    /// yet upgraded) has none until its next PIN login.
    func deviceKey(_ key: DeviceKeyProof.Key, of stored: StoredProfile) throws(IdentityFlowError) -> DeviceKey {
        // Both the client's home and the one the profile was registered in must be the server.
        try authenticatorHome.requireServerAuthenticators()
        try authenticatorHome(of: stored).requireServerAuthenticators()
        guard let deviceSecret = stored.deviceSecret else {
            throw IdentityFlowError(.pinParametersRefused, "The profile still uses PIN proof v1; log in with the PIN once to upgrade it.")
        }
        return DeviceKeyProof.key(key, deviceSecret: deviceSecret, profile: stored.profile)
    }
}
