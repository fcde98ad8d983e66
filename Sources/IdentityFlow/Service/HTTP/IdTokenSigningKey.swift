/// A provider's ID token signing key from its JWKS: RSA for `RS256`, or a P-256 point for `ES256`.
enum IdTokenSigningKey: Sendable {
    /// An RSA key (`kty` `RSA`).
    case rs256(RSAPublicKey)
    /// A P-256 key (`kty` `EC`, `crv` `P-256`) as a SEC1 uncompressed point.
    case es256([UInt8])

    /// The algorithms an ID token may name; `none` and the HMAC algorithms are never among them.
    static let algorithms = ["RS256", "ES256"]

    /// The `alg` this key verifies.
    var algorithm: String {
        switch self {
        case .rs256: "RS256"
        case .es256: "ES256"
        }
    }

    /// Whether `token` names this key's algorithm and its signature verifies under this key.
    func verifies(_ token: JSONWebToken) -> Bool {
        switch self {
        case .rs256(let key): token.verifyRS256(with: key)
        case .es256(let point): token.verifyES256(with: point)
        }
    }

    /// The signing key a JWKS entry holds, or `nil` for one the client does not use: another key
    /// type or curve, an encryption key (`use` `enc`), an `alg` other than the key type's, or
    /// parameters that do not make a valid key.
    init?(jwk entry: JSONValue) {
        guard entry["use"]?.stringValue ?? "sig" == "sig" else { return nil }
        switch entry["kty"]?.stringValue {
        case "RSA":
            guard let n = entry["n"]?.stringValue, let e = entry["e"]?.stringValue,
                  let key = try? RSAPublicKey(jwkModulus: n, jwkExponent: e) else { return nil }
            self = .rs256(key)
        case "EC":
            guard entry["crv"]?.stringValue == "P-256",
                  let x = entry["x"]?.stringValue.flatMap(Base64URL.decode), x.count == 32,
                  let y = entry["y"]?.stringValue.flatMap(Base64URL.decode), y.count == 32 else { return nil }
            let point = [0x04] + x + y
            guard DeviceKey.isValidPublicKey(point) else { return nil }
            self = .es256(point)
        default:
            return nil
        }
        guard entry["alg"]?.stringValue ?? algorithm == algorithm else { return nil }
    }
}

/// The signing keys of a JWKS: those with a `kid`, and those without one.
struct JWKSKeys: Sendable {
    var named: [(keyID: String, key: IdTokenSigningKey)] = []
    var unnamed: [IdTokenSigningKey] = []
}
