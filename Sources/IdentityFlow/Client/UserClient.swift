import Foundation

/// The façade a host talks to: registers users and runs their flows, one at a time.
///
/// ```swift
/// let client = UserClient(configuration: configuration, service: service, storage: storage)
/// try await client.start()
/// let result = try await client.registerUser(with: provider, responder: myResponder)
/// ```
///
/// - Important: One flow runs at a time. Starting another while one runs fails at once with
///   ``ErrorCode/actionAlreadyInProgress`` and leaves the running flow untouched. Every started
///   flow ends with exactly one terminal callback (or one result of the async call).
public final class UserClient: Sendable {
    /// How the client behaves.
    public let configuration: ClientConfiguration
    /// Every transition of every flow this client runs.
    public let transitionLog = TransitionLog()
    let service: any IdentityService
    let profileStore: ProfileStore
    private let state = Locked(State())

    struct State: Sendable {
        var started = false
        var currentFlow: FlowSlot?
        var profiles: [UserProfile: StoredProfile] = [:]
        var authenticatedProfile: UserProfile?
        var identityProviders: [IdentityProvider]?
    }

    /// Creates a client. Call ``start()`` before anything else.
    /// - Parameters:
    ///   - configuration: How the client behaves.
    ///   - service: The server.
    ///   - storage: Where profiles and tokens are kept.
    public init(configuration: ClientConfiguration, service: any IdentityService, storage: any SecureStorage) {
        self.configuration = configuration
        self.service = service
        self.profileStore = ProfileStore(storage: storage, logger: configuration.logger)
    }

    /// Loads the stored profiles. Every other call fails with ``ErrorCode/requestInvalid`` until
    /// this returns.
    /// - Throws: ``ErrorCode/configurationInvalid`` for an unusable configuration,
    ///   ``ErrorCode/dataStorageNotAvailable`` when the storage cannot be read.
    public func start() async throws(IdentityFlowError) {
        if let problem = configuration.problem { throw problem }
        let stored = try profileStore.loadAll()
        state.withLock { state in
            state.profiles = Dictionary(stored.map { ($0.profile, $0) }, uniquingKeysWith: { first, _ in first })
            state.started = true
        }
    }

    // MARK: - Profiles

    /// The profiles registered on this device.
    public var userProfiles: Set<UserProfile> { Set(state.withLock { $0.profiles.keys }) }

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
    /// - Returns: Whether a flow was running.
    @discardableResult
    public func cancelCurrentFlow() -> Bool {
        guard let slot = state.withLock({ $0.currentFlow }) else { return false }
        slot.cancel()
        return true
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

    /// Frees the flow slot; called by a flow right before its terminal callback.
    func flowEnded(_ id: FlowID) {
        state.withLock { state in
            if state.currentFlow?.id == id { state.currentFlow = nil }
        }
    }

    /// Reads or changes the client's state under its lock.
    func withState<Result>(_ body: (inout State) -> Result) -> Result { state.withLock(body) }

    func requireStarted() throws(IdentityFlowError) {
        guard state.withLock({ $0.started }) else {
            throw IdentityFlowError(.requestInvalid, "Call start() and wait for it before using the client.")
        }
    }

    func storeRegisteredProfile(_ stored: StoredProfile) throws(IdentityFlowError) {
        try profileStore.save(stored)
        state.withLock { state in
            state.profiles[stored.profile] = stored
            state.authenticatedProfile = stored.profile
        }
    }

    /// Best effort: deregisters a half-made profile on the server and revokes its tokens.
    func discardOnServer(_ profile: UserProfile, tokens: TokenSet, service: any IdentityService, flow: FlowID) async {
        do { try await service.deregister(profile, accessToken: tokens.accessToken) } catch {
            configuration.logger.log(.warning, "Could not deregister the unfinished profile on the server: \(error)", flow: flow)
        }
        do { try await service.revoke(tokens) } catch {
            configuration.logger.log(.warning, "Could not revoke the unfinished registration's tokens: \(error)", flow: flow)
        }
    }
}
