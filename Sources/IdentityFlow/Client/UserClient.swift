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
    public let configuration: ClientConfiguration
    /// Every transition of every flow this client runs.
    package let transitionLog = TransitionLog()
    let service: any IdentityService
    let profileStore: ProfileStore
    let transport: any ResourceTransport
    let refresher = TokenRefresher()
    let sessionBroadcast = Broadcast<SessionEvent>()
    private let state = Locked(State())

    struct State: Sendable {
        var started = false
        var starting = false
        var currentFlow: FlowSlot?
        var profiles: [UserProfile: StoredProfile] = [:]
        /// The logged-in profile. Whenever it changes, the session's PIN key is forgotten.
        var authenticatedProfile: UserProfile? {
            didSet { if authenticatedProfile != oldValue { sessionPinKey = .none } }
        }
        /// The key that proved the PIN for the logged-in profile's session (in memory only), so
        /// that the session can prove the PIN for a credential change; `.none` after a biometric
        /// login or without a session.
        var sessionPinKey: ProvenPinKey = .none
        var identityProviders: [IdentityProvider]?
        /// The browser challenge of the running registration, for ``handleRedirect(_:)``.
        var redirectWaiter: RedirectWaiter?
        /// A redirect ``handleRedirect(_:)`` took for the checkpointed registration, until it resumes.
        var handedOverRedirect: URL?
        /// The `state` of a checkpoint this process discarded: ignored should its removal from
        /// storage have failed, so that it never resumes twice.
        var discardedCheckpointState: Redacted<String>?
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
        self.configuration = configuration
        self.service = server.service
        self.profileStore = ProfileStore(storage: storage, logger: configuration.logger)
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
    /// knows are removed from the device and reported. Every other call fails with
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
    ///   Unreadable stored profiles do not fail it: ``LaunchReport/unreadableStorageKeys`` lists them.
    @discardableResult
    public func start() async throws(IdentityFlowError) -> LaunchReport {
        if let problem = configuration.problem { throw problem }
        let alreadyStarting = state.withLock { state in
            defer { state.starting = true }
            return state.starting
        }
        if alreadyStarting { throw IdentityFlowError(.actionAlreadyInProgress, "start() was called before; it runs only once.") }
        var kept: [StoredProfile] = []
        var removed: Set<UserProfile> = []
        var reconciled = true
        var unreadable: [String] = []
        var damaged: Set<UserProfile> = []
        do {
            let loaded = try profileStore.loadAll()
            unreadable = loaded.unreadableKeys
            for stored in loaded.profiles {
                if let vault = stored.vault {
                    // Device mode: the device is the only record; a vault that cannot be used stays, named.
                    if vault.damage(deviceSecret: stored.deviceSecret, profile: stored.profile, acceptedIterations: configuration.acceptedPinKeyIterations)
                        != nil || (try? pinSecret(of: stored, vault)) == nil
                    {
                        damaged.insert(stored.profile)
                    }
                    kept.append(stored)
                } else if reconciled, try await !profileKnownToServer(stored.profile, reconciled: &reconciled) {
                    try profileStore.delete(stored.profile)
                    removed.insert(stored.profile)
                } else {
                    kept.append(stored)
                }
            }
        } catch {
            state.withLock { $0.starting = false }
            throw error
        }
        state.withLock { state in
            state.profiles = Dictionary(kept.map { ($0.profile, $0) }, uniquingKeysWith: { first, _ in first })
            state.started = true
        }
        for profile in removed { sessionBroadcast.publish(.profileRemovedAtLaunch(profile)) }
        return LaunchReport(
            profiles: Set(kept.map(\.profile)), removedProfiles: removed, reconciled: reconciled,
            resumableRegistrations: loadCheckpoint().map { [$0.summary] } ?? [],
            unreadableStorageKeys: unreadable, damagedProfiles: damaged, resumedProfile: await resumeLastSession())
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
    public var userProfiles: Set<UserProfile> { Set(state.withLock { $0.profiles.keys.filter { !$0.isStateless } }) }

    /// The profile logged in now, if any.
    public var authenticatedUserProfile: UserProfile? { state.withLock { $0.authenticatedProfile } }

    /// The identity providers the server offers (fetched once, then cached).
    /// - Throws: ``ErrorCode/requestInvalid`` before ``start()``; the service's errors.
    public func identityProviders() async throws(IdentityFlowError) -> [IdentityProvider] {
        try requireStarted()
        if let cached = state.withLock({ $0.identityProviders }) { return cached }
        let providers = try await service.identityProviders()
        state.withLock { $0.identityProviders = providers }
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
        guard let slot = state.withLock({ $0.currentFlow }) else { return false }
        return slot.cancel()
    }

    /// Whether a flow is running.
    public var isFlowRunning: Bool { state.withLock { $0.currentFlow != nil } }

    // MARK: - Internals

    /// Reserves the one flow slot, or explains why not.
    func reserveFlow() -> Result<FlowSlot, IdentityFlowError> {
        state.withLock { state in
            guard state.started else {
                return .failure(IdentityFlowError(.requestInvalid, "Call start() and wait for it before starting a flow."))
            }
            guard state.currentFlow == nil else { return .failure(IdentityFlowError(.actionAlreadyInProgress)) }
            let slot = FlowSlot(id: .next())
            state.currentFlow = slot
            return .success(slot)
        }
    }

    /// Marks the running flow as past cancelling (see ``FlowEngine/commit()``).
    func commitFlow(_ id: FlowID) {
        state.withLock { $0.currentFlow?.id == id ? $0.currentFlow : nil }?.commit()
    }

    /// Frees the flow slot; called by a flow right before its terminal callback.
    func flowEnded(_ id: FlowID) {
        state.withLock { state in
            if state.currentFlow?.id == id { state.currentFlow = nil }
            if state.redirectWaiter?.flowID == id { state.redirectWaiter = nil }
        }
    }

    /// Reads or changes the client's state under its lock.
    func withState<Result>(_ body: (inout State) -> Result) -> Result { state.withLock(body) }

    func requireStarted() throws(IdentityFlowError) {
        guard state.withLock({ $0.started }) else {
            throw IdentityFlowError(.requestInvalid, "Call start() and wait for it before using the client.")
        }
    }

    /// Stores a new profile (a stateless one in memory only) and logs it in with the PIN key it
    /// enrolled. A stateless session it replaces ends: forgotten here, its tokens revoked in the
    /// background.
    func storeRegisteredProfile(_ stored: StoredProfile, pinKey: ProvenPinKey) throws(IdentityFlowError) {
        var stored = stored
        try keepForNextLaunch(&stored, pinKey: pinKey)
        try stored.resealTokens(with: pinKey)
        try profileStore.save(stored)
        let replaced = state.withLock { state -> TokenSet? in
            let previous = state.authenticatedProfile.flatMap { $0.isStateless && $0 != stored.profile ? state.profiles.removeValue(forKey: $0) : nil }
            state.profiles[stored.profile] = stored
            state.authenticatedProfile = stored.profile
            state.sessionPinKey = pinKey
            return previous?.tokens
        }
        if let replaced { Task { await self.revokeUnused(replaced, flow: nil) } }
    }

    /// Best effort: deregisters a half-made profile on the server (when a PIN key was derived
    /// for it, with that key's proof; a server that never enrolled it has nothing to remove) and
    /// revokes its tokens.
    nonisolated(nonsending) func discardOnServer(_ profile: UserProfile, tokens: TokenSet, pinKey: ProvenPinKey, flow: FlowID) async {
        if pinKey.provesPin {
            do { try await service.deregister(profile, authorization: try await pinKeyAuthorization(.deregistration, for: profile, key: pinKey)) } catch {
                if error.code != .userDeregistered {
                    configuration.logger.log(.warning, "Could not deregister the unfinished profile on the server: \(error)", flow: flow)
                }
            }
        }
        do { try await service.revoke(tokens) } catch {
            configuration.logger.log(.warning, "Could not revoke the unfinished registration's tokens: \(error)", flow: flow)
        }
    }
}
