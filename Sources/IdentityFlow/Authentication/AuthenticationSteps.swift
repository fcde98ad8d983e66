import Statechart

/// The I/O steps of a login (``AuthenticationFlow``): the PIN loop's (``PinSteps``), the biometric
/// check, storing the session, logging the previous user out. A view of the client's
/// ``FlowDependencies``: one word, no allocation.
struct AuthenticationSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    var service: any IdentityService { dependencies.service }
    var sessions: ProfileSessions { dependencies.sessions }
    /// The PIN loop's steps.
    var pinLoop: PinSteps { PinSteps(dependencies: dependencies) }
    /// The session steps.
    var session: SessionSteps { SessionSteps(dependencies: dependencies) }

    /// A biometric attempt: the biometric key (the store may ask for the user's presence) signs
    /// a fresh nonce. A v1 profile's biometric login uses its stored v1 key until it upgrades.
    nonisolated(nonsending) func checkBiometricKey(for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        if dependencies.keepsAuthenticatorsOnDevice { return try await checkBiometricKeyOnDevice(for: profile) }
        let stored = try sessions.storedProfile(profile)
        if let legacyKey = stored.biometricKey, stored.deviceSecret == nil {
            guard let challenge = try await pinLoop.challenge(for: profile, speaking: 1) else { return .deregistered }
            let proof = LegacyPinProof.proof(key: legacyKey, profile: profile, nonce: challenge.nonce)
            return PinCheck(try await service.verifyPinProof(proof, for: profile, nonce: challenge.nonce), key: .none)
        }
        guard stored.hasBiometricKey, let scalar = try sessions.store.biometricKey(for: profile), let key = DeviceKey(privateKey: scalar) else {
            throw IdentityFlowError(.authenticatorNotRegistered, "Biometrics are not registered for this profile.")
        }
        guard let challenge = try await pinLoop.challenge(for: profile, speaking: 2, derivesPinKey: false) else { return .deregistered }
        let proof = key.sign(PinProof.message(PinProof.Purpose.biometricLogin.rawValue, profile: profile, nonce: challenge.nonce))
        return PinCheck(try await service.verifyBiometricProof(Redacted(proof), for: profile, nonce: challenge.nonce), key: .none)
    }
}
