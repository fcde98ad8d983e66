import Foundation
@_spi(Integrator) import IdentityFlow

// 7Pass-style native login: a credentials provider with passwords, users who must act in the
// browser first (interaction_required with an autologin token), and social tokens to exchange.
extension ReferenceIdentityService {
    /// Adds a provider whose users sign in with a login and password (the password grant).
    /// - Parameters:
    ///   - id: Its identifier.
    ///   - name: Its display name.
    /// - Returns: The provider, to pass to `registerUser(.provider())`.
    @discardableResult
    public func addCredentialsProvider(id: String, name: String? = nil) -> IdentityProvider {
        let provider = IdentityProvider(identifier: id, name: name ?? id, kind: .credentials)
        state.withLock { state in
            state.providers.removeAll { $0.identifier == id }
            state.providers.append(provider)
        }
        return provider
    }

    /// Gives a user a password (adding the user if needed).
    /// - Parameters:
    ///   - password: The password.
    ///   - user: The user (the login).
    public func setPassword(_ password: String, for user: String) {
        state.withLock { state in
            state.users.insert(user)
            state.passwords[user] = password
        }
    }

    /// Makes the user's next password or social login answer `interaction_required` (consents to
    /// accept in the browser); the autologin token it carries then signs the user in there.
    /// - Parameter user: The user.
    public func requireInteraction(for user: String) { state.withLock { _ = $0.usersNeedingInteraction.insert(user) } }

    /// Registers a token another provider issued for a user (adding the user if needed), for
    /// social login by token exchange.
    /// - Parameters:
    ///   - token: The other provider's token.
    ///   - provider: Its name (`google`, `facebook`).
    ///   - user: The user it stands for.
    public func addExternalToken(_ token: String, provider: String, for user: String) {
        state.withLock { state in
            state.users.insert(user)
            state.externalTokens[token] = (provider, user)
        }
    }

    /// Checks a login and password.
    @_spi(Integrator) public nonisolated(nonsending) func passwordGrant(login: String, password: Redacted<String>, scopes: [String])
        async throws(IdentityFlowError)
        -> CredentialsOutcome
    {
        try await enter(.passwordGrant)
        return state.withLock { state in
            guard let expected = state.passwords[login], LegacyPinProof.constantTimeEquals(Array(expected.utf8), Array(password.value.utf8)) else {
                return .invalid
            }
            return grant(to: login, scopes: scopes, in: &state)
        }
    }

    /// Exchanges another provider's token registered with ``addExternalToken(_:provider:for:)``.
    @_spi(Integrator) public nonisolated(nonsending) func exchangeExternalToken(_ token: ExternalToken, scopes: [String]) async throws(IdentityFlowError)
        -> CredentialsOutcome
    {
        try await enter(.exchangeExternalToken)
        return state.withLock { state in
            guard let known = state.externalTokens[token.token.value], known.provider == token.provider else { return .invalid }
            return grant(to: known.user, scopes: scopes, in: &state)
        }
    }

    private func grant(to user: String, scopes: [String], in state: inout ServerState) -> CredentialsOutcome {
        if state.usersNeedingInteraction.contains(user) {
            let token = "al-" + state.nextSerial()
            state.autologinTokens[token] = user
            return .interactionRequired(autologinToken: Redacted(token))
        }
        return .granted(issueTokens(for: user, scopes: scopes, in: &state))
    }
}
