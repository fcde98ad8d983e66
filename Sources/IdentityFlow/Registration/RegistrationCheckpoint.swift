import Foundation

/// What a browser registration writes to ``SecureStorage`` before it hands the host the browser
/// challenge, so that the registration can continue in a new process when the redirect comes back.
///
/// Stored as JSON under ``storageKey`` (format in docs/checkpoint.md, version ``version``). It holds
/// the PKCE verifier, `state` and `nonce`: secrets protected like tokens (the same storage), printed
/// as `<redacted>` everywhere. One checkpoint at a time: a client runs one flow at a time, and a
/// new registration supersedes the old checkpoint. Any terminal outcome deletes it, and so does
/// the code exchange (the code is single-use, so the checkpoint cannot serve twice).
struct RegistrationCheckpoint: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The format version written; a file of another version is refused as unreadable.
    static let version = 1
    /// The storage key.
    static let storageKey = "identityflow.checkpoint.registration"

    /// The flow this checkpoint continues (`registration.browser` today).
    let kind: String
    let profile: UserProfile
    let provider: IdentityProvider
    let authorization: AuthorizationRequest
    /// The URL the browser challenge opens, handed again to a resumed flow that still waits.
    let authorizationURL: URL
    let createdAt: Date
    let expiresAt: Date
    /// The thumbprint of the DPoP key the authorization request named (`dpop_jkt`), if any.
    private(set) var dpopKeyThumbprint: String?
    /// That key's stored form, where it may be written (``keeping(_:deviceMode:)``): a secret
    /// like the PKCE verifier.
    private(set) var dpopKey: StoredDPoPKey?

    /// A checkpoint for a browser registration that starts waiting now.
    init(context: RegistrationMachine.Context, authorizationURL: URL, now: Date, lifetime: Duration) throws(IdentityFlowError) {
        guard let authorization = context.authorization else {
            throw IdentityFlowError(.invalidIdentityProvider, "Only a browser registration waits outside the app.")
        }
        self.init(
            kind: "registration.browser", profile: context.profile, provider: context.provider,
            authorization: authorization, authorizationURL: authorizationURL,
            createdAt: now, expiresAt: now.addingTimeInterval(lifetime.timeInterval))
    }

    init(
        kind: String, profile: UserProfile, provider: IdentityProvider, authorization: AuthorizationRequest,
        authorizationURL: URL, createdAt: Date, expiresAt: Date
    ) {
        self.kind = kind
        self.profile = profile
        self.provider = provider
        self.authorization = authorization
        self.authorizationURL = authorizationURL
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// What the host is told about it (no secrets).
    var summary: ResumableRegistration {
        ResumableRegistration(profile: profile, identityProvider: provider, createdAt: createdAt, expiresAt: expiresAt)
    }

    /// Whether `url` is this registration's redirect: its `state` parameter equals ours, compared
    /// as bytes (Unicode-equivalent strings are not the same state), or it is a provider callback
    /// without state at our redirect URI (Zephr's).
    func claims(_ url: URL) -> Bool { BrowserRedirect.belongs(url, state: authorization.state.value, redirectURI: authorization.redirectURI) }

    func isExpired(at now: Date) -> Bool { now >= expiresAt }

    var description: String {
        "RegistrationCheckpoint(\(kind), \(profile.profileId), \(provider.identifier), state: <redacted>, nonce: <redacted>, pkce: <redacted>, expires: \(expiresAt))"
    }

    var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// This checkpoint with the registration's DPoP key, so that a resumed registration exchanges
    /// its code (bound to the key by `dpop_jkt`) with the same key. The thumbprint is always kept;
    /// the key's stored form only where writing it keeps the device-mode promise that no software
    /// private key is written in clear: always in server mode (the checkpoint is as protected as
    /// the tokens beside it), and a Secure Enclave handle (useless off its device) in either mode.
    /// A device-mode registration with a software key then resumes with a redirect in the same
    /// process only; in a new one it asks for the browser again with a new key (docs/checkpoint.md).
    /// - Parameters:
    ///   - key: The registration's DPoP key, if it has one.
    ///   - deviceMode: Whether the profile's authenticators live on the device.
    /// - Returns: The checkpoint to write.
    func keeping(_ key: DPoPKey?, deviceMode: Bool) -> RegistrationCheckpoint {
        var checkpoint = self
        checkpoint.dpopKeyThumbprint = key?.thumbprint
        if let stored = key?.storedForm {
            if case .software = stored, deviceMode { return checkpoint }
            checkpoint.dpopKey = stored
        }
        return checkpoint
    }
}

