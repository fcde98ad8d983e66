import Foundation
import IdentityFlow

extension ReferenceIdentityService {
    /// The providers: the browser one and every custom one added.
    public nonisolated(nonsending) func identityProviders() async throws(IdentityFlowError) -> [IdentityProvider] {
        try await enter(.identityProviders)
        return state.withLock { $0.providers }
    }

    /// An authorization URL under ``authorizationEndpoint`` carrying the request's parameters.
    public nonisolated(nonsending) func authorizationURL(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError) -> URL {
        try await enter(.authorizationURL)
        guard provider.kind == .browser, state.withLock({ $0.providers.contains(provider) }) else {
            throw IdentityFlowError(.invalidIdentityProvider, "The reference server has no browser provider \(provider.identifier).")
        }
        let url = URLQuery.url(Self.authorizationEndpoint, appending: [
            ("response_type", "code"),
            ("client_id", "identityflow-reference"),
            ("redirect_uri", request.redirectURI.absoluteString),
            ("scope", request.scopes.joined(separator: " ")),
            ("state", request.state.value),
            ("nonce", request.nonce.value),
            ("code_challenge", request.codeChallenge),
            ("code_challenge_method", request.codeChallengeMethod),
        ])
        guard let url else { throw IdentityFlowError(.unknown, "Could not build the authorization URL.") }
        return url
    }

    /// Refuses an authorization response whose `iss` is not ``issuer`` (RFC 9207); one without
    /// `iss` passes, as hand-built redirects in tests carry none.
    public nonisolated(nonsending) func checkAuthorizationResponseIssuer(_ issuer: String?) async throws(IdentityFlowError) {
        guard let issuer, issuer != Self.issuer else { return }
        throw IdentityFlowError(.issuerMismatch, "The redirect's 'iss' is not the reference server's issuer.")
    }

    /// Exchanges a code once, checking the PKCE verifier (S256) and the redirect URI.
    public nonisolated(nonsending) func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet {
        try await enter(.exchangeCode)
        return try state.withLock { state throws(IdentityFlowError) in
            guard let grant = state.grants.removeValue(forKey: code.value) else { throw Self.invalidGrant("The code is unknown or was used before.") }
            guard PKCE.challenge(for: request.codeVerifier.value) == grant.codeChallenge else { throw Self.invalidGrant("The PKCE verifier does not match the challenge.") }
            guard grant.redirectURI == request.redirectURI else { throw Self.invalidGrant("The redirect URI differs from the one authorized.") }
            return issueTokens(for: grant.user, scopes: grant.scopes, in: &state)
        }
    }

    /// Runs the provider's script for the init step and opens a session on success.
    public nonisolated(nonsending) func initCustomRegistration(provider: IdentityProvider, data: Redacted<String?>) async throws(IdentityFlowError) -> CustomRegistrationAnswer {
        try await enter(.initCustomRegistration)
        let script = try script(for: provider)
        let info = try Self.info(from: script(.initialization, data.value))
        return state.withLock { state in
            guard info.outcome == .success else { return CustomRegistrationAnswer(info: info) }
            let session = "session-" + state.nextSerial()
            state.customSessions[session] = provider.identifier
            return CustomRegistrationAnswer(info: info, session: session)
        }
    }

    /// Runs the provider's script for the finish step; on 2xxx creates a user and issues tokens.
    public nonisolated(nonsending) func completeCustomRegistration(provider: IdentityProvider, session: String?, data: Redacted<String?>) async throws(IdentityFlowError) -> CustomRegistrationAnswer {
        try await enter(.completeCustomRegistration)
        let script = try script(for: provider)
        if provider.kind == .custom(.twoStep) {
            guard let session, state.withLock({ $0.customSessions[session] == provider.identifier }) else {
                throw IdentityFlowError(.customRegistrationExpired, "The registration session is unknown or expired.")
            }
        }
        let info = try Self.info(from: script(.finish, data.value))
        return state.withLock { state in
            switch info.outcome {
            case .recoverable, .invalid:
                return CustomRegistrationAnswer(info: info, session: session)
            case .unrecoverable:
                if let session { state.customSessions[session] = nil }
                return CustomRegistrationAnswer(info: info)
            case .success:
                if let session { state.customSessions[session] = nil }
                let user = "custom-" + state.nextSerial()
                state.users.insert(user)
                return CustomRegistrationAnswer(info: info, tokens: issueTokens(for: user, scopes: ["openid"], in: &state))
            }
        }
    }

