import Foundation
import Statechart

/// The façade a host talks to: registers users and runs their flows, one at a time.
///
/// ```swift
/// let client = UserClient(configuration: configuration, server: try .openIDConnect(http), storage: storage)
/// try await client.start()
/// let result = try await client.registerUser(.provider(provider), responder: myResponder)
/// ```
///
/// - Important: One flow runs at a time. Starting another while one runs fails at once with
///   ``ErrorCode/actionAlreadyInProgress`` and leaves the running flow untouched. Every started
///   flow ends with exactly one terminal callback (or one result of the async call).
public final class UserClient: Sendable {
    /// How the client behaves.
    public var configuration: ClientConfiguration { dependencies.configuration }
    /// Every transition of every flow this client runs.
    package var transitionLog: TransitionLog { dependencies.transitionLog }
    /// What the client and its flows are built from: the configuration, the service, the profile
    /// store and the state under one lock. Flows get views of it (their steps), never the client.
    let dependencies: FlowDependencies
    let transport: any ResourceTransport
    let refresher = TokenRefresher()
    let sessionBroadcast = Broadcast<SessionEvent>()

    /// What the client itself keeps, under its dependencies' lock: whether it started, and the
    /// providers it fetched. The profiles and session are ``ProfileSessions``', the flow slot
    /// ``FlowEnvironment``'s.
    struct State: Sendable {
        var started = false
        var starting = false
        var identityProviders: [IdentityProvider]?
    }

    /// Creates a client. Call ``start()`` before anything else.
    /// - Parameters:
    ///   - configuration: How the client behaves.
    ///   - server: The server: ``IdentityServer/openIDConnect(_:)``, or in tests IdentityFlowTesting's
    ///     reference server.
    ///   - storage: Where profiles and tokens are kept.
    ///   - transport: Sends ``authenticatedRequest(_:)``s; by default a ``URLSessionTransport``
    ///     with the request timeout, session customization and pinned public keys of an OpenID
    ///     Connect `server` (not its headers), otherwise one with a 30 s timeout.
    public init(configuration: ClientConfiguration, server: IdentityServer, storage: any SecureStorage, transport: (any ResourceTransport)? = nil) {
        self.dependencies = FlowDependencies(configuration: configuration, transitionLog: TransitionLog(), service: server.service, storage: storage)
        self.transport =
            transport ?? (server.service as? HTTPIdentityService).map { URLSessionTransport(servingAPIsOf: $0.configuration) } ?? URLSessionTransport()
    }

    /// Creates a client over a server adapter of the integrator's own (or one of the package's).
    /// - Parameters:
    ///   - configuration: How the client behaves.
    ///   - service: The server adapter.
    ///   - storage: Where profiles and tokens are kept.
    ///   - transport: Sends ``authenticatedRequest(_:)``s; see ``init(configuration:server:storage:transport:)``.
    @_spi(Integrator) public convenience init(
        configuration: ClientConfiguration, service: any IdentityService, storage: any SecureStorage, transport: (any ResourceTransport)? = nil
    ) {
        self.init(configuration: configuration, server: IdentityServer(service), storage: storage, transport: transport)
    }

