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
    func registrationHost(_ delegate: some RegistrationDelegate, provider identityProvider: IdentityProvider?) -> FlowHost<RegistrationMachine.Context, RegistrationResult> {
        let executor = configuration.callbackExecutor
        let provider = Locked(identityProvider)
        let host = FlowHost<RegistrationMachine.Context, RegistrationResult>(
            started: { context in
                provider.withLock { $0 = context.provider }
                executor.run { delegate.userClient(self, didStartRegistrationOf: context.profile) }
            },
            challenge: { challenge in
                executor.run {
                    switch challenge {
                    case .browserRegistration(let challenge):
                        delegate.userClient(self, didReceiveBrowserRegistrationChallenge: challenge)
                    case .customRegistration(let challenge) where challenge.step == .initialization:
                        delegate.userClient(self, didReceiveCustomRegistrationInitChallenge: challenge)
                    case .customRegistration(let challenge):
                        delegate.userClient(self, didReceiveCustomRegistrationFinishChallenge: challenge)
                    case .createPin(let challenge):
                        delegate.userClient(self, didReceiveCreatePinChallenge: challenge)
                    case .pin, .biometric:
                        challenge.cancel()  // a registration never asks for these
                    }
                }
            },
            finished: { outcome in
                let provider = provider.current
                executor.run {
                    switch outcome {
                    case .success(let result):
                        delegate.userClient(self, didRegisterUser: result.profile, identityProvider: result.identityProvider, info: result.info)
                    case .failure(let error):
                        delegate.userClient(self, didFailToRegisterUserWith: provider, error: error)
                    }
                }
            })
        return host
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
    public func registerUser(with identityProvider: IdentityProvider? = nil, scopes: [String]? = nil, responder: some ChallengeResponder) async throws(IdentityFlowError) -> RegistrationResult {
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
    public func registerUser(with identityProvider: IdentityProvider? = nil, scopes: [String]? = nil, answering answer: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void) async throws(IdentityFlowError) -> RegistrationResult {
        try await registerUser(with: identityProvider, scopes: scopes, responder: ClosureResponder(answer))
    }

    @discardableResult
    private func launchRegistration(provider: IdentityProvider?, scopes: [String]?, host: FlowHost<RegistrationMachine.Context, RegistrationResult>) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            // A new registration supersedes one that waited for its redirect in an earlier process.
            self.discardCheckpoint(self.loadCheckpoint())
            let context = try await self.registrationContext(provider: provider, scopes: scopes ?? self.configuration.defaultScopes)
            return RegistrationFlow(client: self, id: id, context: context, host: host)
        }
    }

    private func registrationContext(provider: IdentityProvider?, scopes: [String]) async throws(IdentityFlowError) -> RegistrationMachine.Context {
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
        let authorization = resolved.kind == .browser
            ? try AuthorizationRequest(redirectURI: configuration.redirectURI, scopes: scopes)
            : nil
        let profileId: String
        do { profileId = try SecureRandom.token(byteCount: 9) } catch {
            throw IdentityFlowError(.unknown, "The secure random generator failed.", underlying: error)
        }
        return RegistrationMachine.Context(
            profile: UserProfile(profileId: profileId), provider: resolved,
            authorization: authorization, pinPolicy: configuration.pinPolicy)
    }
}
