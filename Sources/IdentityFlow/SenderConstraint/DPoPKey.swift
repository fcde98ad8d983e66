import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A profile's DPoP key (RFC 9449), P-256 / ES256: it signs one proof per request, and the
/// provider binds the profile's tokens to it, so that a copied access or refresh token is worth
/// nothing without the key.
///
/// Where the key lives: on Apple devices with a Secure Enclave, in the enclave (created there,
/// never exportable; what is stored is the enclave's opaque handle); elsewhere (Linux, the
/// simulator, Macs without one) a software key whose private scalar is only ever written sealed
/// in the device vault or in the platform's secure storage (``StoredDPoPKey``).
///
/// ```swift
/// let proof = try key.proof(method: "POST", url: tokenEndpoint, at: Date())
/// request.setValue(proof.value, forHTTPHeaderField: "DPoP")
/// ```
@_spi(Integrator) public struct DPoPKey: Sendable, Hashable, CustomStringConvertible {
    /// What signs.
    let signer: any DPoPSigner
    /// The public key's JWK members `x` and `y`, base64url.
    private let x: String
    private let y: String

    /// RFC 7638 JWK SHA-256 thumbprint, base64url (the `dpop_jkt` authorization parameter and
    /// the `cnf.jkt` of the tokens bound to this key).
    public let thumbprint: String

    /// A key signed by `signer`.
    /// - Parameter signer: A software or Secure Enclave signer; its public key must be a SEC1
    ///   uncompressed P-256 point (65 bytes, `0x04 ‖ x ‖ y`).
    package init(signer: any DPoPSigner) {
        let point = signer.publicKey
        precondition(point.count == 65 && point[0] == 0x04, "A DPoP key's public key is an uncompressed P-256 point")
        self.signer = signer
        self.x = Base64URL.encode(point[1..<33])
        self.y = Base64URL.encode(point[33..<65])
        self.thumbprint = Self.thumbprint(x: x, y: y)
    }

