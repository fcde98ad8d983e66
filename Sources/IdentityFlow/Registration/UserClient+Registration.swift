import Foundation
import Statechart

extension UserClient {
    /// Registers a user, reporting to a delegate.
    ///
    /// ```swift
    /// client.registerUser(with: provider, scopes: ["openid"], delegate: registrationScreen)
    /// ```
    /// - Parameters:
    ///   - identityProvider: The provider; `nil` uses the server's first browser provider.
    ///   - scopes: The scopes to ask for; `nil` uses ``ClientConfiguration/defaultScopes``; an
    ///     empty list fails with ``ErrorCode/requestInvalid`` before anything is sent.
    ///   - delegate: Receives the callbacks; retained until the terminal one.
    /// - Important: Exactly one of `didRegisterUser` / `didFailToRegisterUser` is called, also when
    ///   the registration cannot start (``ErrorCode/actionAlreadyInProgress``, ``ErrorCode/requestInvalid``).
    public func registerUser(with identityProvider: IdentityProvider? = nil, scopes: [String]? = nil, delegate: some RegistrationDelegate) {
        launchRegistration(provider: identityProvider, scopes: scopes, host: registrationHost(delegate, provider: identityProvider))
    }

    /// A host that reports a registration's callbacks to `delegate`.
    func registrationHost(_ delegate: some RegistrationDelegate, provider identityProvider: IdentityProvider?) -> FlowHost<
        RegistrationMachine.Context, RegistrationResult
    > {
        // The provider the failure callback names: the requested one until the flow resolved it.
        let provider = Locked(identityProvider)
        return .delegate(
            on: configuration.callbackExecutor,
            started: { context in
                provider.withLock { $0 = context.provider }
                delegate.userClient(self, didStartRegistrationOf: context.profile)
            },
            challenge: { challenge in
                switch challenge {
                case .browserRegistration(let challenge):
                    delegate.userClient(self, didReceiveBrowserRegistrationChallenge: challenge)
                case .customRegistration(let challenge) where challenge.step == .initialization:
                    delegate.userClient(self, didReceiveCustomRegistrationInitChallenge: challenge)
                case .customRegistration(let challenge):
                    delegate.userClient(self, didReceiveCustomRegistrationFinishChallenge: challenge)
                case .createPin(let challenge):
                    delegate.userClient(self, didReceiveCreatePinChallenge: challenge)
                case .partialRegistration(let challenge):
                    delegate.userClient(self, didReceivePartialRegistrationChallenge: challenge)
                case .credentials(let challenge):
                    delegate.userClient(self, didReceiveCredentialsChallenge: challenge)
                case .pin, .biometric, .mobileAuthConfirmation, .providerLogout:
                    challenge.cancel()  // a registration never asks for these
                }
            },
            finished: { outcome in
                switch outcome {
                case .success(let result):
                    delegate.userClient(self, didRegisterUser: result.profile, identityProvider: result.identityProvider, info: result.info)
                case .failure(let error):
                    delegate.userClient(self, didFailToRegisterUserWith: provider.current, error: error)
                }
            })
    }

    /// Registers a user, answering challenges through a responder.
    ///
    /// ```swift
    /// let result = try await client.registerUser(with: provider, responder: registrationScreen)
    /// ```
    /// - Parameters:
    ///   - identityProvider: The provider; `nil` uses the server's first browser provider.
    ///   - scopes: The scopes to ask for; `nil` uses ``ClientConfiguration/defaultScopes``; an
    ///     empty list fails with ``ErrorCode/requestInvalid`` before anything is sent.
    ///   - responder: Receives each challenge and answers through its sender.
    /// - Returns: The new profile (now authenticated), the provider and its answer.
    /// - Throws: ``IdentityFlowError``; cancelling the awaiting task cancels the flow (``ErrorCode/actionCancelled``).
    public func registerUser(with identityProvider: IdentityProvider? = nil, scopes: [String]? = nil, responder: some ChallengeResponder)
        async throws(IdentityFlowError) -> RegistrationResult
    {
        try await runAsync(responder: responder) { (host: FlowHost<RegistrationMachine.Context, RegistrationResult>) in
            launchRegistration(provider: identityProvider, scopes: scopes, host: host)
        }
    }

