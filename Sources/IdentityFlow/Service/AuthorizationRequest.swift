import Foundation

/// What a browser registration sends to the authorization endpoint and must find again in the
/// redirect: PKCE (S256), `state` and `nonce` are always present.
@_spi(Integrator) public struct AuthorizationRequest: Sendable, Hashable, CustomStringConvertible {
    /// The redirect URI registered for the app.
    public let redirectURI: URL
    /// The scopes asked for.
    public let scopes: [String]
    /// The opaque value the redirect must carry back.
    public let state: Redacted<String>
    /// The value the ID token must carry back.
    public let nonce: Redacted<String>
    /// The PKCE code verifier (kept on the device) and challenge (sent).
    public let codeVerifier: Redacted<String>
    /// The S256 code challenge derived from the verifier. Derived on each read, not stored: a flow
    /// reads it once (to build the authorization URL) and keeps the request while it waits.
    public var codeChallenge: String { PKCE.challenge(for: codeVerifier.value) }
    /// A token that signs the user in at the authorization page without asking (7Pass's
    /// `autologin_token`, from an `interaction_required` answer); `nil` for a plain sign-in.
    public var autologinToken: Redacted<String>?
    /// This sign-in's own parameters (step-up, `prompt`, `login_hint`, ...), sent beside and
    /// instead of the service's configured ones; empty for a plain sign-in.
    public var parameters = AuthorizationParameters()
    /// The RFC 7638 thumbprint of the profile's DPoP key (``DPoPKey/thumbprint``), sent as
    /// `dpop_jkt` (RFC 9449 §10) so that the provider binds the code to the key; `nil` when the
    /// sign-in's tokens are not DPoP-bound.
    public var dpopKeyThumbprint: String?

    /// Creates a request with fresh random `state`, `nonce` and PKCE verifier: 32 random bytes
    /// (256 bits) each, drawn from the system's secure generator in one call.
    /// - Parameters:
    ///   - redirectURI: The app's redirect URI.
    ///   - scopes: The scopes to ask for.
    /// - Throws: ``IdentityFlowError`` ``ErrorCode/unknown`` if the system's random generator fails.
    package init(redirectURI: URL, scopes: [String]) throws(IdentityFlowError) {
        let entropy = PKCE.verifierEntropyByteCount
        let random: [UInt8]
        do { random = try SecureRandom.bytes(count: 3 * entropy) } catch {
            throw IdentityFlowError(.unknown, "The secure random generator failed.", underlying: error)
        }
        self.init(
            redirectURI: redirectURI, scopes: scopes,
            state: Base64URL.encode(random[0..<entropy]),
            nonce: Base64URL.encode(random[entropy..<2 * entropy]),
            codeVerifier: Base64URL.encode(random[(2 * entropy)...]))
    }

    /// Creates a request from known values (tests and replays).
    /// - Parameters:
    ///   - redirectURI: The app's redirect URI.
    ///   - scopes: The scopes.
    ///   - state: The state value.
    ///   - nonce: The nonce.
    ///   - codeVerifier: The PKCE verifier; the S256 challenge is derived from it.
    package init(redirectURI: URL, scopes: [String], state: String, nonce: String, codeVerifier: String) {
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.state = Redacted(state)
        self.nonce = Redacted(nonce)
        self.codeVerifier = Redacted(codeVerifier)
    }

    /// The PKCE method, always `S256`.
    public var codeChallengeMethod: String { "S256" }

    /// Lists the redirect URI and scopes; the secrets print redacted.
    public var description: String {
        "AuthorizationRequest(redirectURI: \(redirectURI), scopes: \(scopes), state: <redacted>, nonce: <redacted>, pkce: S256)"
    }
}
