import Statechart

/// The I/O steps of a PIN change (``ChangePinFlow``): the PIN loop's (``PinSteps``), the new
/// PIN's enrolment, storing the session. A view of the client's ``FlowDependencies``: one word,
/// no allocation.
struct ChangePinSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    var service: any IdentityService { dependencies.service }
    var sessions: ProfileSessions { dependencies.sessions }
    /// The PIN loop's steps.
    var pinLoop: PinSteps { PinSteps(dependencies: dependencies) }
    /// The session steps.
    var session: SessionSteps { SessionSteps(dependencies: dependencies) }

    /// Enrols a new PIN, authorized by the current PIN key (a v1 key authorizes the upgrade).
    /// - Returns: The new PIN key, for the session.
    nonisolated(nonsending) func enrolNewPin(
        _ pin: Redacted<String>, for profile: UserProfile, currentKey: ProvenPinKey,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) -> ProvenPinKey {
        if dependencies.keepsAuthenticatorsOnDevice { return try rewrapPinOnDevice(pin, for: profile, currentKey: currentKey) }
        let stored = try sessions.storedProfile(profile)
        let deviceSecret: Redacted<[UInt8]>
        if let existing = stored.deviceSecret { deviceSecret = existing } else { deviceSecret = try PinProof.newDeviceSecret() }
        let key = try await pinLoop.enrol(pin, for: profile, deviceSecret: deviceSecret, accessToken: accessToken) {
            nonce, publicKey throws(IdentityFlowError) in
            try currentKey.authorization(for: .change, profile: profile, nonce: nonce, publicKey: publicKey)
        }
        if stored.deviceSecret == nil { try pinLoop.finishUpgrade(of: profile, deviceSecret: deviceSecret) }
        return .v2(key.privateKey)
    }
}
