import Foundation
import Statechart

/// The authenticators of a server-mode client (``AuthenticatorPlacement/server``): IdentityFlow's
/// extension API with PIN proof v2 (`docs/pin-proof.md`). The server holds the PIN key's public
/// half, checks each proof over a fresh nonce and counts wrong PINs; the biometric, mobile and
/// implicit authentication keys are registered with it under the PIN key's proof. The proofs
/// themselves are in `ServerAuthenticators+PinProof.swift`. A view of the client's
/// ``FlowDependencies``: one word, no allocation.
struct ServerAuthenticators: AuthenticatorHome {
    /// What the home is built from.
    let dependencies: FlowDependencies

    var service: any IdentityService { dependencies.service }
    var sessions: ProfileSessions { dependencies.sessions }
    /// The session steps, for revoking tokens nobody uses.
    var session: SessionSteps { SessionSteps(dependencies: dependencies) }

    // MARK: - Registration

    /// Refuses, before the user signs in, a registration whose PIN would have nowhere to go: a
    /// provider without IdentityFlow's extension API (a stateless registration needs no PIN; a
    /// custom identity provider is the extension itself).
    /// - Throws: ``ErrorCode/featureNotSupported``, saying to configure device mode.
    nonisolated(nonsending) func requirePinHome(for context: RegistrationMachine.Context) async throws(IdentityFlowError) {
        guard !context.stateless, let http = service as? HTTPIdentityService else { return }
        guard try await http.servesExtensionEndpoints(logger: dependencies.logger) else {
            throw IdentityFlowError(
                .featureNotSupported,
                "The provider has no IdentityFlow extension API, so a PIN cannot be enrolled on the server: set ClientConfiguration.authenticators = .device() to keep authenticators on the device, or register stateless."
            )
        }
    }

    /// None: the server's list is the only one.
    var providersWithoutServerList: [IdentityProvider]? { nil }

    /// Enrols the first PIN key with the server, then the implicit key it offers; with
    /// DPoP-bound tokens both calls are proven with the registration's key.
    /// - Returns: `nil`: nothing is kept on the device but the device secret.
    nonisolated(nonsending) func enrolFirstPin(
        _ pin: Redacted<String>, for profile: UserProfile, deviceSecret: Redacted<[UInt8]>, tokens: TokenSet, proofKey: DPoPKey?,
        keyDerived: (ProvenPinKey) -> Void
    ) async throws(IdentityFlowError) -> DeviceVault? {
        let proofKey = try Self.accessProofKey(for: tokens, key: proofKey)
        let iterations = dependencies.configuration.pinKeyIterations
        let (salt, key) = try PinProof.newPinKey(pin: pin, iterations: iterations, deviceSecret: deviceSecret, profile: profile)
        let pinKey = ProvenPinKey.v2(key.privateKey)
        keyDerived(pinKey)
        _ = try await service.enrolPin(
            PinEnrolment(profile: profile, salt: salt, iterations: iterations, publicKey: key.publicKey), accessToken: tokens.accessToken,
            proofKey: proofKey)
        await enrolImplicitKeyIfOffered(of: profile, deviceSecret: deviceSecret, pinKey: pinKey, accessToken: tokens.accessToken, proofKey: proofKey)
        return nil
    }

    /// Deregisters a half-made profile on the server with the proof of the PIN key derived for it
    /// (a server that never enrolled it has nothing to remove), best effort.
    nonisolated(nonsending) func discardFirstPin(of profile: UserProfile, pinKey: ProvenPinKey, flow: FlowID) async {
        guard pinKey.provesPin else { return }
        do { try await service.deregister(profile, authorization: try await pinKeyAuthorization(.deregistration, for: profile, key: pinKey)) } catch {
            if error.code != .userDeregistered {
                dependencies.logger.log(.warning, "Could not deregister the unfinished profile on the server: \(error)", flow: flow)
            }
        }
    }

    // MARK: - The PIN loop

    /// The server's counters for a profile; a profile the server no longer knows comes back as `nil`.
    nonisolated(nonsending) func pinCounters(for profile: UserProfile) async throws(IdentityFlowError) -> PinCounters? {
        do {
            let challenge = try await service.pinLoginChallenge(for: profile)
            return PinCounters(maxFailureCount: challenge.maxFailureCount, previousFailureCount: challenge.failureCount)
        } catch  where error.code == .userDeregistered {
            return nil
        }
    }

