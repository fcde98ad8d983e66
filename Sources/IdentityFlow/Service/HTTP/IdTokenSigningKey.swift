/// A provider's ID token signing key from its JWKS: RSA for `RS256`, `RS384`, `RS512`, `PS256`,
/// `PS384` and `PS512` (only the one its entry's `alg` names, when it names one), or an EC point:
/// P-256 for `ES256`, P-384 for `ES384`, P-521 for `ES512`.
enum IdTokenSigningKey: Sendable {
    /// An RSA key (`kty` `RSA`) and the algorithms it may verify.
    case rsa(RSAPublicKey, algorithms: [String])
    /// A P-256 key (`kty` `EC`, `crv` `P-256`) as a SEC1 uncompressed point.
    case es256([UInt8])
    /// A P-384 key (`crv` `P-384`), for `ES384`, or a P-521 key (`crv` `P-521`), for `ES512`.
    case ecdsa(ECDSAPublicKey)

    /// The algorithms an RSA key verifies when its JWKS entry names no `alg`: RSASSA-PKCS1-v1_5 and
    /// RSASSA-PSS. Providers that pick the strongest for the key (Authlib, so Canaille) sign
    /// `RS512`; FAPI profiles (Keycloak, Okta, Authlib when the client registers it) sign `PS256`.
    static let rsaAlgorithms = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]

    /// The algorithm of each EC curve: a key on the curve verifies that algorithm only (RFC 7518 §3.4).
    static let ecAlgorithms: [(crv: String, alg: String)] = [("P-256", "ES256"), ("P-384", "ES384"), ("P-521", "ES512")]

    /// The algorithms an ID token may name; `none` and HMAC are never among them.
    static let algorithms = rsaAlgorithms + ecAlgorithms.map(\.alg)

    /// The `alg`s this key verifies.
    var algorithms: [String] {
        switch self {
        case .rsa(_, let algorithms): algorithms
        case .es256: ["ES256"]
        case .ecdsa(let key): Self.ecAlgorithms.filter { $0.crv == key.curve.name }.map(\.alg)
        }
    }

    /// Whether this key may verify a token that names `algorithm`.
    func canVerify(_ algorithm: String) -> Bool { algorithms.contains(algorithm) }

    /// ``algorithms`` for a message: "ES256", "RS256, RS384, RS512, PS256, PS384 or PS512".
    var algorithmList: String {
        algorithms.count < 2 ? algorithms.joined() : "\(algorithms.dropLast().joined(separator: ", ")) or \(algorithms.last ?? "")"
    }

    /// Whether this key may verify the algorithm `token` names and its signature verifies under
    /// this key with that algorithm.
    func verifies(_ token: JSONWebToken) -> Bool {
        guard let algorithm = token.algorithm, canVerify(algorithm) else { return false }
        switch self {
        case .rsa(let key, _): return token.verifyRSA(with: key)
        case .es256(let point): return token.verifyES256(with: point)
        case .ecdsa(let key): return token.verifyECDSA(with: key)
        }
    }

    /// The signing key a JWKS entry holds, or `nil` for one the client does not use: another key
    /// type or curve (secp256k1, say), an encryption key (`use` `enc`), an `alg` this key cannot
    /// verify (`ES256` or `HS256` on an RSA key, `ES512` on a P-384 one), or parameters that do not
    /// make a valid key (EC coordinates of another length than the curve's, or not on the curve).
    init?(jwk entry: JSONValue) {
        guard entry["use"]?.stringValue ?? "sig" == "sig" else { return nil }
        let named = entry["alg"]?.stringValue
        switch entry["kty"]?.stringValue {
        case "RSA":
            guard let n = entry["n"]?.stringValue, let e = entry["e"]?.stringValue,
                let key = try? RSAPublicKey(jwkModulus: n, jwkExponent: e)
            else { return nil }
            let algorithms = named.map { [$0] } ?? Self.rsaAlgorithms
            guard algorithms.allSatisfy(Self.rsaAlgorithms.contains) else { return nil }
            self = .rsa(key, algorithms: algorithms)
        case "EC":
            guard let crv = entry["crv"]?.stringValue, let algorithm = Self.ecAlgorithms.first(where: { $0.crv == crv })?.alg,
                named ?? algorithm == algorithm,
                let x = entry["x"]?.stringValue.flatMap(Base64URL.decode),
                let y = entry["y"]?.stringValue.flatMap(Base64URL.decode)
            else { return nil }
            switch crv {
            case "P-256":
                let point = [0x04] + x + y
                guard x.count == 32, y.count == 32, DeviceKey.isValidPublicKey(point) else { return nil }
                self = .es256(point)
            default:
                guard let curve = [EllipticCurve.p384, .p521].first(where: { $0.name == crv }),
                    let key = ECDSAPublicKey(curve: curve, x: x, y: y)
                else { return nil }
                self = .ecdsa(key)
            }
        default:
            return nil
        }
    }
}

extension IdTokenSigningKey {
    /// Why a signing entry's RSA key is refused (too small, too large, malformed), for the error
    /// of a token whose `kid` names it; `nil` for entries of other kinds, which are passed over
    /// without a word.
    /// - Parameter entry: A JWKS entry that ``init(jwk:)`` refused.
    static func refusal(jwk entry: JSONValue) -> String? {
        guard entry["use"]?.stringValue ?? "sig" == "sig", entry["kty"]?.stringValue == "RSA",
            let n = entry["n"]?.stringValue, let e = entry["e"]?.stringValue
        else { return nil }
        if let modulus = Base64URL.decode(n) {
            let bits = BigUInt(bigEndianBytes: modulus).bitWidth
            if bits < RSAPublicKey.minimumModulusBitCount {
                return "its RSA key has \(bits) bits, too small: at least \(RSAPublicKey.minimumModulusBitCount) are required (RFC 7518 §3.3)"
            }
        }
        do { _ = try RSAPublicKey(jwkModulus: n, jwkExponent: e) } catch let error as CryptoError {
            return "its RSA key is refused (\(error.reason))"
        } catch {
            return "its RSA key is refused"
        }
        return nil
    }
}

/// The signing keys of a JWKS: those with a `kid`, those without one, and the `kid`s of keys the
/// client refuses, with the reason.
struct JWKSKeys: Sendable {
    var named: [(keyID: String, key: IdTokenSigningKey)] = []
    var unnamed: [IdTokenSigningKey] = []
    var refused: [(keyID: String, reason: String)] = []
}