    /// Loads the stored profiles and reconciles them with the server: profiles it no longer
    /// knows are removed from the device and reported. A server-mode session that ended without a
    /// logout (the system ended the app) is revoked at the provider and dropped from the storage,
    /// unless this launch resumes it (``LaunchPolicy/resumeLastUser``). Every other call fails with
    /// ``ErrorCode/requestInvalid`` until this returns. Call it once per client: a second call
    /// fails with ``ErrorCode/actionAlreadyInProgress``, while the first runs or after it
    /// returned (a failed first call may be retried).
    ///
    /// Only the server's clear "unknown" removes a profile. When the server cannot be reached, or
    /// its answer is not a clear yes or no (an unreadable answer, a bare 404 from a proxy), every
    /// stored profile is kept, ``LaunchReport/reconciled`` is `false` and a warning is logged.
    /// - Returns: The profiles, those removed, and whether the server was asked.
    /// - Throws: ``ErrorCode/configurationInvalid`` for an unusable configuration,
    ///   ``ErrorCode/dataStorageNotAvailable`` when the storage cannot be read,
    ///   ``ErrorCode/actionAlreadyInProgress`` when `start()` ran or runs already.
    ///   ``ErrorCode/dataStorageLocked`` when the storage cannot even be listed while the device
    ///   is locked (nothing was removed; call again after the first unlock).
    ///   Unreadable stored profiles do not fail it: ``LaunchReport/unreadableStorageKeys`` lists
    ///   them, and ``LaunchReport/unavailableProfiles`` those the device's lock keeps closed.
    @discardableResult
    public func start() async throws(IdentityFlowError) -> LaunchReport {
        if let problem = configuration.problem { throw problem }
        let alreadyStarting = withClientState { state in
            defer { state.starting = true }
            return state.starting
        }
        if alreadyStarting { throw IdentityFlowError(.actionAlreadyInProgress, "start() was called before; it runs only once.") }
        var kept: [StoredProfile] = []
        var removed: Set<UserProfile> = []
        var reconciled = true
        var unreadable: [String] = []
        var damaged: Set<UserProfile> = []
        var unavailable: Set<UserProfile> = []
        do {
            let loaded = try sessions.store.loadAll()
            unreadable = loaded.unreadableKeys
            unavailable = loaded.unavailableProfiles
            for stored in loaded.profiles {
                if stored.vault != nil {
                    // Device mode: the device is the only record; a vault that cannot be used stays, named.
                    if DeviceAuthenticators(dependencies: dependencies).isDamaged(stored) { damaged.insert(stored.profile) }
                    kept.append(stored)
                } else if reconciled, try await !profileKnownToServer(stored.profile, reconciled: &reconciled) {
                    try sessions.store.delete(stored.profile)
                    removed.insert(stored.profile)
                } else {
                    kept.append(stored)
                }
            }
        } catch {
            withClientState { $0.starting = false }
            throw error
        }
        kept = await serverAuthenticators.dropSessionsLeftBehind(kept)
        sessions.withState { $0.profiles = Dictionary(kept.map { ($0.profile, $0) }, uniquingKeysWith: { first, _ in first }) }
        withClientState { $0.started = true }
        for profile in removed { sessionBroadcast.publish(.profileRemovedAtLaunch(profile)) }
        return LaunchReport(
            profiles: Set(kept.map(\.profile)), removedProfiles: removed, reconciled: reconciled,
            resumableRegistrations: dependencies.checkpoints.load().map { [$0.summary] } ?? [],
            unreadableStorageKeys: unreadable, damagedProfiles: damaged, unavailableProfiles: unavailable, resumedProfile: await resumeLastSession())
    }

    /// Asks the server about a profile; any failure but a cancel keeps it and stops asking.
    private func profileKnownToServer(_ profile: UserProfile, reconciled: inout Bool) async throws(IdentityFlowError) -> Bool {
        do { return try await service.profileExists(profile) } catch {
            guard error.code != .actionCancelled else { throw error }
            configuration.logger.log(
                .warning,
                "The server could not tell at start whether it knows a stored profile (\(error.code.rawValue): \(error.message)); stored profiles are kept unchecked."
            )
            reconciled = false
            return true
        }
    }

    /// Session events from now on: profiles removed at launch, refreshes, logouts after a failed refresh.
    public func sessionEvents() -> AsyncStream<SessionEvent> { sessionBroadcast.stream() }

    // MARK: - Profiles

    /// The profiles registered on this device.
    public var userProfiles: Set<UserProfile> { Set(sessions.withState { $0.profiles.keys.filter { !$0.isStateless } }) }

    /// The profile logged in now, if any.
    public var authenticatedUserProfile: UserProfile? { sessions.withState { $0.authenticatedProfile } }

    /// The identity providers the server offers (fetched once, then cached).
    /// - Throws: ``ErrorCode/requestInvalid`` before ``start()``; the service's errors.
    public func identityProviders() async throws(IdentityFlowError) -> [IdentityProvider] {
        try requireStarted()
        if let cached = withClientState({ $0.identityProviders }) { return cached }
        let providers = try await service.identityProviders()
        withClientState { $0.identityProviders = providers }
        return providers
    }

    // MARK: - Flow control