    /// One PIN attempt: a fresh challenge, bounded before anything is derived; the PIN key; the
    /// server's verdict. A v1 profile logs in with its v1 proof and is upgraded to v2 at once.
    nonisolated(nonsending) func checkPin(_ pin: Redacted<String>, for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        let stored = try sessions.storedProfile(profile)
        guard let challenge = try await self.challenge(for: profile, speaking: stored.deviceSecret == nil ? 1 : 2) else { return .deregistered }
        guard let deviceSecret = stored.deviceSecret else {
            return try await checkLegacyPin(pin, for: profile, challenge: challenge, proofKey: sessions.dpopKey(of: stored))
        }
        let key = try PinProof.pinKey(pin: pin, salt: challenge.salt, iterations: challenge.iterations, deviceSecret: deviceSecret, profile: profile)
        let proof = key.sign(PinProof.message(PinProof.Purpose.login.rawValue, profile: profile, nonce: challenge.nonce))
        // The profile's DPoP key (when it has one) binds the login's tokens from the start.
        let verdict = try await service.verifyPinProof(Redacted(proof), for: profile, nonce: challenge.nonce, proofKey: sessions.dpopKey(of: stored))
        return PinCheck(verdict, key: .v2(key.privateKey))
    }

    /// Yes: each login opens a session of its own at the server.
    var issuesTokensPerLogin: Bool { true }

    // MARK: - Biometrics