    /// Registers a user, answering challenges with a closure.
    ///
    /// ```swift
    /// let result = try await client.registerUser(with: provider) { challenge in
    ///     if case .createPin(let pin) = challenge { pin.sender.respond(with: "24680", to: pin) }
    /// }
    /// ```
    /// - Parameters:
    ///   - identityProvider: The provider; `nil` uses the server's first browser provider.
    ///   - scopes: The scopes to ask for.
    ///   - answer: Called with each challenge; answers through the challenge's sender.
    /// - Returns: The new profile, the provider and its answer.
    /// - Throws: ``IdentityFlowError``.
    public func registerUser(
        with identityProvider: IdentityProvider? = nil, scopes: [String]? = nil,
        answering answer: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void
    ) async throws(IdentityFlowError) -> RegistrationResult {
        try await registerUser(with: identityProvider, scopes: scopes, responder: ClosureResponder(answer))
    }

    // MARK: - Social login by token exchange

    /// Registers a user with a token another provider issued (Google, Facebook, ...): the server
    /// exchanges it (RFC 8693) and the registration goes on as any other, with a
    /// ``CreatePinChallenge``. An `interaction_required` answer continues in the browser with a
    /// ``BrowserRegistrationChallenge`` that signs the user in without asking again.
    /// - Parameters:
    ///   - externalToken: The other provider's token.
    ///   - scopes: The scopes to ask for; `nil` uses ``ClientConfiguration/defaultScopes``.
    ///   - delegate: Receives the callbacks; retained until the terminal one.
    /// - Important: Exactly one of `didRegisterUser` / `didFailToRegisterUser`; a refused token
    ///   fails with ``ErrorCode/externalTokenRefused``.
    public func registerUser(exchanging externalToken: ExternalToken, scopes: [String]? = nil, delegate: some RegistrationDelegate) {
        launchRegistration(
            provider: Self.exchangeProvider(externalToken), scopes: scopes, externalToken: externalToken,
            host: registrationHost(delegate, provider: Self.exchangeProvider(externalToken)))
    }

    /// Registers a user with another provider's token, answering challenges through a responder.
    /// See ``registerUser(exchanging:scopes:delegate:)``.
    /// - Parameters:
    ///   - externalToken: The other provider's token.
    ///   - scopes: The scopes to ask for.
    ///   - responder: Receives each challenge and answers through its sender.
    /// - Returns: The new profile (now authenticated) and the provider.
    /// - Throws: ``IdentityFlowError``: ``ErrorCode/externalTokenRefused``, ...
    public func registerUser(exchanging externalToken: ExternalToken, scopes: [String]? = nil, responder: some ChallengeResponder)
        async throws(IdentityFlowError) -> RegistrationResult
    {
        try await runAsync(responder: responder) { (host: FlowHost<RegistrationMachine.Context, RegistrationResult>) in
            launchRegistration(provider: Self.exchangeProvider(externalToken), scopes: scopes, externalToken: externalToken, host: host)
        }
    }

    /// Registers a user with another provider's token, answering challenges with a closure.
    /// - Parameters:
    ///   - externalToken: The other provider's token.
    ///   - scopes: The scopes to ask for.
    ///   - answer: Called with each challenge.
    /// - Returns: The new profile and the provider.
    /// - Throws: ``IdentityFlowError``.
    public func registerUser(
        exchanging externalToken: ExternalToken, scopes: [String]? = nil,
        answering answer: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void
    ) async throws(IdentityFlowError) -> RegistrationResult {
        try await registerUser(exchanging: externalToken, scopes: scopes, responder: ClosureResponder(answer))
    }

