import Foundation
@_spi(Integrator) import IdentityFlow

extension ReferenceIdentityService {
    /// The providers: the browser one and every custom one added.
    public nonisolated(nonsending) func identityProviders() async throws(IdentityFlowError) -> [IdentityProvider] {
        try await enter(.identityProviders)
        return state.withLock { $0.providers }
    }

    /// An authorization URL under ``authorizationEndpoint`` carrying the request's parameters.
    @_spi(Integrator) public nonisolated(nonsending) func authorizationURL(for provider: IdentityProvider, request: AuthorizationRequest)
        async throws(IdentityFlowError) -> URL
    {
        try await enter(.authorizationURL)
        guard
            provider.kind == .tokenExchange
                || (provider.kind != .custom(.oneStep) && provider.kind != .custom(.twoStep) && state.withLock({ $0.providers.contains(provider) }))
        else {
            throw IdentityFlowError(.invalidIdentityProvider, "The reference server has no browser provider \(provider.identifier).")
        }
        let pushes = state.withLock { $0.senderConstraint.requiresPushedAuthorization }
        let built =
            pushes
            ? pushedAuthorizationURL(at: Self.authorizationEndpoint, parameters: Self.authorizationParameters(of: request))
            : Self.authorizationURL(at: Self.authorizationEndpoint, request: request)
        guard let url = built else { throw IdentityFlowError(.unknown, "Could not build the authorization URL.") }
        return url
    }

    /// The same request for the reference identity app, when ``offersAppLogin`` is on.
    @_spi(Integrator) public nonisolated(nonsending) func appAuthorizationURL(for provider: IdentityProvider, request: AuthorizationRequest)
        async throws(IdentityFlowError)
        -> URL?
    {
        guard provider.kind == .browser, state.withLock({ $0.offersAppLogin }) else { return nil }
        return Self.authorizationURL(at: Self.appAuthorizationEndpoint, request: request)
    }

    private static func authorizationURL(at endpoint: URL, request: AuthorizationRequest) -> URL? {
        URLQuery.url(endpoint, appending: authorizationParameters(of: request))
    }

    /// The authorization request's parameters, in the URL or pushed (`dpop_jkt` when it names a DPoP key).
    private static func authorizationParameters(of request: AuthorizationRequest) -> [(name: String, value: String)] {
        [
            ("response_type", "code"),
            ("client_id", "identityflow-reference"),
            ("redirect_uri", request.redirectURI.absoluteString),
            ("scope", request.scopes.joined(separator: " ")),
            ("state", request.state.value),
            ("nonce", request.nonce.value),
            ("code_challenge", request.codeChallenge),
            ("code_challenge_method", request.codeChallengeMethod),
        ] + (request.autologinToken.map { [("autologin_token", $0.value)] } ?? []) + (request.dpopKeyThumbprint.map { [("dpop_jkt", $0)] } ?? [])
            + request.parameters.queryItems
    }

    /// Refuses an authorization response whose `iss` is not ``issuer`` (RFC 9207); one without
    /// `iss` passes, as hand-built redirects in tests carry none.
    @_spi(Integrator) public nonisolated(nonsending) func checkAuthorizationResponseIssuer(_ issuer: String?) async throws(IdentityFlowError) {
        guard let issuer, issuer != Self.issuer else { return }
        throw IdentityFlowError(.issuerMismatch, "The redirect's 'iss' is not the reference server's issuer.")
    }