    /// Cancels the running flow, if any; it ends with ``ErrorCode/actionCancelled``.
    ///
    /// A cancel works at every step until the flow commits to its outcome, also while it still
    /// prepares (then nothing of it runs). A server call in flight is abandoned, except one that
    /// may be issuing credentials (code exchange, custom registration data, a PIN or biometric
    /// check): the flow waits for its answer and revokes what it issued before it ends, so a
    /// cancel never leaves a live token on the server.
    ///
    /// Logout and deregistration are not undone by a cancel: a cancel abandons their server call,
    /// the device-side part still happens, and they end with ``ErrorCode/localLogout`` (10009)
    /// or ``ErrorCode/localDeregistration`` (10003), which say exactly that.
    /// - Returns: Whether the cancel takes effect: `false` when no flow runs, or when the flow is
    ///   already storing its result or cleaning up after a failure (a cancel then comes too late
    ///   and the flow ends as it would have).
    @discardableResult
    public func cancelCurrentFlow() -> Bool {
        guard let slot = dependencies.environment.currentFlow else { return false }
        return slot.cancel()
    }

    /// Whether a flow is running.
    public var isFlowRunning: Bool { dependencies.environment.currentFlow != nil }

    // MARK: - Internals

    /// Reserves the one flow slot, or explains why not.
    func reserveFlow() -> Result<FlowSlot, IdentityFlowError> {
        guard withClientState({ $0.started }) else {
            return .failure(IdentityFlowError(.requestInvalid, "Call start() and wait for it before starting a flow."))
        }
        guard let slot = dependencies.environment.reserve() else { return .failure(IdentityFlowError(.actionAlreadyInProgress)) }
        return .success(slot)
    }

    /// Frees the flow slot of a flow that ends before its machine runs.
    func flowEnded(_ id: FlowID) { dependencies.environment.end(id) }

    func requireStarted() throws(IdentityFlowError) {
        guard withClientState({ $0.started }) else {
            throw IdentityFlowError(.requestInvalid, "Call start() and wait for it before using the client.")
        }
    }

    /// Reads or changes what the client itself keeps, under its dependencies' lock.
    private func withClientState<Result>(_ body: (inout State) -> Result) -> Result { dependencies.state.withLock { body(&$0.client) } }

    // MARK: - What the entry points use

    /// The server.
    var service: any IdentityService { dependencies.service }

    /// The profiles, their store and the session.
    var sessions: ProfileSessions { dependencies.sessions }

    /// Where this client's authenticators live.
    var authenticatorHome: any AuthenticatorHome { dependencies.authenticatorHome }

    /// The server's authenticators, for the entry points that prove the PIN key to the server
    /// (mobile and implicit authentication enrolments).
    var serverAuthenticators: ServerAuthenticators { ServerAuthenticators(dependencies: dependencies) }

    /// Reads or changes the profiles and session under their lock.
    func withState<Result>(_ body: (inout ProfileSessions.State) -> Result) -> Result { sessions.withState(body) }

    /// The stored profile, or ``ErrorCode/requestInvalid`` when it is not registered here.
    func storedProfile(_ profile: UserProfile) throws(IdentityFlowError) -> StoredProfile { try sessions.storedProfile(profile) }

    /// Refuses a stateless profile (``ErrorCode/statelessUser``) and one not registered here.
    func requireStoredProfile(_ profile: UserProfile, for action: String) throws(IdentityFlowError) {
        try sessions.requireStoredProfile(profile, for: action)
    }

    /// Saves changes to a stored profile.
    func updateStoredProfile(_ profile: UserProfile, _ change: (inout StoredProfile) -> Void) throws(IdentityFlowError) {
        try sessions.updateStoredProfile(profile, change)
    }

    /// The PIN key of `profile`'s session, if it is the logged-in profile and logged in with the PIN.
    func sessionPinKey(for profile: UserProfile) -> ProvenPinKey { sessions.sessionPinKey(for: profile) }

    /// The logged-in profile's tokens, or ``ErrorCode/userNotAuthenticated``.
    func sessionTokens() throws(IdentityFlowError) -> TokenSet { try sessions.sessionTokens() }

    /// Revokes a token set nobody will use any more (best effort: a failure is logged), with a
    /// proof by the DPoP key of the profile it belongs to.
    nonisolated(nonsending) func revokeUnused(_ tokens: TokenSet, proofKey: DPoPKey?, flow: FlowID?) async {
        await SessionSteps(dependencies: dependencies).revokeUnused(tokens, proofKey: proofKey, flow: flow)
    }
}