    /// Registers a user statelessly with another provider's token: as
    /// ``registerUser(exchanging:scopes:responder:)``, but without a PIN and storing nothing (see
    /// ``registerStatelessUser(with:scopes:delegate:)``).
    /// - Parameters:
    ///   - externalToken: The other provider's token.
    ///   - scopes: The scopes to ask for.
    ///   - responder: Receives each challenge (a browser one after `interaction_required`).
    /// - Returns: The stateless profile (now authenticated) and the provider.
    /// - Throws: ``IdentityFlowError``.
    public func registerStatelessUser(exchanging externalToken: ExternalToken, scopes: [String]? = nil, responder: some ChallengeResponder)
        async throws(IdentityFlowError) -> RegistrationResult
    {
        try await runAsync(responder: responder) { (host: FlowHost<RegistrationMachine.Context, RegistrationResult>) in
            launchRegistration(provider: Self.exchangeProvider(externalToken), scopes: scopes, stateless: true, externalToken: externalToken, host: host)
        }
    }

    /// Registers a user statelessly with another provider's token, reporting to a delegate. See
    /// ``registerStatelessUser(exchanging:scopes:responder:)``.
    /// - Parameters:
    ///   - externalToken: The other provider's token.
    ///   - scopes: The scopes to ask for.
    ///   - delegate: Receives the callbacks; retained until the terminal one.
    public func registerStatelessUser(exchanging externalToken: ExternalToken, scopes: [String]? = nil, delegate: some RegistrationDelegate) {
        launchRegistration(
            provider: Self.exchangeProvider(externalToken), scopes: scopes, stateless: true, externalToken: externalToken,
            host: registrationHost(delegate, provider: Self.exchangeProvider(externalToken)))
    }

    /// Registers a user statelessly with another provider's token, answering challenges with a
    /// closure. See ``registerStatelessUser(exchanging:scopes:responder:)``.
    /// - Parameters:
    ///   - externalToken: The other provider's token.
    ///   - scopes: The scopes to ask for.
    ///   - answer: Called with each challenge.
    /// - Returns: The stateless profile and the provider.
    /// - Throws: ``IdentityFlowError``.
    public func registerStatelessUser(
        exchanging externalToken: ExternalToken, scopes: [String]? = nil,
        answering answer: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void
    ) async throws(IdentityFlowError) -> RegistrationResult {
        try await registerStatelessUser(exchanging: externalToken, scopes: scopes, responder: ClosureResponder(answer))
    }

    private static func exchangeProvider(_ token: ExternalToken) -> IdentityProvider {
        IdentityProvider(identifier: token.provider, name: token.provider, kind: .tokenExchange)
    }

    // MARK: - Stateless registration

    /// Registers a user statelessly, reporting to a delegate: the same providers and challenges
    /// as ``registerUser(with:scopes:delegate:)`` but no PIN, and nothing is stored on the device
    /// (no profile, no tokens, no checkpoint). The session lives in memory until ``logout()``,
    /// another registration, or the end of the process. The profile is flagged
    /// ``UserProfile/isStateless``; it is not among ``userProfiles``, and PIN change, biometrics,
    /// mobile and implicit authentication refuse it with ``ErrorCode/statelessUser``.
    /// - Parameters:
    ///   - identityProvider: The provider; `nil` uses the server's first browser provider.
    ///   - scopes: The scopes to ask for; `nil` uses ``ClientConfiguration/defaultScopes``.
    ///   - delegate: Receives the callbacks (never a ``CreatePinChallenge``); retained until the terminal one.
    /// - Important: Exactly one of `didRegisterUser` / `didFailToRegisterUser` is called.
    public func registerStatelessUser(with identityProvider: IdentityProvider? = nil, scopes: [String]? = nil, delegate: some RegistrationDelegate) {
        launchRegistration(provider: identityProvider, scopes: scopes, stateless: true, host: registrationHost(delegate, provider: identityProvider))
    }