// MARK: - Storage format

extension RegistrationCheckpoint {
    private struct Stored: Codable {
        var version: Int
        var kind: String
        var profileId: String
        var providerIdentifier: String
        var providerName: String
        var redirectURI: URL
        var scopes: [String]
        var state: String
        var nonce: String
        var codeVerifier: String
        var authorizationURL: URL
        var createdAt: Double
        var expiresAt: Double
        /// A stateless registration's (absent in checkpoints of earlier versions: not stateless).
        var stateless: Bool?
        /// What the ID token is checked against (``AuthorizationParameters``); absent in
        /// checkpoints written before step-up, which asked for none.
        var acrValues: [String]?
        var requiresRequestedACR: Bool?
        var maxAge: Int?
        var authTimeLeeway: Double?
        /// The registration's DPoP key (``RegistrationCheckpoint/keeping(_:deviceMode:)``);
        /// absent without DPoP and in checkpoints written before it.
        var dpopKeyThumbprint: String?
        var dpopKey: StoredDPoPKey?
    }

    /// The JSON written to storage.
    func jsonData() throws(IdentityFlowError) -> Data {
        let stored = Stored(
            version: Self.version, kind: kind, profileId: profile.profileId,
            providerIdentifier: provider.identifier, providerName: provider.name,
            redirectURI: authorization.redirectURI, scopes: authorization.scopes,
            state: authorization.state.value, nonce: authorization.nonce.value,
            codeVerifier: authorization.codeVerifier.value, authorizationURL: authorizationURL,
            createdAt: createdAt.timeIntervalSince1970, expiresAt: expiresAt.timeIntervalSince1970,
            stateless: profile.isStateless ? true : nil,
            acrValues: authorization.parameters.acrValues, requiresRequestedACR: authorization.parameters.requiresRequestedACR,
            maxAge: authorization.parameters.maxAge, authTimeLeeway: authorization.parameters.authTimeLeeway,
            dpopKeyThumbprint: dpopKeyThumbprint, dpopKey: dpopKey)
        do { return try JSONEncoder().encode(stored) } catch {
            throw IdentityFlowError(.dataStorageNotAvailable, "The registration checkpoint could not be encoded.", underlying: error)
        }
    }

    /// Reads a stored checkpoint; `nil` for data of another version or kind, or that is not one.
    init?(jsonData data: Data) {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data),
            stored.version == Self.version, stored.kind == "registration.browser",
            stored.createdAt.isFinite, stored.expiresAt.isFinite
        else { return nil }
        var authorization = AuthorizationRequest(
            redirectURI: stored.redirectURI, scopes: stored.scopes, state: stored.state,
            nonce: stored.nonce, codeVerifier: stored.codeVerifier)
        authorization.parameters = AuthorizationParameters(
            acrValues: stored.acrValues ?? [], requiresRequestedACR: stored.requiresRequestedACR ?? true, maxAge: stored.maxAge)
        authorization.parameters.authTimeLeeway = stored.authTimeLeeway ?? authorization.parameters.authTimeLeeway
        self.init(
            kind: stored.kind, profile: UserProfile(profileId: stored.profileId, isStateless: stored.stateless == true),
            provider: IdentityProvider(identifier: stored.providerIdentifier, name: stored.providerName, kind: .browser),
            authorization: authorization,
            authorizationURL: stored.authorizationURL,
            createdAt: Date(timeIntervalSince1970: stored.createdAt), expiresAt: Date(timeIntervalSince1970: stored.expiresAt))
        dpopKeyThumbprint = stored.dpopKeyThumbprint
        dpopKey = stored.dpopKey
    }
}

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
