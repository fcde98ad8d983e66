import Foundation
@_spi(Integrator) import IdentityFlow

/// Everything the ``ReferenceIdentityService`` remembers.
struct ServerState: Sendable {
    struct Grant: Sendable {
        let user: String
        let codeChallenge: String
        let redirectURI: URL
        let scopes: [String]
        /// The authorization request's `nonce`, for the ID token.
        var nonce: String? = nil
        /// The authorization request's `acr_values`, for the ID token's `acr`.
        var acrValues: [String] = []
        /// When the user authenticated, for the ID token's `auth_time`.
        var authTime: Date? = nil
        /// The authorization request's `dpop_jkt`: the code is bound to that key (RFC 9449 §10).
        var dpopKeyThumbprint: String? = nil
    }

    struct AccessGrant: Sendable {
        let user: String
        let expiresAt: Date
        /// The sign-in it belongs to (its refresh-token family); `nil` for an implicit token.
        let family: String?
        /// The thumbprint of the DPoP key the token is bound to (`cnf.jkt`); `nil` for a bearer token.
        var dpopKeyThumbprint: String? = nil
    }

    struct RefreshGrant: Sendable {
        let user: String
        let family: String
        /// The thumbprint of the DPoP key the token is bound to; `nil` for a bearer token.
        var dpopKeyThumbprint: String? = nil
    }

    /// A pushed authorization request (RFC 9126): its parameters, until it expires or is used.
    struct PushedRequest: Sendable {
        let parameters: [(name: String, value: String)]
        let expiresAt: Date
    }

    /// What the server checks PIN proofs with: a v2 public key, or a v1 profile's verifier.
    enum PinVerifier: Sendable {
        case v1(Redacted<[UInt8]>)
        case v2(publicKey: [UInt8])
    }

    struct Enrolment: Sendable {
        let user: String
        let salt: [UInt8]
        let iterations: Int
        let verifier: PinVerifier
        var biometricKey: [UInt8]?
        var failureCount: Int
    }

    /// A profile's mobile authentication enrolment.
    struct MobileAuthEnrolment: Sendable {
        let publicKey: [UInt8]
        var pushToken: [UInt8]?
    }

    /// A mobile authentication request the server sent.
    struct MobileAuthEntry: Sendable {
        let request: MobileAuthRequest
        let otp: String?
        /// `nil` while open; the decision once answered.
        var accepted: Bool?
    }

    var maxPinFailures: Int
    var accessTokenLifetime: TimeInterval
    var providers: [IdentityProvider] = [ReferenceIdentityService.browserProvider]
    var scripts: [String: CustomProviderScript] = [:]
    var users: Set<String> = ["alice", "bob"]
    var grants: [String: Grant] = [:]
    var accessTokens: [String: AccessGrant] = [:]
    var refreshTokens: [String: RefreshGrant] = [:]
    /// Sign-ins (token families) bound to a profile id: by its first PIN enrolment, or issued by
    /// one of its PIN or biometric logins. A bound sign-in cannot enrol another profile.
    var boundFamilies: [String: String] = [:]
    var customSessions: [String: String] = [:]
    var enrolments: [String: Enrolment] = [:]
    var nonces: [[UInt8]: String] = [:]
    var mobileAuth: [String: MobileAuthEnrolment] = [:]
    var mobileAuthRequests: [String: MobileAuthEntry] = [:]
    var pushesSent: [MobileAuthPush] = []
    var implicitKeys: [String: [UInt8]] = [:]
    var implicitScopes: Set<String> = ["read"]
    var offersAppLogin = false
    /// Whether ``ReferenceIdentityService/endSessionURL(for:)`` offers a logout page.
    var offersProviderLogout = true
    /// Users whose browser session a provider logout ended, in order.
    var providerLogouts: [String] = []
    /// The `acr` ID tokens claim instead of the first requested one (`""`: none at all).
    var acrOverride: String?
    /// How long before the sign-in the user last authenticated (auth_time's age).
    var authenticationAge: TimeInterval = 0
    var passwords: [String: String] = [:]
    var usersNeedingInteraction: Set<String> = []
    var autologinTokens: [String: String] = [:]
    var externalTokens: [String: (provider: String, user: String)] = [:]
    /// Partial registrations by state key: the browser step's grant, waiting for attributes.
    var partialGrants: [String: (grant: Grant, identifier: String, expiresAt: Date)] = [:]
    var faults: [ServiceCall: [ServiceFault]] = [:]
    var calls: [ServiceCall] = []
    /// What the server says of DPoP and PAR (``ReferenceIdentityService/SenderConstraint``).
    var senderConstraint = ReferenceIdentityService.SenderConstraint()
    /// Pushed authorization requests by `request_uri`.
    var pushedRequests: [String: PushedRequest] = [:]
    /// The `jti` of every DPoP proof the token, revocation and userinfo endpoints accepted, until
    /// it could no longer pass the `iat` window.
    var seenProofs: [String: Date] = [:]
    private var serial = 0

    init(maxPinFailures: Int, accessTokenLifetime: TimeInterval) {
        self.maxPinFailures = maxPinFailures
        self.accessTokenLifetime = accessTokenLifetime
    }