    /// Registers a user statelessly, answering challenges through a responder. See
    /// ``registerStatelessUser(with:scopes:delegate:)``.
    /// - Parameters:
    ///   - identityProvider: The provider; `nil` uses the server's first browser provider.
    ///   - scopes: The scopes to ask for.
    ///   - responder: Receives each challenge and answers through its sender.
    /// - Returns: The stateless profile (now authenticated), the provider and its answer.
    /// - Throws: ``IdentityFlowError``, as ``registerUser(with:scopes:responder:)``.
    public func registerStatelessUser(with identityProvider: IdentityProvider? = nil, scopes: [String]? = nil, responder: some ChallengeResponder)
        async throws(IdentityFlowError) -> RegistrationResult
    {
        try await runAsync(responder: responder) { (host: FlowHost<RegistrationMachine.Context, RegistrationResult>) in
            launchRegistration(provider: identityProvider, scopes: scopes, stateless: true, host: host)
        }
    }

    /// Registers a user statelessly, answering challenges with a closure. See
    /// ``registerStatelessUser(with:scopes:delegate:)``.
    /// - Parameters:
    ///   - identityProvider: The provider; `nil` uses the server's first browser provider.
    ///   - scopes: The scopes to ask for.
    ///   - answer: Called with each challenge.
    /// - Returns: The stateless profile, the provider and its answer.
    /// - Throws: ``IdentityFlowError``.
    public func registerStatelessUser(
        with identityProvider: IdentityProvider? = nil, scopes: [String]? = nil,
        answering answer: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void
    ) async throws(IdentityFlowError) -> RegistrationResult {
        try await registerStatelessUser(with: identityProvider, scopes: scopes, responder: ClosureResponder(answer))
    }

    /// Registers a user with this sign-in's own authorization parameters (step-up, `prompt`,
    /// `login_hint`, ...), answering challenges through a responder: the internal path the
    /// registration request value exposes. See ``AuthorizationParameters`` for the checks.
    /// - Parameters:
    ///   - identityProvider: The provider; `nil` uses the server's first browser provider.
    ///   - scopes: The scopes to ask for; `nil` uses ``ClientConfiguration/defaultScopes``.
    ///   - parameters: The sign-in's authorization parameters.
    ///   - stateless: Whether to register statelessly.
    ///   - responder: Receives each challenge and answers through its sender.
    /// - Returns: The new profile (now authenticated), the provider and its answer.
    /// - Throws: ``ErrorCode/authorizationParameterReserved`` before anything is sent;
    ///   ``ErrorCode/stepUpNotSatisfied`` when the ID token does not show what was asked.
    package func registerUser(
        with identityProvider: IdentityProvider?, scopes: [String]? = nil, parameters: AuthorizationParameters, stateless: Bool = false,
        responder: some ChallengeResponder
    ) async throws(IdentityFlowError) -> RegistrationResult {
        try await runAsync(responder: responder) { (host: FlowHost<RegistrationMachine.Context, RegistrationResult>) in
            launchRegistration(provider: identityProvider, scopes: scopes, stateless: stateless, parameters: parameters, host: host)
        }
    }

