import Foundation
import Statechart

/// The I/O steps of a registration (``RegistrationFlow``): the sign-in's server calls, the
/// checkpoint of a browser wait, the first PIN's enrolment, storing the new profile or
/// discarding it. A view of the client's ``FlowDependencies``: one word, no allocation.
struct RegistrationSteps: Sendable {
    /// What the steps are built from.
    let dependencies: FlowDependencies

    var service: any IdentityService { dependencies.service }
    var sessions: ProfileSessions { dependencies.sessions }
    /// Where the authenticators live: the first PIN's enrolment and its refusal.
    var authenticatorHome: any AuthenticatorHome { dependencies.authenticatorHome }
    /// The session steps.
    var session: SessionSteps { SessionSteps(dependencies: dependencies) }

    /// How the client behaves.
    var configuration: ClientConfiguration { dependencies.configuration }

    // MARK: - Signing in

    /// The browser sign-in's authorization URL, the identity app that can open it instead, and
    /// the new profile's DPoP key when its tokens are to be bound (its thumbprint is the request's
    /// `dpop_jkt`), once the provider is known to have somewhere to keep the PIN.
    /// - Throws: ``ErrorCode/invalidIdentityProvider`` for a sign-in without an authorization
    ///   request; ``ErrorCode/securityProfileNotMet`` when DPoP is required and the provider lacks it.
    /// - Parameter key: The key a resumed registration's checkpoint kept, used again.
    nonisolated(nonsending) func authorizationURL(for context: RegistrationMachine.Context, reusing key: DPoPKey?) async throws(IdentityFlowError)
        -> (URL, IdentityAppLink?, DPoPKey?)
    {
        guard var request = context.authorization else { throw IdentityFlowError(.invalidIdentityProvider) }
        try await authenticatorHome.requirePinHome(for: context)
        var proofKey = key
        if proofKey == nil { proofKey = try await newDPoPKey() }
        request.dpopKeyThumbprint = proofKey?.thumbprint
        let url = try await service.authorizationURL(for: context.provider, request: request)
        return (url, try await service.identityAppLink(for: context.provider, request: request), proofKey)
    }

    /// The authorization URL of a sign-in continued in the browser with an autologin token.
    nonisolated(nonsending) func autologinURL(_ autologinToken: Redacted<String>, for context: RegistrationMachine.Context) async throws(IdentityFlowError)
        -> (URL, DPoPKey?)
    {
        guard var request = context.authorization else { throw IdentityFlowError(.invalidIdentityProvider) }
        request.autologinToken = autologinToken
        let proofKey = try await newDPoPKey()
        request.dpopKeyThumbprint = proofKey?.thumbprint
        return (try await service.authorizationURL(for: context.provider, request: request), proofKey)
    }

    /// A new DPoP key for a browser sign-in, when the service binds this sign-in's tokens
    /// (``IdentityService/usesDPoP()``).
    private nonisolated(nonsending) func newDPoPKey() async throws(IdentityFlowError) -> DPoPKey? {
        try await service.usesDPoP() ? try DPoPKey.generate() : nil
    }

