import Statechart

/// Where a client's authenticators (the PIN and biometrics) live, as the flows' steps see it: each
/// PIN and biometric step whose work depends on the placement (``AuthenticatorPlacement``). The
/// steps types call it without asking which home it is.
///
/// - ``ServerAuthenticators`` (`ServerAuthenticators/`): IdentityFlow's extension API with PIN
///   proof v2 (`docs/pin-proof.md`); the server checks the PIN and counts.
/// - ``DeviceAuthenticators`` (`DeviceAuthenticators/`): the profile's vault; the device checks
///   the PIN and counts (`docs/device-authenticators.md`).
///
/// ``FlowDependencies/authenticatorHome`` picks the client's home from
/// ``ClientConfiguration/authenticators``; ``FlowDependencies/authenticatorHome(of:)`` the home a
/// stored profile was registered in (a profile outlives a change of configuration). Both are
/// one-word views over the client's ``FlowDependencies``: nothing is stored, nothing allocated.
protocol AuthenticatorHome: Sendable {
    // MARK: Registration

    /// Refuses, before the user signs in, a registration whose PIN would have nowhere to go.
    /// - Parameter context: The registration.
    /// - Throws: ``ErrorCode/featureNotSupported`` when this home cannot keep the PIN with this provider.
    nonisolated(nonsending) func requirePinHome(for context: RegistrationMachine.Context) async throws(IdentityFlowError)

    /// The identity providers a registration that names none offers when the server has no list
    /// of its own (``ErrorCode/featureNotSupported``), or `nil` to fail with that error.
    var providersWithoutServerList: [IdentityProvider]? { get }

    /// Enrols a registration's first PIN. `keyDerived` receives the PIN key before anything is
    /// sent, so that a flow cancelled while the enrolment is on its way can still discard it.
    /// - Parameters:
    ///   - pin: The new PIN.
    ///   - profile: The new profile.
    ///   - deviceSecret: The profile's device secret.
    ///   - tokens: The registration's tokens.
    ///   - proofKey: The registration's DPoP key (not stored yet), which proves the tokens'
    ///     use at the server when they are bound to it.
    ///   - keyDerived: Receives the session's PIN key.
    /// - Returns: The vault the profile keeps, or `nil` when nothing is kept on the device.
    /// - Throws: The enrolment's errors.
    nonisolated(nonsending) func enrolFirstPin(
        _ pin: Redacted<String>, for profile: UserProfile, deviceSecret: Redacted<[UInt8]>, tokens: TokenSet, proofKey: DPoPKey?,
        keyDerived: (ProvenPinKey) -> Void
    ) async throws(IdentityFlowError) -> DeviceVault?

    /// Best effort: removes what a failed registration enrolled with `pinKey` (logged, never thrown).
    /// - Parameters:
    ///   - profile: The half-made profile.
    ///   - pinKey: The key its first PIN derived, `.none` if none.
    ///   - flow: The registration, for the log.
    nonisolated(nonsending) func discardFirstPin(of profile: UserProfile, pinKey: ProvenPinKey, flow: FlowID) async

    // MARK: The PIN loop

    /// The counters of a profile's wrong PINs.
    /// - Parameter profile: The profile.
    /// - Returns: The counters, or `nil` when the profile is no longer known (deregistered).
    /// - Throws: The counters' errors (a damaged vault, the network).
    nonisolated(nonsending) func pinCounters(for profile: UserProfile) async throws(IdentityFlowError) -> PinCounters?

