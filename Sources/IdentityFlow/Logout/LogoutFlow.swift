/// Performs a ``LogoutMachine``'s effects.
final class LogoutFlow: FlowPerformer {
    typealias Machine = LogoutMachine

    let engine: FlowEngine<LogoutMachine>
    private let client: UserClient
    private let profile: UserProfile
    private let host: FlowHost<UserProfile, UserProfile>

    init(client: UserClient, id: FlowID, profile: UserProfile, tokens: TokenSet, host: FlowHost<UserProfile, UserProfile>) {
        self.client = client
        self.profile = profile
        self.host = host
        self.engine = FlowEngine(id: id, machine: LogoutMachine(tokens: tokens), client: client)
    }

    func perform(_ effect: LogoutMachine.Effect) -> EffectWork<LogoutMachine.Event> {
        switch effect {
        case .endLocalSession:
            client.endSessionLocally()
            return .done
        case .revokeTokens(let tokens):
            let client = self.client
            return engine.call { () throws(IdentityFlowError) in
                try await client.service.revoke(tokens)
                return .tokensRevoked
            }
        case .reportSuccess:
            return engine.finish(.success(profile), to: host)
        case .reportFailure(let error):
            return engine.finish(.failure(error), to: host)
        }
    }
}

extension LogoutMachine.Event: FlowEvents {}

extension UserClient {
    /// Logs the authenticated user out: the session ends on the device at once, and the server
    /// revokes the tokens.
    ///
    /// ```swift
    /// do { try await client.logout() } catch where error.code == .localLogout { /* offline: fine */ }
    /// ```
    /// - Throws: ``ErrorCode/userNotAuthenticated`` when nobody is logged in;
    ///   ``ErrorCode/localLogout`` when the server could not be told (the user is logged out all the same).
    public func logout() async throws(IdentityFlowError) {
        _ = try await runAsync(responder: ClosureResponder { $0.cancel() }) { (host: FlowHost<UserProfile, UserProfile>) in
            launchLogout(host: host)
        }
    }

    /// Logs the authenticated user out, calling `completion` once on the callback executor.
    /// - Parameter completion: Receives `nil` on success, or the error (``ErrorCode/localLogout``, ...).
    public func logout(completion: @escaping @Sendable (IdentityFlowError?) -> Void) {
        launchLogout(host: .completion(configuration.callbackExecutor, completion))
    }

    @discardableResult
    private func launchLogout(host: FlowHost<UserProfile, UserProfile>) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            guard let profile = self.authenticatedUserProfile else {
                throw IdentityFlowError(.userNotAuthenticated, "Nobody is logged in.")
            }
            return LogoutFlow(client: self, id: id, profile: profile, tokens: try self.storedProfile(profile).tokens, host: host)
        }
    }
}

extension FlowHost {
    /// A host for completion-handler calls: no challenges, one completion on the executor.
    static func completion(_ executor: CallbackExecutor, _ completion: @escaping @Sendable (IdentityFlowError?) -> Void) -> FlowHost {
        FlowHost(
            started: { _ in },
            challenge: { $0.cancel() },
            finished: { outcome in
                executor.run {
                    switch outcome {
                    case .success: completion(nil)
                    case .failure(let error): completion(error)
                    }
                }
            })
    }
}