    /// Exchanges a code once, checking the PKCE verifier (S256) and the redirect URI.
    @_spi(Integrator) public nonisolated(nonsending) func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError)
        -> TokenSet
    {
        try await exchangeCode(code, request: request, proofKey: nil)
    }

    /// Exchanges a code once, as ``exchangeCode(_:request:)``, with a DPoP proof by `proofKey` for
    /// ``tokenEndpoint`` when DPoP is on: the tokens are bound to the key, and a code whose
    /// authorization request named a key (`dpop_jkt`) is exchanged only with a proof by that key.
    @_spi(Integrator) public nonisolated(nonsending) func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest, proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> TokenSet
    {
        try await enter(.exchangeCode)
        let date = now()
        return try state.withLock { state throws(IdentityFlowError) in
            let thumbprint = try Self.thumbprint(of: proofKey, method: "POST", url: Self.tokenEndpoint, at: date, in: &state)
            guard let grant = state.grants.removeValue(forKey: code.value) else { throw Self.invalidGrant("The code is unknown or was used before.") }
            guard PKCE.challenge(for: request.codeVerifier.value) == grant.codeChallenge else {
                throw Self.invalidGrant("The PKCE verifier does not match the challenge.")
            }
            guard grant.redirectURI == request.redirectURI else { throw Self.invalidGrant("The redirect URI differs from the one authorized.") }
            if let bound = grant.dpopKeyThumbprint, state.senderConstraint.usesDPoP, bound != thumbprint {
                throw Self.dpopRefused("The code was issued for another DPoP key (dpop_jkt), or the request carried no proof.")
            }
            var tokens = issueTokens(for: grant.user, scopes: grant.scopes, in: &state, dpopKeyThumbprint: thumbprint)
            if grant.scopes.contains("openid") { tokens.idToken = Redacted(idToken(for: grant, in: state)) }
            return tokens
        }
    }

    /// Exchanges a Zephr-style session (``Consent/session``) for tokens, once: the PKCE verifier
    /// and redirect URI must match the browser step's. Counted as an `exchangeCode` call.
    @_spi(Integrator) public nonisolated(nonsending) func exchangeSession(_ session: Redacted<String>, request: AuthorizationRequest)
        async throws(IdentityFlowError)
        -> TokenSet
    {
        try await enter(.exchangeCode)
        return try state.withLock { state throws(IdentityFlowError) in
            guard session.value.hasPrefix("zs-"), let grant = state.grants.removeValue(forKey: session.value) else {
                throw Self.invalidGrant("The session is unknown or was used before.")
            }
            guard PKCE.challenge(for: request.codeVerifier.value) == grant.codeChallenge, grant.redirectURI == request.redirectURI else {
                throw Self.invalidGrant("The session was not opened for this request.")
            }
            return issueTokens(for: grant.user, scopes: grant.scopes, in: &state)
        }
    }

    /// Runs the provider's script for the init step and opens a session on success.
    @_spi(Integrator) public nonisolated(nonsending) func initCustomRegistration(provider: IdentityProvider, data: Redacted<String?>)
        async throws(IdentityFlowError)
        -> CustomRegistrationAnswer
    {
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
    @_spi(Integrator) public nonisolated(nonsending) func completeCustomRegistration(provider: IdentityProvider, session: String?, data: Redacted<String?>)
        async throws(IdentityFlowError) -> CustomRegistrationAnswer
    {
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

    /// Binds the profile and its PIN public key to the token's user. A first enrolment needs the
    /// token of a sign-in no profile is bound to yet, and binds it; a profile that has a PIN is
    /// re-enrolled only with a proof by its current key (`docs/pin-proof.md`); a wrong one is
    /// counted like a wrong PIN.
    @_spi(Integrator) public nonisolated(nonsending) func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>) async throws(IdentityFlowError)
        -> PinEnrolmentReceipt
    {
        try await enrolPin(enrolment, accessToken: accessToken, proofKey: nil)
    }

    /// Enrols as ``enrolPin(_:accessToken:)`` does, with a proof by `proofKey` for
    /// ``pinEnrolEndpoint`` naming the token (`ath`) when DPoP is on: a DPoP-bound access token
    /// is accepted only with a proof by its key, so a copy of it alone enrols nothing.
    @_spi(Integrator) public nonisolated(nonsending) func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>, proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> PinEnrolmentReceipt
    {
        try await enter(.enrolPin)
        let date = now()
        return try state.withLock { state throws(IdentityFlowError) in
            let profile = enrolment.profile
            let proven = try Self.accessProof(of: proofKey, at: Self.pinEnrolEndpoint, accessToken: accessToken, date: date, in: &state)
            let existing = try state.enrolment(of: profile, boundTo: accessToken, proofThumbprint: proven, at: date, required: false)
            guard DeviceKey.isValidPublicKey(enrolment.publicKey), PinProof.acceptedSaltLengths.contains(enrolment.salt.count), enrolment.iterations >= 1 else {
                throw Self.invalidRequest("The enrolment's public key, salt or iteration count is invalid.")
            }
            if let existing {
                guard let authorization = enrolment.authorization else {
                    var error = IdentityFlowError(.pinProofRequired, "The profile has a PIN: changing it needs a proof by the current PIN key.")
                    error.oauthError = "proof_required"
                    throw error
                }
                try state.consumeNonce(authorization.nonce, of: profile)
                let valid: Bool
                switch existing.verifier {
                case .v2(let publicKey):
                    valid = DeviceKey.verify(
                        authorization.proof.value,
                        of: PinProof.message(
                            PinProof.Purpose.change.rawValue, profile: profile, nonce: authorization.nonce,
                            subject: enrolment.publicKey), publicKey: publicKey)
                case .v1(let verifier):
                    valid = LegacyPinProof.constantTimeEquals(
                        authorization.proof.value,
                        LegacyPinProof.upgradeProof(
                            key: verifier, profile: profile, nonce: authorization.nonce, publicKey: enrolment.publicKey))
                }
                guard valid else { throw Self.wrongProof(state.countWrongProof(of: profile), profile: profile) }
            } else {
                guard let family = try state.bearer(accessToken, at: date, proofThumbprint: proven).family, state.boundFamilies[family] == nil else {
                    throw ServerState.tokenNotAllowed(
                        "A first PIN enrolment needs the access token of the sign-in that just happened; this one's sign-in is bound to a profile already.")
                }
                state.boundFamilies[family] = profile.profileId
            }
            state.enrolments[profile.profileId] = ServerState.Enrolment(
                user: existing?.user ?? state.user(forAccessToken: accessToken.value, at: date) ?? "", salt: enrolment.salt,
                iterations: enrolment.iterations, verifier: .v2(publicKey: enrolment.publicKey), biometricKey: existing?.biometricKey, failureCount: 0)
            return PinEnrolmentReceipt(maxFailureCount: state.maxPinFailures)
        }
    }

    /// A fresh single-use nonce and the profile's derivation parameters.
    @_spi(Integrator) public nonisolated(nonsending) func pinLoginChallenge(for profile: UserProfile) async throws(IdentityFlowError) -> PinLoginChallenge {
        try await enter(.pinLoginChallenge)
        let nonce: [UInt8]
        do { nonce = try SecureRandom.bytes(count: 32) } catch { throw IdentityFlowError(.unknown, underlying: error) }
        return try state.withLock { state throws(IdentityFlowError) in
            guard let enrolment = state.enrolments[profile.profileId] else { throw Self.unknownProfile(profile) }
            state.nonces[nonce] = profile.profileId
            let version = if case .v1 = enrolment.verifier { 1 } else { 2 }
            return PinLoginChallenge(
                nonce: nonce, salt: enrolment.salt, iterations: enrolment.iterations,
                maxFailureCount: state.maxPinFailures, failureCount: enrolment.failureCount, version: version)
        }
    }

    /// Checks a PIN proof (a v2 signature, or a v1 profile's HMAC); counts wrong ones and
    /// deregisters at the limit. A malformed proof is refused without counting.
    @_spi(Integrator) public nonisolated(nonsending) func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8])
        async throws(IdentityFlowError)
        -> PinVerification
    {
        try await verifyPinProof(proof, for: profile, nonce: nonce, proofKey: nil)
    }

    /// Checks a PIN proof as ``verifyPinProof(_:for:nonce:)`` does, with a DPoP proof by
    /// `proofKey` for ``pinVerifyEndpoint`` when DPoP is on: the tokens are bound to the key; a
    /// login without a proof is refused when DPoP is required.
    @_spi(Integrator) public nonisolated(nonsending) func verifyPinProof(
        _ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8], proofKey: DPoPKey?
    ) async throws(IdentityFlowError) -> PinVerification {
        try await enter(.verifyPinProof)
        let date = now()
        return try state.withLock { state throws(IdentityFlowError) in
            let thumbprint = try Self.thumbprint(of: proofKey, method: "POST", url: Self.pinVerifyEndpoint, at: date, in: &state)
            try state.consumeNonce(nonce, of: profile)
            guard let enrolment = state.enrolments[profile.profileId] else { throw Self.unknownProfile(profile) }
            let valid: Bool
            switch enrolment.verifier {
            case .v2(let publicKey):
                guard DeviceKey.isWellFormedSignature(proof.value) else { throw Self.invalidRequest("The proof is not a P-256 signature.") }
                valid = DeviceKey.verify(
                    proof.value, of: PinProof.message(PinProof.Purpose.login.rawValue, profile: profile, nonce: nonce), publicKey: publicKey)
            case .v1(let verifier):
                guard proof.value.count == LegacyPinProof.keyLength else { throw Self.invalidRequest("The proof is not 32 bytes.") }
                valid = LegacyPinProof.constantTimeEquals(LegacyPinProof.proof(key: verifier, profile: profile, nonce: nonce).value, proof.value)
            }
            return valid
                ? state.acceptProof(of: profile, issuing: { issueTokens(for: $0, scopes: ["openid"], in: &$1, dpopKeyThumbprint: thumbprint) })
                : state.countWrongProof(of: profile)
        }
    }

    /// Registers the profile's biometric public key under a proof by its PIN key; a wrong proof
    /// is counted like a wrong PIN.
    @_spi(Integrator) public nonisolated(nonsending) func enrolBiometricKey(
        _ publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        try await enrolBiometricKey(publicKey, for: profile, authorization: authorization, accessToken: accessToken, proofKey: nil)
    }

    /// Registers as ``enrolBiometricKey(_:for:authorization:accessToken:)`` does, with a proof by
    /// `proofKey` for ``biometricEnrolEndpoint``, as ``enrolPin(_:accessToken:proofKey:)``.
    @_spi(Integrator) public nonisolated(nonsending) func enrolBiometricKey(
        _ publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        try await enter(.enrolBiometricKey)
        let date = now()
        try state.withLock { state throws(IdentityFlowError) in
            let proven = try Self.accessProof(of: proofKey, at: Self.biometricEnrolEndpoint, accessToken: accessToken, date: date, in: &state)
            _ = try state.enrolment(of: profile, boundTo: accessToken, proofThumbprint: proven, at: date, required: true)
            guard DeviceKey.isValidPublicKey(publicKey) else { throw Self.invalidRequest("The biometric public key is malformed.") }
            try Self.checkPinKeyProof(authorization, for: .biometricEnrolment, subject: publicKey, of: profile, in: &state)
            state.enrolments[profile.profileId]?.biometricKey = publicKey
        }
    }

    /// Checks a proof by the profile's biometric key; counts wrong ones like wrong PINs.
    @_spi(Integrator) public nonisolated(nonsending) func verifyBiometricProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8])
        async throws(IdentityFlowError) -> PinVerification
    {
        try await verifyBiometricProof(proof, for: profile, nonce: nonce, proofKey: nil)
    }

    /// Checks a biometric proof as ``verifyBiometricProof(_:for:nonce:)`` does, with a DPoP proof
    /// by `proofKey` for ``biometricVerifyEndpoint``, as ``verifyPinProof(_:for:nonce:proofKey:)``.
    @_spi(Integrator) public nonisolated(nonsending) func verifyBiometricProof(
        _ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8], proofKey: DPoPKey?
    ) async throws(IdentityFlowError) -> PinVerification {
        try await enter(.verifyBiometricProof)
        let date = now()
        return try state.withLock { state throws(IdentityFlowError) in
            let thumbprint = try Self.thumbprint(of: proofKey, method: "POST", url: Self.biometricVerifyEndpoint, at: date, in: &state)
            try state.consumeNonce(nonce, of: profile)
            guard let enrolment = state.enrolments[profile.profileId] else { throw Self.unknownProfile(profile) }
            guard let biometricKey = enrolment.biometricKey else {
                throw IdentityFlowError(.authenticatorNotRegistered, "The reference server holds no biometric key for this profile.")
            }
            guard DeviceKey.isWellFormedSignature(proof.value) else { throw Self.invalidRequest("The proof is not a P-256 signature.") }
            let message = PinProof.message(PinProof.Purpose.biometricLogin.rawValue, profile: profile, nonce: nonce)
            return DeviceKey.verify(proof.value, of: message, publicKey: biometricKey)
                ? state.acceptProof(of: profile, issuing: { issueTokens(for: $0, scopes: ["openid"], in: &$1, dpopKeyThumbprint: thumbprint) })
                : state.countWrongProof(of: profile)
        }
    }

    /// Forgets the profile's biometric key on the PIN key's proof (a wrong one counted); the PIN
    /// stays. An unknown profile is fine.
    @_spi(Integrator) public nonisolated(nonsending) func revokeBiometricKey(for profile: UserProfile, authorization: PinKeyAuthorization)
        async throws(IdentityFlowError)
    {
        try await enter(.revokeBiometricKey)
        try state.withLock { state throws(IdentityFlowError) in
            guard state.enrolments[profile.profileId] != nil else { return }
            try Self.checkPinKeyProof(authorization, for: .biometricRevocation, subject: [], of: profile, in: &state)
            state.enrolments[profile.profileId]?.biometricKey = nil
        }
    }

    /// Rotates: the refresh token is spent and a new pair issued.
    /// A DPoP-bound refresh token is refused here (it needs `refresh(_:proofKey:)` with its key).
    public nonisolated(nonsending) func refresh(_ refreshToken: Redacted<String>) async throws(IdentityFlowError) -> TokenSet {
        try await refresh(refreshToken, proofKey: nil)
    }

    /// Forgets the tokens, the refresh token first, as an RFC 7009 endpoint asked once a token:
    /// an empty token is refused with `invalid_request` (the `token` parameter is required), after
    /// the refresh token before it was revoked.
    /// DPoP-bound tokens are refused here (they need `revoke(_:proofKey:)` with their key).
    public nonisolated(nonsending) func revoke(_ tokens: TokenSet) async throws(IdentityFlowError) {
        try await revoke(tokens, proofKey: nil)
    }

    /// Removes the profile's enrolment and revokes its user's tokens, on the PIN key's proof (a
    /// wrong one counted). Unknown profiles are fine.
    @_spi(Integrator) public nonisolated(nonsending) func deregister(_ profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError)
    {
        try await enter(.deregister)
        try state.withLock { state throws(IdentityFlowError) in
            guard state.enrolments[profile.profileId] != nil else { return }
            try Self.checkPinKeyProof(authorization, for: .deregistration, subject: [], of: profile, in: &state)
            state.forget(profile)
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

    static func invalidGrant(_ message: String) -> IdentityFlowError {
        var error = IdentityFlowError(.externalIdentityProviderFailure, message)
        error.oauthError = "invalid_grant"
        return error
    }

    static func invalidRequest(_ message: String) -> IdentityFlowError {
        var error = IdentityFlowError(.requestInvalid, message)
        error.oauthError = "invalid_request"
        return error
    }

    /// Checks a proof by the profile's current (v2) PIN key over a fresh nonce and `subject` for
    /// `purpose`; a wrong one is counted like a wrong PIN.
    static func checkPinKeyProof(
        _ authorization: PinKeyAuthorization, for purpose: PinProof.Purpose, subject: [UInt8], of profile: UserProfile,
        in state: inout ServerState
    ) throws(IdentityFlowError) {
        guard let enrolment = state.enrolments[profile.profileId] else { throw unknownProfile(profile) }
        guard DeviceKey.isWellFormedSignature(authorization.proof.value) else { throw invalidRequest("The proof is not a P-256 signature.") }
        guard case .v2(let pinKey) = enrolment.verifier else { throw invalidRequest("The profile's PIN is not v2 yet.") }
        try state.consumeNonce(authorization.nonce, of: profile)
        let message = PinProof.message(purpose.rawValue, profile: profile, nonce: authorization.nonce, subject: subject)
        guard DeviceKey.verify(authorization.proof.value, of: message, publicKey: pinKey) else {
            throw wrongProof(state.countWrongProof(of: profile), profile: profile)
        }
    }

    /// The error for a counted wrong proof at an enrolment.
    private static func wrongProof(_ verdict: PinVerification, profile: UserProfile) -> IdentityFlowError {
        guard case .rejected = verdict else {
            var error = IdentityFlowError(.userDeregistered, "Too many wrong PINs: the reference server deregistered the profile.")
            error.userProfile = profile
            return error
        }
        return IdentityFlowError(.invalidPin, "The reference server refused the PIN key's proof.")
    }

    static func unknownProfile(_ profile: UserProfile) -> IdentityFlowError {
        var error = IdentityFlowError(.userDeregistered, "The server no longer knows this profile.")
        error.userProfile = profile
        return error
    }
}