    @discardableResult
    private func launchRegistration(
        provider: IdentityProvider?, scopes: [String]?, stateless: Bool = false, externalToken: ExternalToken? = nil,
        parameters: AuthorizationParameters = AuthorizationParameters(),
        host: FlowHost<RegistrationMachine.Context, RegistrationResult>
    ) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            try parameters.validate()
            // A new registration supersedes one that waited for its redirect in an earlier process
            // (a stateless one touches no storage).
            if !stateless { self.discardCheckpoint(self.loadCheckpoint()) }
            let context = try await self.registrationContext(
                provider: provider, scopes: scopes ?? self.configuration.defaultScopes, stateless: stateless,
                externalToken: externalToken, parameters: parameters)
            return RegistrationFlow(client: self, id: id, context: context, host: host)
        }
    }

    private func registrationContext(
        provider: IdentityProvider?, scopes: [String], stateless: Bool,
        externalToken: ExternalToken?, parameters: AuthorizationParameters
    ) async throws(IdentityFlowError) -> RegistrationMachine.Context {
        guard !scopes.isEmpty else {
            throw IdentityFlowError(.requestInvalid, "Ask for at least one scope, or pass nil for ClientConfiguration.defaultScopes.")
        }
        let resolved: IdentityProvider
        if let provider {
            // A custom provider the server does not offer would ask the user for data in vain.
            if case .custom = provider.kind, try await !identityProviders().contains(where: { $0.identifier == provider.identifier }) {
                throw IdentityFlowError(.invalidIdentityProvider, "The server offers no custom identity provider \(provider.identifier).")
            }
            resolved = provider
        } else {
            guard let first = try await identityProviders().first(where: { $0.kind == .browser }) else {
                throw IdentityFlowError(.invalidIdentityProvider, "The server offers no browser identity provider; name one.")
            }
            resolved = first
        }
        if resolved.kind == .tokenExchange, externalToken == nil {
            throw IdentityFlowError(.invalidIdentityProvider, "A token-exchange provider needs the other provider's token: call registerUser(exchanging:).")
        }
        // Credentials and token-exchange providers may continue in the browser (interaction_required).
        var authorization: AuthorizationRequest? =
            switch resolved.kind {
            case .browser, .credentials, .tokenExchange: try AuthorizationRequest(redirectURI: configuration.redirectURI, scopes: scopes)
            case .custom: nil
            }
        authorization?.parameters = parameters
        let profileId: String
        do { profileId = try SecureRandom.token(byteCount: 9) } catch {
            throw IdentityFlowError(.unknown, "The secure random generator failed.", underlying: error)
        }
        return RegistrationMachine.Context(
            profile: UserProfile(profileId: profileId, isStateless: stateless), provider: resolved,
            authorization: authorization, pinPolicy: configuration.pinPolicy, deviceSecret: try PinProof.newDeviceSecret(), stateless: stateless,
            externalToken: externalToken)
    }
}

/// Redirects and registrations that survive the app being killed while the user is in the browser.
///
/// A browser registration checkpoints itself (``RegistrationCheckpoint``) before it hands the
/// host the browser challenge. When the redirect comes back, ``handleRedirect(_:)`` gives it to the
/// registration waiting in this process, or keeps it for the checkpointed one, which the host then
/// continues with ``resumeRegistration(delegate:)`` (or the async variants).
extension UserClient {
    /// Hands a redirect that opened the app to the registration (or provider logout) it belongs to.
    ///
    /// Call it from `application(_:open:options:)` or SwiftUI's `onOpenURL`:
    ///
    /// ```swift
    /// .onOpenURL { url in
    ///     if client.handleRedirect(url) { resumeIfNeeded() }
    /// }
    /// ```
    ///
    /// - A registration of this process that waits for this redirect gets it as its browser
    ///   challenge's answer, exactly as `sender.respond(with:to:)` would give it; so does a
    ///   provider logout waiting for the redirect back from the provider's logout page
    ///   (``ProviderLogoutChallenge``), matched by the `state` it sent.
    /// - Otherwise a checkpointed registration whose `state` the URL carries keeps it, and
    ///   ``resumeRegistration(delegate:)`` continues with it.
    /// - A URL within ``ClientConfiguration/intermediateRedirects`` (a BankID return, say) changes
    ///   nothing and returns `true` while a sign-in waits.
    /// - Any other URL (another app link, a stale or replayed redirect) returns `false` and changes
    ///   nothing.
    /// - Parameter url: The URL the app was opened with.
    /// - Returns: Whether the URL belongs to a registration of this client.
    @discardableResult
    public func handleRedirect(_ url: URL) -> Bool {
        if configuration.intermediateRedirects.contains(where: { RegistrationFlow.url(url, isWithin: $0) }) {
            // A BankID-style return in the middle of the sign-in: the browser challenge stays open.
            if let waiter = withState({ $0.redirectWaiter }) { return waiter.ticket.settle(.answered(url)) }
            let waiting = loadCheckpoint() != nil
            configuration.logger.log(.info, "An intermediate redirect was handed to handleRedirect; \(waiting ? "the sign-in goes on" : "no sign-in waits").")
            return waiting
        }
        if let waiter = withState({ $0.redirectWaiter }), waiter.claims(url) {
            return waiter.ticket.settle(.answered(url))
        }
        guard let checkpoint = loadCheckpoint(), checkpoint.claims(url) else {
            configuration.logger.log(.info, "A URL handed to handleRedirect belongs to no registration; ignored.")
            return false
        }
        withState { $0.handedOverRedirect = url }
        return true
    }

