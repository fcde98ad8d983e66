/// The extension calls that carry the user's access token (`pin/enrol`, `biometric/enrol`,
/// `mobile-auth/enrol`, `mobile-auth/push`, `implicit/enrol`) with DPoP-bound tokens (RFC 9449
/// §7): the token goes as `Authorization: DPoP <token>` with a proof by the key it is bound to,
/// so that a server that checks proofs accepts it, and a copy of the token alone is refused.
extension ServerAuthenticators {
    /// The key an extension call carrying `tokens`' access token proves with: `key` when the
    /// tokens are DPoP-bound (``TokenSet/isSenderConstrained``), `nil` for bearer tokens.
    /// - Parameters:
    ///   - tokens: The tokens whose access token the call carries.
    ///   - key: The key they are bound to (a registration's, not stored yet, or the profile's).
    /// - Returns: The key to prove with, or `nil`.
    /// - Throws: ``ErrorCode/dpopProofRefused`` when the tokens are bound but the key cannot be
    ///   opened: a bound token without its proof would be refused; nothing is sent.
    static func accessProofKey(for tokens: TokenSet, key: @autoclosure () -> DPoPKey?) throws(IdentityFlowError) -> DPoPKey? {
        guard tokens.isSenderConstrained else { return nil }
        guard let key = key() else {
            throw IdentityFlowError(
                .dpopProofRefused, "The session's tokens are DPoP-bound, but the profile's DPoP key could not be opened; nothing was sent.")
        }
        return key
    }

    /// ``accessProofKey(for:key:)`` with the stored profile's DPoP key.
    /// - Parameters:
    ///   - tokens: The session's tokens.
    ///   - profile: The profile they belong to.
    /// - Returns: The key to prove with, or `nil` for bearer tokens.
    /// - Throws: ``ErrorCode/dpopProofRefused`` when the tokens are bound and the key cannot be opened.
    func accessProofKey(for tokens: TokenSet, of profile: UserProfile) throws(IdentityFlowError) -> DPoPKey? {
        try Self.accessProofKey(for: tokens, key: sessions.dpopKey(for: profile))
    }
}