    /// The RFC 7638 thumbprint of a P-256 public key given by its JWK coordinates: SHA-256 of
    /// `{"crv":"P-256","kty":"EC","x":"…","y":"…"}` (the required members in lexicographic order,
    /// no whitespace), base64url.
    /// - Parameters:
    ///   - x: The JWK's `x`, base64url.
    ///   - y: The JWK's `y`, base64url.
    /// - Returns: The thumbprint, 43 characters.
    package static func thumbprint(x: String, y: String) -> String {
        Base64URL.encode(Hashing.sha256(#"{"crv":"P-256","kty":"EC","x":""# + x + #"","y":""# + y + #""}"#))
    }

    /// The public key, SEC1 uncompressed (65 bytes).
    package var publicKey: [UInt8] { signer.publicKey }

    /// The public JWK as the proof's header carries it: `{"kty":"EC","crv":"P-256","x":…,"y":…}`.
    package var publicJWK: [String: String] { ["kty": "EC", "crv": "P-256", "x": x, "y": y] }

    /// A proof JWT for one request (RFC 9449 §4.2).
    ///
    /// Header `{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":…,"y":…}}`
    /// (the public key only); claims `jti` (128 random bits, fresh for every proof), `htm`, `htu`
    /// (the URL without query and fragment), `iat` (whole seconds), `ath` (base64url SHA-256 of the
    /// access token's ASCII bytes, when one is given) and `nonce` (when the server gave one).
    /// - Parameters:
    ///   - method: The request's HTTP method (`POST`, `GET`).
    ///   - url: The request's URL; its query and fragment are left out of `htu`.
    ///   - accessToken: The access token the request carries (resource and userinfo requests).
    ///   - nonce: The server's latest `DPoP-Nonce` for this origin, if any.
    ///   - date: The proof's `iat`.
    /// - Returns: The compact JWT; a secret until it is sent (it authorizes the request).
    /// - Throws: ``ErrorCode/unknown`` when the random generator fails,
    ///   ``ErrorCode/dataStorageNotAvailable`` when the Secure Enclave refuses to sign.
    public func proof(method: String, url: URL, accessToken: Redacted<String>? = nil, nonce: String? = nil, at date: Date) throws(IdentityFlowError)
        -> Redacted<String>
    {
        let jti: String
        do { jti = try SecureRandom.token(byteCount: 16) } catch {
            throw IdentityFlowError(.unknown, "The secure random generator failed.", underlying: error)
        }
        let header =
            #"{"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"# + Self.json(x) + #","y":"# + Self.json(y) + "}}"
        var claims =
            #"{"jti":"# + Self.json(jti) + #","htm":"# + Self.json(method.uppercased()) + #","htu":"# + Self.json(Self.htu(url))
            + #","iat":"# + String(Int64(date.timeIntervalSince1970.rounded(.down)))
        if let accessToken { claims += #","ath":"# + Self.json(Self.accessTokenHash(accessToken)) }
        if let nonce { claims += #","nonce":"# + Self.json(nonce) }
        claims += "}"

        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try signer.sign(Array(signingInput.utf8))
        guard signature.count == 64 else {
            throw IdentityFlowError(.unknown, "The DPoP key produced a signature of \(signature.count) bytes instead of 64.")
        }
        return Redacted(signingInput + "." + Base64URL.encode(signature))
    }

    /// A JSON string literal, escaped as ``JSONWriter`` escapes.
    private static func json(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The `htu` of a request URL: the URL without its query and fragment (RFC 9449 §4.2).
    /// - Parameter url: The request URL.
    /// - Returns: Scheme, authority and path as the request names them.
    package static func htu(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.absoluteString }
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        return components.string ?? url.absoluteString
    }

    /// The `ath` of an access token: base64url of the SHA-256 of its ASCII bytes (RFC 9449 §4.2).
    /// - Parameter accessToken: The access token.
    /// - Returns: 43 base64url characters.
    package static func accessTokenHash(_ accessToken: Redacted<String>) -> String {
        Base64URL.encode(Hashing.sha256(accessToken.value))
    }

    /// Two keys are the same key when their public keys are.
    public static func == (lhs: DPoPKey, rhs: DPoPKey) -> Bool { lhs.thumbprint == rhs.thumbprint }

    /// Hashes the thumbprint.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(thumbprint) }

    /// `DPoPKey(thumbprint: …)`: the public key's thumbprint only.
    public var description: String { "DPoPKey(thumbprint: \(thumbprint))" }
}

extension DPoPKey {
    /// A new key: in the Secure Enclave where the device has one (Apple platforms,
    /// `SecureEnclave.isAvailable`), a software key otherwise (Linux, the simulator, Macs without
    /// an enclave). A device with an enclave that fails to create the key throws rather than
    /// falling back, so that a key reported as hardware-bound always is.
    /// - Returns: The key.
    /// - Throws: ``ErrorCode/dataStorageNotAvailable`` when the Secure Enclave cannot create a key;
    ///   ``ErrorCode/unknown`` when the random generator fails.
    package static func generate() throws(IdentityFlowError) -> DPoPKey {
        #if canImport(CryptoKit) && !os(Linux)
        if SecureEnclaveDPoPSigner.isAvailable { return DPoPKey(signer: try SecureEnclaveDPoPSigner.generate()) }
        #endif
        return DPoPKey(signer: try SoftwareDPoPSigner.generate())
    }

    /// Loads a stored key.
    /// - Parameter stored: What ``storedForm`` gave when the key was created.
    /// - Throws: ``ErrorCode/sealedDataInvalid`` when the stored form is not a usable key on this
    ///   device (a corrupt scalar; a Secure Enclave handle of another device, or on a platform
    ///   without an enclave).
    package init(stored: StoredDPoPKey) throws(IdentityFlowError) {
        switch stored {
        case .software(let privateKey):
            self.init(signer: try SoftwareDPoPSigner(privateKey: privateKey))
        case .secureEnclave(let dataRepresentation):
            #if canImport(CryptoKit) && !os(Linux)
            self.init(signer: try SecureEnclaveDPoPSigner(dataRepresentation: dataRepresentation))
            #else
            _ = dataRepresentation
            throw IdentityFlowError(.sealedDataInvalid, "The profile's DPoP key lives in a Secure Enclave, which this platform does not have.")
            #endif
        }
    }

    /// What to store so that ``init(stored:)`` loads this key again (a secret: seal it).
    package var storedForm: StoredDPoPKey { signer.storedForm }

    /// Whether the private key is held by hardware (the Secure Enclave) rather than in memory.
    package var isHardwareBacked: Bool {
        if case .secureEnclave = storedForm { return true }
        return false
    }

    /// A resource request authorized with this key (RFC 9449 §7.1): `Authorization: DPoP <token>`
    /// and `DPoP: <proof>`, the proof carrying `ath` for the token and the request's method and URL.
    /// - Parameters:
    ///   - request: The request (its method defaults to `GET`).
    ///   - accessToken: The DPoP-bound access token.
    ///   - nonce: The resource server's latest `DPoP-Nonce`, if any.
    ///   - date: The proof's `iat`.
    /// - Returns: The request with both headers set (any earlier `Authorization` replaced).
    /// - Throws: ``ErrorCode/requestInvalid`` for a request without a URL; as ``proof(method:url:accessToken:nonce:at:)``.
    package func authorize(_ request: URLRequest, accessToken: Redacted<String>, nonce: String?, at date: Date) throws(IdentityFlowError) -> URLRequest {
        guard let url = request.url else { throw IdentityFlowError(.requestInvalid, "A request without a URL cannot carry a DPoP proof.") }
        let proof = try proof(method: request.httpMethod ?? "GET", url: url, accessToken: accessToken, nonce: nonce, at: date)
        var authorized = request
        authorized.setValue("DPoP \(accessToken.value)", forHTTPHeaderField: "Authorization")
        authorized.setValue(proof.value, forHTTPHeaderField: "DPoP")
        return authorized
    }
}
