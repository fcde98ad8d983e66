import Foundation
import Statechart

/// Implicit authentication: an access token for the scopes the server marks implicit, with no
/// user interaction, signed by a key bound to this device and profile (`docs/mobile-auth.md`).
extension UserClient {
    /// Obtains an access token for implicit scopes (say, showing the user's name before login).
    /// Nothing is asked and nothing is stored; the user is not logged in, and PIN-protected
    /// scopes are refused by the server. It may run while a flow runs.
    ///
    /// ```swift
    /// let implicit = try await client.implicitlyAuthenticate(profile, scopes: ["read"])
    /// request.setValue("Bearer \(implicit.tokens.accessToken.value)", forHTTPHeaderField: "Authorization")
    /// ```
    /// - Parameters:
    ///   - profile: A profile registered on this device.
    ///   - scopes: Scopes the server marks implicit.
    /// - Returns: The profile and its implicit tokens (an access token, no refresh token).
    /// - Throws: ``ErrorCode/userDeregistered`` when the server no longer knows the profile (it is
    ///   then removed from this device), ``ErrorCode/implicitAuthNotEnrolled`` when the server
    ///   holds no implicit key for it, ``ErrorCode/requestInvalid`` for an unknown profile, empty
    ///   or non-implicit scopes, ``ErrorCode/statelessUser`` for a stateless profile,
    ///   ``ErrorCode/deviceProofRefused`` when the server holds another key.
    public func implicitlyAuthenticate(_ profile: UserProfile, scopes: [String]) async throws(IdentityFlowError) -> ImplicitAuthentication {
        try requireStarted()
        guard !scopes.isEmpty else { throw IdentityFlowError(.requestInvalid, "Implicit authentication needs at least one scope.") }
        let stored = try storedProfile(profile)
        if stored.profile.isStateless {
            throw IdentityFlowError(.statelessUser, "A stateless profile has no device key for implicit authentication.")
        }
        let key = try sessions.deviceKey(.implicitAuthentication, of: stored)
        do throws(IdentityFlowError) {
            guard let challenge = try await serverAuthenticators.challenge(for: profile, speaking: 2, derivesPinKey: false) else {
                throw PinEntry.deregisteredError(profile)
            }
            let message = DeviceKeyProof.message(.implicitToken, profile: profile, nonce: challenge.nonce, subject: DeviceKeyProof.scopeSubject(scopes))
            let tokens = try await service.implicitAccessToken(
                scopes: scopes, for: profile,
                authorization: PinKeyAuthorization(nonce: challenge.nonce, proof: key.sign(message)))
            return ImplicitAuthentication(profile: profile, tokens: tokens)
        } catch  where error.code == .userDeregistered {
            sessions.forgetProfile(profile, flow: nil)
            throw PinEntry.deregisteredError(profile)
        }
    }

    /// Obtains an implicit token, calling back on the configured executor. See
    /// ``implicitlyAuthenticate(_:scopes:)``.
    /// - Parameters:
    ///   - profile: A profile registered on this device.
    ///   - scopes: Scopes the server marks implicit.
    ///   - completion: Called once with the tokens or the error.
    public func implicitlyAuthenticate(
        _ profile: UserProfile, scopes: [String],
        completion: @escaping @Sendable (Result<ImplicitAuthentication, IdentityFlowError>) -> Void
    ) {
        let executor = configuration.callbackExecutor
        Task {
            let outcome: Result<ImplicitAuthentication, IdentityFlowError>
            do throws(IdentityFlowError) { outcome = .success(try await implicitlyAuthenticate(profile, scopes: scopes)) } catch { outcome = .failure(error) }
            executor.run { completion(outcome) }
        }
    }

    /// Registers the logged-in profile's implicit authentication key with the server, vouched
    /// for by the PIN key of the session. A registration does this by itself; call it for
    /// profiles registered before the server offered implicit authentication
    /// (``ErrorCode/implicitAuthNotEnrolled``).
    /// - Throws: ``ErrorCode/userNotAuthenticated`` without a logged-in user,
    ///   ``ErrorCode/pinProofRequired`` when the session was opened with biometrics (log in with
    ///   the PIN first), ``ErrorCode/featureNotSupported`` when the service does not offer it; the
    ///   service's errors.
    public func enrollImplicitAuthentication() async throws(IdentityFlowError) {
        let (stored, tokens) = try loggedInProfileWithKeys(for: "Implicit authentication")
        let server = serverAuthenticators
        try await server.enrolImplicitKey(
            of: stored.profile, deviceSecret: stored.deviceSecret, pinKey: sessionPinKey(for: stored.profile), accessToken: tokens.accessToken,
            proofKey: try server.accessProofKey(for: tokens, of: stored.profile))
    }
}

/// The implicit authentication key's enrolment, vouched for by the PIN key: by a registration
/// (best effort) and by ``UserClient/enrollImplicitAuthentication()``.
extension ServerAuthenticators {
    /// Registers the implicit key derived from `deviceSecret`, vouched for by `pinKey`; `proofKey`
    /// (the key DPoP-bound tokens are bound to) proves the access token's use.
    nonisolated(nonsending) func enrolImplicitKey(
        of profile: UserProfile, deviceSecret: Redacted<[UInt8]>?, pinKey: ProvenPinKey,
        accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        guard let deviceSecret else {
            throw IdentityFlowError(.pinParametersRefused, "The profile still uses PIN proof v1; log in with the PIN once to upgrade it.")
        }
        let key = DeviceKeyProof.key(.implicitAuthentication, deviceSecret: deviceSecret, profile: profile)
        let authorization = try await pinKeyAuthorization(.implicitEnrolment, for: profile, key: pinKey, publicKey: key.publicKey)
        try await service.enrolImplicitAuthentication(
            publicKey: key.publicKey, for: profile, authorization: authorization, accessToken: accessToken, proofKey: proofKey)
    }

    /// A registration's best-effort enrolment of the implicit key: a service without implicit
    /// authentication is fine, and any other failure is logged (the user can enrol later with
    /// ``enrollImplicitAuthentication()``); the registration goes on either way.
    nonisolated(nonsending) func enrolImplicitKeyIfOffered(
        of profile: UserProfile, deviceSecret: Redacted<[UInt8]>, pinKey: ProvenPinKey,
        accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async {
        do throws(IdentityFlowError) {
            try await enrolImplicitKey(of: profile, deviceSecret: deviceSecret, pinKey: pinKey, accessToken: accessToken, proofKey: proofKey)
        } catch {
            guard error.code != .featureNotSupported else { return }
            dependencies.configuration.logger.log(
                .warning, "The implicit authentication key was not registered (enrollImplicitAuthentication() can do it later): \(error)")
        }
    }
}