    /// A fresh unique suffix for codes, tokens and sessions.
    mutating func nextSerial() -> String {
        serial += 1
        return String(serial) + "-" + ((try? SecureRandom.token(byteCount: 6)) ?? "")
    }

    /// The user an access token belongs to, if the server accepts it at `date`.
    func user(forAccessToken token: String, at date: Date) -> String? {
        accessTokens[token].flatMap { $0.expiresAt > date ? $0.user : nil }
    }

    /// Consumes a nonce: it must have been issued for `profile`.
    mutating func consumeNonce(_ nonce: [UInt8], of profile: UserProfile) throws(IdentityFlowError) {
        guard nonces.removeValue(forKey: nonce) == profile.profileId else {
            var error = IdentityFlowError(.requestInvalid, "The PIN nonce is unknown, used or for another profile.")
            error.oauthError = "invalid_nonce"
            throw error
        }
    }

    /// The grant of an access token an extension endpoint accepts: live, not an implicit token
    /// (those serve resource servers only) and, when it is DPoP-bound, presented with a proof by
    /// its key (RFC 9449 §7, as a resource server checks): `proofThumbprint` is the thumbprint of
    /// the key whose proof (with `ath` of this token) the request carried, `nil` without one.
    func bearer(_ accessToken: Redacted<String>, at date: Date, proofThumbprint: String?) throws(IdentityFlowError) -> AccessGrant {
        guard let grant = accessTokens[accessToken.value], grant.expiresAt > date else {
            throw IdentityFlowError(.userNotAuthenticated, "The reference server does not accept this access token.")
        }
        guard grant.family != nil else {
            throw Self.tokenNotAllowed("An implicit authentication token serves resource servers only, never the extension endpoints.")
        }
        if let bound = grant.dpopKeyThumbprint, bound != proofThumbprint {
            throw ReferenceIdentityService.dpopRefused(
                "The access token is DPoP-bound: the extension endpoint needs it with a proof by its key (a copied token alone is refused).")
        }
        return grant
    }

    /// The refusal of a token unfit for the call (`403 token_not_allowed`).
    static func tokenNotAllowed(_ message: String) -> IdentityFlowError {
        var error = IdentityFlowError(.accessTokenNotAllowed, message)
        error.oauthError = "token_not_allowed"
        return error
    }

    /// The profile's enrolment, checking that `accessToken` belongs to its user (and, when it is
    /// DPoP-bound, came with a proof by its key: ``bearer(_:at:proofThumbprint:)``); `nil` when
    /// there is none and none is `required`.
    func enrolment(of profile: UserProfile, boundTo accessToken: Redacted<String>, proofThumbprint: String?, at date: Date, required: Bool)
        throws(IdentityFlowError) -> Enrolment?
    {
        let user = try bearer(accessToken, at: date, proofThumbprint: proofThumbprint).user
        guard let enrolment = enrolments[profile.profileId] else {
            if required { throw IdentityFlowError(.requestInvalid, "The reference server knows no profile \(profile.profileId).") }
            return nil
        }
        guard enrolment.user == user else { throw IdentityFlowError(.requestInvalid, "The profile belongs to another user.") }
        return enrolment
    }

    /// A right proof: the failure count starts again and the user gets fresh tokens, a sign-in
    /// bound to the profile.
    mutating func acceptProof(of profile: UserProfile, issuing issue: (String, inout ServerState) -> TokenSet) -> PinVerification {
        guard var enrolment = enrolments[profile.profileId] else { return .deregistered }
        enrolment.failureCount = 0
        enrolments[profile.profileId] = enrolment
        let tokens = issue(enrolment.user, &self)
        if let family = accessTokens[tokens.accessToken.value]?.family { boundFamilies[family] = profile.profileId }
        return .accepted(tokens)
    }

    /// Counts a wrong proof for `profile`: the verdict, deregistering (enrolment removed, tokens
    /// revoked) at the limit.
    mutating func countWrongProof(of profile: UserProfile) -> PinVerification {
        guard var enrolment = enrolments[profile.profileId] else { return .deregistered }
        enrolment.failureCount += 1
        guard enrolment.failureCount < maxPinFailures else {
            forget(profile)
            return .deregistered
        }
        enrolments[profile.profileId] = enrolment
        return .rejected(failureCount: enrolment.failureCount, maxFailureCount: maxPinFailures)
    }

    /// Forgets a profile: its enrolment, device keys and requests, and its user's tokens.
    mutating func forget(_ profile: UserProfile) {
        let id = profile.profileId
        if let enrolment = enrolments.removeValue(forKey: id) { revokeAllTokens(of: enrolment.user) }
        boundFamilies = boundFamilies.filter { $0.value != id }
        mobileAuth[id] = nil
        implicitKeys[id] = nil
        mobileAuthRequests = mobileAuthRequests.filter { $0.value.request.userProfile.profileId != id }
    }

    /// Revokes every token of a user.
    mutating func revokeAllTokens(of user: String) {
        accessTokens = accessTokens.filter { $0.value.user != user }
        refreshTokens = refreshTokens.filter { $0.value.user != user }
    }
}