    /// One PIN attempt.
    /// - Parameters:
    ///   - pin: The PIN entered.
    ///   - profile: The profile.
    /// - Returns: The verdict, with the tokens and the session's key when accepted.
    /// - Throws: The check's errors.
    nonisolated(nonsending) func checkPin(_ pin: Redacted<String>, for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck

    /// Whether each login gets a token set of its own: then the set it replaces, and a set a flow
    /// drops, are revoked. In device mode a login unseals the profile's one set, which stays live.
    var issuesTokensPerLogin: Bool { get }

    // MARK: Biometrics

    /// A biometric login attempt.
    /// - Parameter profile: The profile.
    /// - Returns: The verdict.
    /// - Throws: ``ErrorCode/authenticatorNotRegistered``; the check's errors.
    nonisolated(nonsending) func checkBiometricKey(for profile: UserProfile) async throws(IdentityFlowError) -> PinCheck

    /// Creates and registers a biometric key under the proof of `pinKey`.
    /// - Parameters:
    ///   - profile: The profile.
    ///   - pinKey: The key the PIN proved.
    ///   - tokens: The session's tokens (their access token authorizes the call; DPoP-proven when bound).
    ///   - flow: The flow, for the log.
    /// - Throws: The registration's errors.
    nonisolated(nonsending) func registerBiometricKey(for profile: UserProfile, pinKey: ProvenPinKey, tokens: TokenSet, flow: FlowID)
        async throws(IdentityFlowError)

    /// Revokes a biometric key held elsewhere than the device, best effort.
    /// - Parameters:
    ///   - profile: The profile.
    ///   - pinKey: The key the PIN proved.
    ///   - flow: The flow, for the log.
    nonisolated(nonsending) func revokeBiometricKey(of profile: UserProfile, pinKey: ProvenPinKey, flow: FlowID?) async

    /// Removes biometrics from `stored` once its key item is deleted from the device.
    /// - Parameters:
    ///   - stored: The profile as stored before the removal.
    ///   - pinKey: The session's PIN key (`.none` without a PIN session).
    /// - Throws: The storage's errors.
    func removeBiometricKey(of stored: StoredProfile, pinKey: ProvenPinKey) throws(IdentityFlowError)

    // MARK: PIN change

    /// Enrols a new PIN, authorized by the current PIN key.
    /// - Parameters:
    ///   - pin: The new PIN.
    ///   - profile: The profile.
    ///   - currentKey: The key the current PIN proved.
    ///   - tokens: The session's tokens (their access token authorizes the call; DPoP-proven when bound).
    /// - Returns: The new PIN key, for the session.
    /// - Throws: The enrolment's errors.
    nonisolated(nonsending) func enrolNewPin(
        _ pin: Redacted<String>, for profile: UserProfile, currentKey: ProvenPinKey, tokens: TokenSet
    ) async throws(IdentityFlowError) -> ProvenPinKey

    // MARK: Deregistration

    /// What a deregistration revokes before the profile leaves this device.
    /// - Parameters:
    ///   - stored: The profile.
    ///   - pinKey: The session's PIN key.
    ///   - flow: The flow, for the log.
    /// - Throws: ``ErrorCode/pinProofRequired`` without a key that can do it; the service's errors.
    nonisolated(nonsending) func deregister(_ stored: StoredProfile, pinKey: ProvenPinKey, flow: FlowID) async throws(IdentityFlowError)

    // MARK: Server-only features

    /// Refuses what needs authenticators on the server (mobile and implicit authentication).
    /// - Throws: ``ErrorCode/serverAuthenticatorsRequired`` in a home other than the server.
    func requireServerAuthenticators() throws(IdentityFlowError)

    // MARK: The session's tokens

    /// Prepares a profile's live tokens to be written (on the device, seals them under the
    /// session's key; a session without the key leaves them as they are).
    /// - Parameters:
    ///   - stored: The profile about to be written.
    ///   - key: The session's key.
    /// - Throws: The sealing's errors.
    func sealTokens(of stored: inout StoredProfile, key: ProvenPinKey) throws(IdentityFlowError)

    /// Forgets the live tokens of a profile whose session ended, where they can be opened again
    /// (on the device they stay sealed in the vault).
    /// - Parameter stored: The profile kept in memory.
    func forgetLiveTokens(of stored: inout StoredProfile)

    /// Whether a logout revokes the session's tokens at the provider.
    var revokesTokensAtLogout: Bool { get }

    /// What a stored profile keeps when its session ends (``SessionEnd``), run under the cache's
    /// lock as the session ends; the caller writes the profile when this returns `true`.
    /// - Parameters:
    ///   - stored: The profile as it was in the session; changed to what it keeps.
    ///   - key: The session's key.
    ///   - end: Whether the profile's sign-in at the provider outlives the session.
    /// - Returns: Whether `stored` changed and must be written.
    /// - Throws: The sealing's errors.
    func closeSession(of stored: inout StoredProfile, key: ProvenPinKey, _ end: SessionEnd) throws(IdentityFlowError) -> Bool

    /// Keeps a refresh answer that came back after its session ended, when the profile still
    /// holds the refresh token it replaces (on the device: sealed in the vault for the next
    /// login); run under the cache's lock.
    /// - Parameters:
    ///   - fresh: The refresh's answer.
    ///   - spent: The refresh token it replaces.
    ///   - stored: The profile; changed to what it keeps.
    ///   - key: The ended session's key.
    /// - Returns: Whether `stored` keeps `fresh` (to be written); `false` means nobody will use
    ///   `fresh`, and the caller revokes it.
    /// - Throws: The sealing's errors.
    func keepLateRefresh(_ fresh: TokenSet, replacing spent: Redacted<String>, in stored: inout StoredProfile, key: ProvenPinKey)
        throws(IdentityFlowError) -> Bool

    /// Before a login writes its session, under the cache's lock: takes the sign-in `latest`
    /// holds when it is newer than the one the login opened (a refresh of an ended session
    /// landed in between); nothing where each login has a sign-in of its own.
    /// - Parameters:
    ///   - latest: The profile as the cache holds it now.
    ///   - stored: The profile the login is about to write.
    ///   - key: The login's key.
    func adoptNewerSignIn(from latest: StoredProfile, into stored: inout StoredProfile, key: ProvenPinKey)

    // MARK: The launch policy

    /// Keeps a new session for the next launch (``LaunchPolicy/resumeLastUser``): prepares what
    /// `stored` keeps with it and returns the key for the resume record, which the caller writes.
    /// - Parameters:
    ///   - stored: The profile about to be stored with its session.
    ///   - pinKey: The key that proved the session.
    /// - Returns: The resume key, or `nil` when this session is not to be resumed.
    /// - Throws: The errors of the key's generation.
    func keepForNextLaunch(_ stored: inout StoredProfile, pinKey: ProvenPinKey) throws(IdentityFlowError) -> Redacted<[UInt8]>?
}

extension FlowDependencies {
    /// The client's authenticator home, from ``ClientConfiguration/authenticators``: a one-word
    /// view, no allocation (the existential holds the view inline).
    var authenticatorHome: any AuthenticatorHome {
        if configuration.authenticators.isOnDevice { DeviceAuthenticators(dependencies: self) } else { ServerAuthenticators(dependencies: self) }
    }

    /// The home `stored` was registered in: the device when it keeps a vault, the server otherwise.
    /// - Parameter stored: A stored profile.
    /// - Returns: A one-word view.
    func authenticatorHome(of stored: StoredProfile) -> any AuthenticatorHome {
        if stored.vault != nil { DeviceAuthenticators(dependencies: self) } else { ServerAuthenticators(dependencies: self) }
    }
}
