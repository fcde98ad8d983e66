import Foundation
import Statechart

extension UserClient {
    /// Registers a user, reporting to a delegate.
    ///
    /// ```swift
    /// client.registerUser(.provider(browser, scopes: ["openid"]), delegate: registrationScreen)
    /// ```
    /// A `@MainActor` screen conforms with `extension RegistrationScreen: @MainActor RegistrationDelegate`
    /// and gets every callback on the main actor; see ``RegistrationDelegate``.
    /// - Parameters:
    ///   - request: How the user signs in, the scopes, stateless or not; ``RegistrationRequest/resume``
    ///     continues the checkpointed browser registration.
    ///   - delegate: Receives the callbacks; retained until the terminal one.
    ///   - isolation: Where the callbacks run: the caller's actor (left to its default), or, when
    ///     called from nonisolated code, ``ClientConfiguration/callbackExecutor``.
    /// - Important: Exactly one of `didRegisterUser` / `didFailToRegisterUser` is called, also when
    ///   the registration cannot start (``ErrorCode/actionAlreadyInProgress``, ``ErrorCode/requestInvalid``,
    ///   ``ErrorCode/registrationCheckpointNotFound``).
    public func registerUser(
        _ request: RegistrationRequest = .default, delegate: sending some RegistrationDelegate, isolation: (any Actor)? = #isolation
    ) {
        let host = registrationHost(delegate as any RegistrationDelegate, provider: request.requestedProvider, executor: delegateExecutor(isolation))
        launchRegistration(request, host: host)
    }