    /// A biometric attempt: the biometric key (the store may ask for the user's presence) signs
    /// a fresh nonce. A v1 profile's biometric login uses its stored v1 key until it upgrades.
    nonisolated(nonsending) func checkBiometricKey(for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck {
        let stored = try sessions.storedProfile(profile)
        if let legacyKey = stored.biometricKey, stored.deviceSecret == nil {
            guard let challenge = try await self.challenge(for: profile, speaking: 1) else { return .deregistered }
            let proof = LegacyPinProof.proof(key: legacyKey, profile: profile, nonce: challenge.nonce)
            // Bound like a v2 login: the v1 proof goes to pin/verify with a DPoP proof by the profile's key.
            let verdict = try await service.verifyPinProof(proof, for: profile, nonce: challenge.nonce, proofKey: sessions.dpopKey(of: stored))
            return PinCheck(verdict, key: .none)
        }
        guard stored.hasBiometricKey, let scalar = try sessions.store.biometricKey(for: profile), let key = DeviceKey(privateKey: scalar) else {
            throw IdentityFlowError(.authenticatorNotRegistered, "Biometrics are not registered for this profile.")
        }
        guard let challenge = try await self.challenge(for: profile, speaking: 2, derivesPinKey: false) else { return .deregistered }
        let proof = key.sign(PinProof.message(PinProof.Purpose.biometricLogin.rawValue, profile: profile, nonce: challenge.nonce))
        let verdict = try await service.verifyBiometricProof(Redacted(proof), for: profile, nonce: challenge.nonce, proofKey: sessions.dpopKey(of: stored))
        return PinCheck(verdict, key: .none)
    }

    /// Creates the biometric key, registers it with the server under the PIN key's proof, and
    /// stores it as an item of its own that needs the user's presence. A failure to store it
    /// revokes it on the server.
    nonisolated(nonsending) func registerBiometricKey(for profile: UserProfile, pinKey: ProvenPinKey, tokens: TokenSet, flow: FlowID)
        async throws(IdentityFlowError)
    {
        let proofKey = try accessProofKey(for: tokens, of: profile)
        let biometric = try DeviceKey.random()
        let authorization = try await pinKeyAuthorization(.biometricEnrolment, for: profile, key: pinKey, publicKey: biometric.publicKey)
        try await service.enrolBiometricKey(
            biometric.publicKey, for: profile, authorization: authorization, accessToken: tokens.accessToken, proofKey: proofKey)
        do throws(IdentityFlowError) {
            try sessions.store.saveBiometricKey(biometric.privateKey, for: profile)
            try sessions.updateStoredProfile(profile) { stored in
                stored.hasBiometricKey = true
                stored.biometricRevocationPending = false
            }
        } catch {
            try? sessions.store.deleteBiometricKey(for: profile)
            await revokeBiometricKey(of: profile, pinKey: pinKey, flow: flow)
            throw error
        }
    }

    /// Revokes a biometric key on the server with the PIN key's proof, best effort: a failure is
    /// logged and the revocation stays pending until the next PIN login.
    nonisolated(nonsending) func revokeBiometricKey(of profile: UserProfile, pinKey: ProvenPinKey, flow: FlowID?) async {
        do throws(IdentityFlowError) {
            try await service.revokeBiometricKey(for: profile, authorization: try await pinKeyAuthorization(.biometricRevocation, for: profile, key: pinKey))
            try? sessions.updateStoredProfile(profile) { $0.biometricRevocationPending = false }
        } catch {
            try? sessions.updateStoredProfile(profile) { $0.biometricRevocationPending = true }
            dependencies.configuration.logger.log(
                .warning, "Could not revoke the biometric key on the server (tried again at the next PIN login): \(error)", flow: flow)
        }
    }

    /// Forgets the biometric key and asks the server to revoke it with the PIN key's proof (in the
    /// background, best effort); without the PIN key, the next PIN login sends the revocation.
    func removeBiometricKey(of stored: StoredProfile, pinKey: ProvenPinKey) throws(IdentityFlowError) {
        try sessions.updateStoredProfile(stored.profile) { stored in
            // Only a key the server holds needs revoking there; without the PIN key the next PIN login does it.
            stored.biometricRevocationPending = stored.hasBiometricKey && !pinKey.provesPin
            stored.hasBiometricKey = false
            stored.biometricKey = nil
        }
        guard stored.hasBiometricKey, pinKey.provesPin else { return }
        // The client's home: a client configured for the device revokes nothing on a server.
        let home = dependencies.authenticatorHome, profile = stored.profile
        Task { await home.revokeBiometricKey(of: profile, pinKey: pinKey, flow: nil) }
    }

    // MARK: - PIN change

    /// Enrols a new PIN, authorized by the current PIN key (a v1 key authorizes the upgrade).
    /// - Returns: The new PIN key, for the session.
    nonisolated(nonsending) func enrolNewPin(
        _ pin: Redacted<String>, for profile: UserProfile, currentKey: ProvenPinKey, tokens: TokenSet
    ) async throws(IdentityFlowError) -> ProvenPinKey {
        let stored = try sessions.storedProfile(profile)
        let proofKey = try Self.accessProofKey(for: tokens, key: sessions.dpopKey(of: stored))
        let deviceSecret: Redacted<[UInt8]>
        if let existing = stored.deviceSecret { deviceSecret = existing } else { deviceSecret = try PinProof.newDeviceSecret() }
        let key = try await enrol(pin, for: profile, deviceSecret: deviceSecret, accessToken: tokens.accessToken, proofKey: proofKey) {
            nonce, publicKey throws(IdentityFlowError) in
            try currentKey.authorization(for: .change, profile: profile, nonce: nonce, publicKey: publicKey)
        }
        if stored.deviceSecret == nil { try finishUpgrade(of: profile, deviceSecret: deviceSecret) }
        return .v2(key.privateKey)
    }

    // MARK: - Deregistration

    /// Removes `stored` on the server with the PIN key's proof (refused before anything is sent
    /// without a key that proves the PIN). When the server was not told, the profile's tokens
    /// are revoked at the provider instead (best effort), so that none stays live.
    nonisolated(nonsending) func deregister(_ stored: StoredProfile, pinKey: ProvenPinKey, flow: FlowID) async throws(IdentityFlowError) {
        do throws(IdentityFlowError) {
            try await service.deregister(stored.profile, authorization: try await pinKeyAuthorization(.deregistration, for: stored.profile, key: pinKey))
        } catch {
            await session.revokeUnused(stored.tokens, proofKey: sessions.dpopKey(for: stored.profile), flow: flow)
            throw error
        }
    }

    // MARK: - Server-only features

    /// Nothing to refuse: the authenticators are on the server.
    func requireServerAuthenticators() throws(IdentityFlowError) {}

    // MARK: - The session's tokens

    /// Nothing: the tokens are stored as they are.
    func sealTokens(of stored: inout StoredProfile, key: ProvenPinKey) throws(IdentityFlowError) {}

    /// Nothing: a server-mode profile keeps its tokens (revoked by the logout).
    func forgetLiveTokens(of stored: inout StoredProfile) {}

    /// Yes: the next login opens a session of its own.
    var revokesTokensAtLogout: Bool { true }

    /// Nothing to keep: the next login opens a session of its own.
    func closeSession(of stored: inout StoredProfile, key: ProvenPinKey, _ end: SessionEnd) throws(IdentityFlowError) -> Bool { false }

    /// No: the ended session's tokens were its own, and the next login gets new ones.
    func keepLateRefresh(_ fresh: TokenSet, replacing spent: Redacted<String>, in stored: inout StoredProfile, key: ProvenPinKey)
        throws(IdentityFlowError) -> Bool
    { false }

    /// Nothing: each login has a sign-in of its own.
    func adoptNewerSignIn(from latest: StoredProfile, into stored: inout StoredProfile, key: ProvenPinKey) {}

    // MARK: - The launch policy

    /// The resume record marks the session with a marker byte; its tokens are stored as they are.
    func keepForNextLaunch(_ stored: inout StoredProfile, pinKey: ProvenPinKey) throws(IdentityFlowError) -> Redacted<[UInt8]>? {
        Redacted([0])
    }
}