    /// Continues the checkpointed browser registration, reporting to a delegate.
    ///
    /// The registration continues where it stopped: with the redirect ``handleRedirect(_:)`` kept,
    /// or, without one, with the browser challenge again (same URL). Then code exchange, create
    /// PIN, enrolment and storage, with the same callbacks and errors as an uninterrupted one.
    /// - Parameter delegate: Receives the callbacks; retained until the terminal one.
    /// - Important: Exactly one of `didRegisterUser` / `didFailToRegisterUser` is called. It fails
    ///   with ``ErrorCode/registrationCheckpointNotFound`` when nothing waits to be resumed (also
    ///   for a second resume), and ``ErrorCode/registrationCheckpointExpired`` when the checkpoint
    ///   is older than ``ClientConfiguration/checkpointLifetime`` (it is then deleted).
    public func resumeRegistration(delegate: some RegistrationDelegate) {
        launchResumedRegistration(host: registrationHost(delegate, provider: nil))
    }

    /// Continues the checkpointed browser registration, answering challenges through a responder.
    ///
    /// ```swift
    /// let report = try await client.start()
    /// if !report.resumableRegistrations.isEmpty {
    ///     let result = try await client.resumeRegistration(responder: registrationScreen)
    /// }
    /// ```
    /// - Parameter responder: Receives each challenge and answers through its sender.
    /// - Returns: The new profile (now authenticated), the provider and its answer.
    /// - Throws: ``IdentityFlowError``, as ``resumeRegistration(delegate:)`` reports them.
    public func resumeRegistration(responder: some ChallengeResponder) async throws(IdentityFlowError) -> RegistrationResult {
        try await runAsync(responder: responder) { (host: FlowHost<RegistrationMachine.Context, RegistrationResult>) in
            launchResumedRegistration(host: host)
        }
    }

    /// Continues the checkpointed browser registration, answering challenges with a closure.
    /// - Parameter answer: Called with each challenge; answers through the challenge's sender.
    /// - Returns: The new profile, the provider and its answer.
    /// - Throws: ``IdentityFlowError``, as ``resumeRegistration(delegate:)`` reports them.
    public func resumeRegistration(answering answer: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void) async throws(IdentityFlowError)
        -> RegistrationResult
    {
        try await resumeRegistration(responder: ClosureResponder(answer))
    }

    @discardableResult
    private func launchResumedRegistration(host: FlowHost<RegistrationMachine.Context, RegistrationResult>) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            guard let checkpoint = self.loadCheckpoint() else {
                throw IdentityFlowError(.registrationCheckpointNotFound)
            }
            let redirect = self.withState { state in
                defer { state.handedOverRedirect = nil }
                return state.handedOverRedirect.flatMap { checkpoint.claims($0) ? $0 : nil }
            }
            guard !checkpoint.isExpired(at: self.configuration.now()) else {
                self.discardCheckpoint(checkpoint)
                throw IdentityFlowError(.registrationCheckpointExpired)
            }
            let context = RegistrationMachine.Context(
                profile: checkpoint.profile, provider: checkpoint.provider,
                authorization: checkpoint.authorization, pinPolicy: self.configuration.pinPolicy, deviceSecret: try PinProof.newDeviceSecret())
            return RegistrationFlow(
                client: self, id: id, context: context, host: host,
                startEvent: .resumed(authorizationURL: checkpoint.authorizationURL, redirect: redirect))
        }
    }
}