    /// A host that reports a registration's callbacks to `delegate` on `executor`.
    func registrationHost(_ delegate: any RegistrationDelegate, provider identityProvider: IdentityProvider?, executor: CallbackExecutor) -> FlowHost<
        RegistrationMachine.Context, RegistrationResult
    > {
        let target = CallbackTarget(delegate)
        // The provider the failure callback names: the requested one until the flow resolved it.
        let provider = Locked(identityProvider)
        return .delegate(
            on: executor,
            started: { context in
                provider.withLock { $0 = context.provider }
                target.delegate.userClient(self, didStartRegistrationOf: context.profile)
            },
            challenge: { challenge in
                let delegate = target.delegate
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
                    target.delegate.userClient(self, didRegisterUser: result.profile, identityProvider: result.identityProvider, info: result.info)
                case .failure(let error):
                    target.delegate.userClient(self, didFailToRegisterUserWith: provider.current, error: error)
                }
            })
    }

    /// Registers a user, answering challenges through a responder.
    ///
    /// ```swift
    /// let result = try await client.registerUser(.provider(browser), responder: registrationScreen)
    /// ```
    /// - Parameters:
    ///   - request: How the user signs in, the scopes, stateless or not; ``RegistrationRequest/resume``
    ///     continues the checkpointed browser registration.
    ///   - responder: Receives each challenge and answers through its sender.
    /// - Returns: The new profile (now authenticated), the provider and its answer.
    /// - Throws: ``IdentityFlowError``; cancelling the awaiting task cancels the flow (``ErrorCode/actionCancelled``).
    public func registerUser(_ request: RegistrationRequest = .default, responder: some ChallengeResponder) async throws(IdentityFlowError)
        -> RegistrationResult
    {
        try await runAsync(responder: responder) { (host: FlowHost<RegistrationMachine.Context, RegistrationResult>) in
            launchRegistration(request, host: host)
        }
    }

    /// Registers a user, answering challenges with a closure.
    ///
    /// ```swift
    /// let result = try await client.registerUser(.provider(browser)) { challenge in
    ///     if case .createPin(let pin) = challenge { pin.sender.respond(with: "24680", to: pin) }
    /// }
    /// ```
    /// - Parameters:
    ///   - request: How the user signs in, the scopes, stateless or not; ``RegistrationRequest/resume``
    ///     continues the checkpointed browser registration.
    ///   - answer: Called with each challenge; answers through the challenge's sender.
    /// - Returns: The new profile, the provider and its answer.
    /// - Throws: ``IdentityFlowError``.
    public func registerUser(
        _ request: RegistrationRequest = .default, answering answer: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void
    ) async throws(IdentityFlowError) -> RegistrationResult {
        try await registerUser(request, responder: ClosureResponder(answer))
    }

    /// Starts the registration `request` asks for, or resumes the checkpointed one.
    @discardableResult
    private func launchRegistration(_ request: RegistrationRequest, host: FlowHost<RegistrationMachine.Context, RegistrationResult>) -> FlowSlot? {
        switch request.signIn {
        case .resume:
            guard request.scopes == nil, !request.isStateless, request.authorizationParameters.isEmpty else {
                return launch(host: host) { _ throws(IdentityFlowError) -> RegistrationFlow in
                    throw IdentityFlowError(
                        .requestInvalid, "A resumed registration takes its scopes, mode and authorization parameters from its checkpoint: set none.")
                }
            }
            return launchResumedRegistration(host: host)
        case .serverDefault:
            return launchRegistration(request, provider: nil, host: host)
        case .identityProvider(let provider):
            return launchRegistration(request, provider: provider, host: host)
        case .externalToken(let token):
            return launchRegistration(request, provider: Self.exchangeProvider(token), host: host)
        }
    }

    static func exchangeProvider(_ token: ExternalToken) -> IdentityProvider {
        IdentityProvider(identifier: token.provider, name: token.provider, kind: .tokenExchange)
    }

    /// Starts a new registration with `provider` (`nil`: the server's first browser provider).
    /// The closure keeps the request whole: one word, where its fields would fill a heap block
    /// that lives as long as the flow (bench row e).
    @discardableResult
    private func launchRegistration(
        _ request: RegistrationRequest, provider: IdentityProvider?, host: FlowHost<RegistrationMachine.Context, RegistrationResult>
    ) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            try request.authorizationParameters.validate()
            // A new registration supersedes one that waited for its redirect in an earlier process
            // (a stateless one touches no storage).
            if !request.isStateless { self.dependencies.checkpoints.discard(self.dependencies.checkpoints.load()) }
            let context = try await self.registrationContext(for: request, provider: provider)
            return RegistrationFlow(steps: RegistrationSteps(dependencies: self.dependencies), id: id, context: context, host: host)
        }
    }

    /// The identity providers a registration that names none chooses from: the server's list or,
    /// in device mode with a provider that has no list to offer (no extension API), its own
    /// browser sign-in.
    nonisolated(nonsending) func registrationProviders() async throws(IdentityFlowError) -> [IdentityProvider] {
        do { return try await identityProviders() } catch {
            guard error.code == .featureNotSupported, let providers = authenticatorHome.providersWithoutServerList else { throw error }
            return providers
        }
    }

    private func registrationContext(for request: RegistrationRequest, provider: IdentityProvider?) async throws(IdentityFlowError)
        -> RegistrationMachine.Context
    {
        let scopes = request.scopes ?? configuration.defaultScopes, stateless = request.isStateless
        let externalToken: ExternalToken? = if case .externalToken(let token) = request.signIn { token } else { nil }
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
            guard let first = try await registrationProviders().first(where: { $0.kind == .browser }) else {
                throw IdentityFlowError(.invalidIdentityProvider, "The server offers no browser identity provider; name one.")
            }
            resolved = first
        }
        if resolved.kind == .tokenExchange, externalToken == nil {
            throw IdentityFlowError(.invalidIdentityProvider, "A token-exchange provider needs the other provider's token: register with .externalToken(_:).")
        }
        // Credentials and token-exchange providers may continue in the browser (interaction_required).
        var authorization: AuthorizationRequest? =
            switch resolved.kind {
            case .browser, .credentials, .tokenExchange: try AuthorizationRequest(redirectURI: configuration.redirectURI, scopes: scopes)
            case .custom: nil
            }
        authorization?.parameters = request.authorizationParameters
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
/// continues with ``registerUser(_:delegate:isolation:)`` and ``RegistrationRequest/resume`` (or the async styles).
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
    ///   ``RegistrationRequest/resume`` continues with it.
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
            if let waiter = dependencies.environment.redirectWaiter { return waiter.ticket.settle(.answered(url)) }
            let waiting = dependencies.checkpoints.load() != nil
            configuration.logger.log(.info, "An intermediate redirect was handed to handleRedirect; \(waiting ? "the sign-in goes on" : "no sign-in waits").")
            return waiting
        }
        if let waiter = dependencies.environment.redirectWaiter, waiter.claims(url) {
            return waiter.ticket.settle(.answered(url))
        }
        guard let checkpoint = dependencies.checkpoints.load(), checkpoint.claims(url) else {
            configuration.logger.log(.info, "A URL handed to handleRedirect belongs to no registration; ignored.")
            return false
        }
        dependencies.checkpoints.handOver(url)
        return true
    }

    @discardableResult
    private func launchResumedRegistration(host: FlowHost<RegistrationMachine.Context, RegistrationResult>) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            guard let checkpoint = self.dependencies.checkpoints.load() else {
                throw IdentityFlowError(.registrationCheckpointNotFound)
            }
            let redirect = self.dependencies.checkpoints.takeHandedOverRedirect().flatMap { checkpoint.claims($0) ? $0 : nil }
            guard !checkpoint.isExpired(at: self.configuration.now()) else {
                self.dependencies.checkpoints.discard(checkpoint)
                throw IdentityFlowError(.registrationCheckpointExpired)
            }
            let proofKey = try self.dependencies.checkpoints.dpopKey(of: checkpoint, exchanging: redirect != nil)
            let context = RegistrationMachine.Context(
                profile: checkpoint.profile, provider: checkpoint.provider,
                authorization: checkpoint.authorization, pinPolicy: self.configuration.pinPolicy, deviceSecret: try PinProof.newDeviceSecret(),
                stateless: checkpoint.profile.isStateless)
            return RegistrationFlow(
                steps: RegistrationSteps(dependencies: self.dependencies), id: id, context: context, host: host,
                startEvent: .resumed(authorizationURL: checkpoint.authorizationURL, redirect: redirect), proofKey: proofKey)
        }
    }
}