    /// Binds the profile and its verifier to the token's user; re-enrolling resets the failure count.
    public nonisolated(nonsending) func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>) async throws(IdentityFlowError) -> PinEnrolmentReceipt {
        try await enter(.enrolPin)
        let date = now()
        return try state.withLock { state throws(IdentityFlowError) in
            guard let user = state.user(forAccessToken: accessToken.value, at: date) else {
                throw IdentityFlowError(.userNotAuthenticated, "The reference server does not accept this access token.")
            }
            if let existing = state.enrolments[enrolment.profile.profileId], existing.user != user {
                throw IdentityFlowError(.requestInvalid, "The profile belongs to another user.")
            }
            state.enrolments[enrolment.profile.profileId] = ServerState.Enrolment(
                user: user, salt: enrolment.salt, iterations: enrolment.iterations, verifier: enrolment.verifier, failureCount: 0)
            return PinEnrolmentReceipt(maxFailureCount: state.maxPinFailures)
        }
    }

    /// A fresh single-use nonce and the profile's derivation parameters.
    public nonisolated(nonsending) func pinLoginChallenge(for profile: UserProfile) async throws(IdentityFlowError) -> PinLoginChallenge {
        try await enter(.pinLoginChallenge)
        let nonce: [UInt8]
        do { nonce = try SecureRandom.bytes(count: 32) } catch { throw IdentityFlowError(.unknown, underlying: error) }
        return try state.withLock { state throws(IdentityFlowError) in
            guard let enrolment = state.enrolments[profile.profileId] else { throw Self.unknownProfile(profile) }
            state.nonces[nonce] = profile.profileId
            return PinLoginChallenge(nonce: nonce, salt: enrolment.salt, iterations: enrolment.iterations,
                                     maxFailureCount: state.maxPinFailures, failureCount: enrolment.failureCount)
        }
    }

    /// Checks a proof against the stored verifier; counts wrong ones and deregisters at the limit.
    public nonisolated(nonsending) func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError) -> PinVerification {
        try await enter(.verifyPinProof)
        return try state.withLock { state throws(IdentityFlowError) in
            guard state.nonces.removeValue(forKey: nonce) == profile.profileId else {
                throw IdentityFlowError(.requestInvalid, "The PIN nonce is unknown, used or for another profile.")
            }
            guard var enrolment = state.enrolments[profile.profileId] else { throw Self.unknownProfile(profile) }
            let expected = PinProof.proof(key: enrolment.verifier, profile: profile, nonce: nonce)
            if PinProof.constantTimeEquals(expected.value, proof.value) {
                enrolment.failureCount = 0
                state.enrolments[profile.profileId] = enrolment
                return .accepted(issueTokens(for: enrolment.user, scopes: ["openid"], in: &state))
            }
            enrolment.failureCount += 1
            guard enrolment.failureCount < state.maxPinFailures else {
                state.enrolments[profile.profileId] = nil
                state.revokeAllTokens(of: enrolment.user)
                return .deregistered
            }
            state.enrolments[profile.profileId] = enrolment
            return .rejected(failureCount: enrolment.failureCount, maxFailureCount: state.maxPinFailures)
        }
    }

    /// Rotates: the refresh token is spent and a new pair issued.
    public nonisolated(nonsending) func refresh(_ refreshToken: Redacted<String>) async throws(IdentityFlowError) -> TokenSet {
        try await enter(.refresh)
        return try state.withLock { state throws(IdentityFlowError) in
            guard let user = state.refreshTokens.removeValue(forKey: refreshToken.value) else {
                throw Self.invalidGrant("The refresh token is unknown, revoked or was used before.")
            }
            return issueTokens(for: user, scopes: ["openid"], in: &state)
        }
    }

    /// Forgets the tokens.
    public nonisolated(nonsending) func revoke(_ tokens: TokenSet) async throws(IdentityFlowError) {
        try await enter(.revoke)
        state.withLock { state in
            state.accessTokens[tokens.accessToken.value] = nil
            if let refresh = tokens.refreshToken { state.refreshTokens[refresh.value] = nil }
        }
    }

    /// Removes the profile's enrolment and revokes its user's tokens. Unknown profiles are fine.
    public nonisolated(nonsending) func deregister(_ profile: UserProfile, accessToken: Redacted<String>?) async throws(IdentityFlowError) {
        try await enter(.deregister)
        state.withLock { state in
            guard let enrolment = state.enrolments.removeValue(forKey: profile.profileId) else { return }
            state.revokeAllTokens(of: enrolment.user)
        }
    }

    /// Whether a PIN is enrolled for the profile.
    public nonisolated(nonsending) func profileExists(_ profile: UserProfile) async throws(IdentityFlowError) -> Bool {
        try await enter(.profileExists)
        return state.withLock { $0.enrolments[profile.profileId] != nil }
    }

    // MARK: - Helpers

    private func script(for provider: IdentityProvider) throws(IdentityFlowError) -> CustomProviderScript {
        guard case .custom = provider.kind, let script = state.withLock({ $0.scripts[provider.identifier] }) else {
            throw IdentityFlowError(.invalidIdentityProvider, "The reference server has no custom provider \(provider.identifier).")
        }
        return script
    }

    private static func info(from answer: CustomProviderAnswer) throws(IdentityFlowError) -> CustomInfo {
        switch answer {
        case .status(let status, let data): CustomInfo(status: status, data: data)
        case .expired: throw IdentityFlowError(.customRegistrationExpired, "The registration session expired on the server.")
        }
    }

    private static func invalidGrant(_ message: String) -> IdentityFlowError {
        var error = IdentityFlowError(.externalIdentityProviderFailure, message)
        error.oauthError = "invalid_grant"
        return error
    }

    private static func unknownProfile(_ profile: UserProfile) -> IdentityFlowError {
        var error = IdentityFlowError(.userDeregistered, "The server no longer knows this profile.")
        error.userProfile = profile
        return error
    }
}