    /// Exchanges the redirect's code for tokens, after checking the issuer it named, with a proof
    /// by the registration's DPoP key when it has one.
    nonisolated(nonsending) func exchangeCode(_ code: Redacted<String>, issuer: String?, request: AuthorizationRequest, proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> TokenSet
    {
        try await service.checkAuthorizationResponseIssuer(issuer)
        return try await service.exchangeCode(code, request: request, proofKey: proofKey)
    }

    /// Exchanges a provider's session (a partial registration's end) for tokens.
    nonisolated(nonsending) func exchangeSession(_ session: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet {
        try await service.exchangeSession(session, request: request)
    }

    /// Sends a custom registration step's data.
    nonisolated(nonsending) func sendCustomData(
        _ step: CustomRegistrationStep, provider: IdentityProvider, session: Redacted<String?>, data: Redacted<String?>
    ) async throws(IdentityFlowError) -> CustomRegistrationAnswer {
        switch step {
        case .initialization: try await service.initCustomRegistration(provider: provider, data: data)
        case .finish: try await service.completeCustomRegistration(provider: provider, session: session.value, data: data)
        }
    }

    /// Signs in with the user's credentials (the password grant).
    nonisolated(nonsending) func sendCredentials(_ credentials: LoginCredentials, for context: RegistrationMachine.Context) async throws(IdentityFlowError)
        -> CredentialsOutcome
    {
        try await authenticatorHome.requirePinHome(for: context)
        return try await service.passwordGrant(login: credentials.login, password: credentials.password, scopes: context.authorization?.scopes ?? [])
    }

    /// Signs in with another provider's token (token exchange).
    nonisolated(nonsending) func exchangeExternalToken(for context: RegistrationMachine.Context) async throws(IdentityFlowError) -> CredentialsOutcome {
        try await authenticatorHome.requirePinHome(for: context)
        guard let token = context.externalToken else { throw IdentityFlowError(.invalidIdentityProvider) }
        return try await service.exchangeExternalToken(token, scopes: context.authorization?.scopes ?? [])
    }

    /// Sends the attributes a partial registration asked for.
    nonisolated(nonsending) func completePartialRegistration(
        stateKey: Redacted<String>, attributes: Redacted<[String: String]>, request: AuthorizationRequest
    ) async throws(IdentityFlowError) -> PartialRegistrationOutcome {
        try await service.completePartialRegistration(stateKey: stateKey, attributes: attributes, request: request)
    }

    // MARK: - The browser wait

    /// Stores the checkpoint of a browser wait, so that a later process can resume it, with the
    /// registration's DPoP key where that may be written (``RegistrationCheckpoint/keeping(_:deviceMode:)``).
    func saveCheckpoint(of context: RegistrationMachine.Context, authorizationURL url: URL, proofKey: DPoPKey?) throws(IdentityFlowError) {
        try dependencies.checkpoints.save(
            RegistrationCheckpoint(context: context, authorizationURL: url, now: configuration.now(), lifetime: configuration.checkpointLifetime)
                .keeping(proofKey, deviceMode: configuration.authenticators.isOnDevice))
    }

    /// Deletes the checkpoint of `profile`'s registration, if it is the stored one (best effort: logged).
    func deleteCheckpoint(of profile: UserProfile, flow: FlowID) { dependencies.checkpoints.delete(of: profile, flow: flow) }

    /// Routes ``UserClient/handleRedirect(_:)`` to the registration's open browser challenge.
    func awaitRedirect(_ waiter: RedirectWaiter) { dependencies.environment.awaitRedirect(waiter) }

    // MARK: - Enrolment

    /// Enrols a registration's first PIN in the client's ``AuthenticatorHome``: with the server
    /// (then the implicit key it offers), or in a new vault that seals the registration's tokens.
    /// `keyDerived` receives the PIN key before anything is sent, so that a flow cancelled while
    /// the enrolment is on its way can still discard it on the server.
    /// - Returns: The vault to store, if the home keeps one on the device.
    nonisolated(nonsending) func enrolFirstPin(
        _ pin: Redacted<String>, for profile: UserProfile, deviceSecret: Redacted<[UInt8]>, tokens: TokenSet, proofKey: DPoPKey?,
        keyDerived: (ProvenPinKey) -> Void
    ) async throws(IdentityFlowError) -> DeviceVault? {
        try await authenticatorHome.enrolFirstPin(pin, for: profile, deviceSecret: deviceSecret, tokens: tokens, proofKey: proofKey, keyDerived: keyDerived)
    }

    /// Stores a new profile (a stateless one in memory only) with its DPoP key
    /// (``ProfileSessions/keepDPoPKey(_:with:sessionKey:)``) and logs it in with the PIN key it
    /// enrolled. A stateless session it replaces ends: forgotten here, its tokens revoked in the
    /// background. When the storage fails, the key's item goes too.
    func storeRegisteredProfile(_ stored: StoredProfile, pinKey: ProvenPinKey, proofKey: DPoPKey?) throws(IdentityFlowError) {
        var stored = stored
        let replacedKey = sessions.sessionDPoPKey
        let replaced: TokenSet?
        do {
            if let proofKey { try sessions.keepDPoPKey(proofKey, with: &stored, sessionKey: pinKey) }
            replaced = try sessions.logIn(stored, pinKey: pinKey, endingStateless: true)
        } catch {
            if proofKey != nil { sessions.discardDPoPKey(of: stored.profile) }
            throw error
        }
        if let replaced {
            let session = self.session
            Task { await session.revokeUnused(replaced, proofKey: replacedKey, flow: nil) }
        }
    }

    /// Best effort: deregisters a half-made profile on the server (when a PIN key was derived
    /// for it, with that key's proof; a server that never enrolled it has nothing to remove) and
    /// revokes its tokens.
    nonisolated(nonsending) func discardOnServer(_ profile: UserProfile, tokens: TokenSet, pinKey: ProvenPinKey, proofKey: DPoPKey?, flow: FlowID) async {
        await authenticatorHome.discardFirstPin(of: profile, pinKey: pinKey, flow: flow)
        do { try await service.revoke(tokens, proofKey: proofKey) } catch {
            dependencies.logger.log(.warning, "Could not revoke the unfinished registration's tokens: \(error)", flow: flow)
        }
    }

    /// The new profile's ID token, for its result (``RegistrationResult/identityClaims`` reads it).
    func idToken(of profile: UserProfile) -> Redacted<String>? {
        sessions.withState { $0.profiles[profile]?.tokens.idToken }
    }
}
