import CIdentityFlowCrypto
import Foundation
@_spi(Integrator) import IdentityFlow

/// The crypto rows k6…k15: SHA-512, ES384 and ES512 verification (ID tokens), and P-256
/// verification, signing and public keys (PIN proofs, ES256), the whole ES256 ID-token check and
/// one DPoP proof,
/// each beside OpenSSL in the same run.
/// A verification row includes the message's hash, as a token check pays it.
enum SignatureScenarios {
    /// Measures the rows k6…k15 that `only` lets through (all when `nil`).
    static func rows(_ settings: BenchSettings, only: Set<String>?) async -> [BenchRow] {
        let openSSL = OpenSSLSignatures.shared
        var rows: [BenchRow] = []
        func add(_ id: String, _ measure: String, unit: String, target: Double, ours: () -> Double, theirs: ((OpenSSLSignatures) -> Double)?) async {
            let theirs: (() -> Double)? = openSSL.flatMap { library in theirs.map { body in { body(library) } } }
            if let row = await CryptoScenarios.row(settings, only: only, id, measure, unit: unit, target: target, ours: ours, theirs: theirs) {
                rows.append(row)
            }
        }
        let hashLoop = CryptoScenarios.hashLoop, digest = CryptoScenarios.digest

        // SHA-512 across sizes.
        for (id, size, base) in [("k6", 64, 200_000), ("k7", 1_024, 50_000), ("k8", 16_384, 4_000)] {
            let message = [UInt8](repeating: 0x3c, count: size), count = settings.count(base)
            let label = size >= 1_024 ? "\(size / 1_024) KiB" : "\(size) B"
            let unit = size >= 1_024 ? "µs" : "ns", scale = size >= 1_024 ? 1_000.0 : 1
            await add(
                id, "SHA-512, \(label)", unit: unit, target: 1.2,
                ours: {
                    hashLoop(count) { Hashing.sha512(message) } / scale
                },
                theirs: { lib in
                    hashLoop(count) { digest(64) { out in message.withUnsafeBufferPointer { _ = lib.sha512($0.baseAddress, $0.count, out) } } } / scale
                })
        }

        // ES384 and ES512: SHA-384/512 of a token's signing input, then the verification.
        let message = BenchECDSAKeys.message
        for (id, curve, nid, x, y, signature, hash) in [
            (
                "k9", EllipticCurve.p384, OpenSSLSignatures.p384NID, BenchECDSAKeys.p384X, BenchECDSAKeys.p384Y, BenchECDSAKeys.p384Signature,
                Hashing.Function.sha384
            ),
            ("k10", .p521, OpenSSLSignatures.p521NID, BenchECDSAKeys.p521X, BenchECDSAKeys.p521Y, BenchECDSAKeys.p521Signature, .sha512),
        ] {
            let key = ECDSAPublicKey(curve: curve, x: x, y: y), count = settings.count(200)
            let theirKey = openSSL?.publicKey(nid: nid, x: x, y: y), theirSignature = openSSL?.signature(signature)
            let algorithm = hash == .sha384 ? "ES384 (P-384, SHA-384)" : "ES512 (P-521, SHA-512)"
            await add(
                id, "\(algorithm) verify", unit: "µs", target: 1.5,
                ours: {
                    hashLoop(count) { key?.isValidSignature(signature, for: message, hash: hash) == true ? [1] : [] } / 1_000
                },
                theirs: theirKey == nil || theirSignature == nil
                    ? nil
                    : { lib in
                        hashLoop(count) {
                            let hashed = digest(hash.byteCount) { out in
                                message.withUnsafeBufferPointer { _ = (hash == .sha384 ? lib.sha384 : lib.sha512)($0.baseAddress, $0.count, out) }
                            }
                            return lib.verify(hashed, Int32(hashed.count), theirSignature, theirKey) == 1 ? [1] : []
                        } / 1_000
                    })
        }

        // P-256: the PIN proof's signature and its check, and a public key from a private scalar.
        let scalar = Array(BenchECDSAKeys.message.prefix(32)), p256Count = settings.count(2_000)
        guard let deviceKey = DeviceKey(privateKey: Redacted(scalar)) else { return rows }
        let proof = deviceKey.sign(message)
        let theirPrivate = openSSL?.privateKey(nid: OpenSSLSignatures.p256NID, scalar: scalar)
        let theirProof = openSSL?.signature(proof)
        let sha256 = OpenSSLLibrary.shared?.sha256
        await add(
            "k11", "P-256 ECDSA verify (SHA-256 included)", unit: "µs", target: 1.2,
            ours: {
                hashLoop(p256Count) { DeviceKey.verify(proof, of: message, publicKey: deviceKey.publicKey) ? [1] : [] } / 1_000
            },
            theirs: theirPrivate == nil || sha256 == nil
                ? nil
                : { lib in
                    hashLoop(p256Count) {
                        let hashed = digest(32) { out in message.withUnsafeBufferPointer { _ = sha256?($0.baseAddress, $0.count, out) } }
                        return lib.verify(hashed, 32, theirProof, theirPrivate) == 1 ? [1] : []
                    } / 1_000
                })
        await add(
            "k12", "P-256 ECDSA sign (SHA-256 and the nonce included)", unit: "µs", target: 1.2,
            ours: {
                hashLoop(p256Count) { deviceKey.sign(message) } / 1_000
            },
            theirs: theirPrivate == nil || sha256 == nil
                ? nil
                : { lib in
                    hashLoop(p256Count) {
                        let hashed = digest(32) { out in message.withUnsafeBufferPointer { _ = sha256?($0.baseAddress, $0.count, out) } }
                        lib.signatureFree(lib.sign(hashed, 32, theirPrivate))
                        return hashed
                    } / 1_000
                })
        let group = theirPrivate.flatMap { openSSL?.group($0) }, point = group.flatMap { openSSL?.pointNew($0) }
        let scalarNumber = openSSL?.bignum(scalar), context = openSSL?.contextNew()
        await add(
            "k13", "P-256 public key k·G, encoded", unit: "µs", target: 1.2,
            ours: {
                hashLoop(p256Count) { DeviceKey(privateKey: Redacted(scalar))?.publicKey ?? [] } / 1_000
            },
            theirs: group == nil
                ? nil
                : { lib in
                    hashLoop(p256Count) {
                        digest(65) { out in
                            _ = lib.pointMultiply(group, point, scalarNumber, nil, nil, context)
                            _ = lib.pointToBytes(group, point, OpenSSLSignatures.uncompressed, out, 65, context)
                        }
                    } / 1_000
                })

        // The whole ES256 ID-token check: the compact token split and decoded (base64url, the
        // header's and the claims' JSON), then SHA-256 of the signing input and the verification;
        // OpenSSL's side is the hash and the verification of the same signing input (it parses no JWS).
        let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"bench-es256","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Array(BenchECDSAKeys.idTokenClaims.utf8))
        let signingInput = Array("\(header).\(payload)".utf8)
        let tokenSignature = deviceKey.sign(signingInput)
        let token = "\(header).\(payload).\(Base64URL.encode(tokenSignature))"
        let theirTokenSignature = openSSL?.signature(tokenSignature)
        await add(
            "k14", "ES256 ID token: parse and verify", unit: "µs", target: 1.3,
            ours: {
                hashLoop(p256Count) {
                    guard let parsed = try? JSONWebToken(compact: token) else { return [] }
                    return parsed.verifyES256(with: deviceKey.publicKey) ? [1] : []
                } / 1_000
            },
            theirs: theirPrivate == nil || sha256 == nil || theirTokenSignature == nil
                ? nil
                : { lib in
                    hashLoop(p256Count) {
                        let hashed = digest(32) { out in signingInput.withUnsafeBufferPointer { _ = sha256?($0.baseAddress, $0.count, out) } }
                        return lib.verify(hashed, 32, theirTokenSignature, theirPrivate) == 1 ? [1] : []
                    } / 1_000
                })

        // One DPoP proof (RFC 9449), as every token request and API call of a DPoP-bound session
        // makes one: a fresh jti, the header and claims JSON, base64url, one P-256 signature. No
        // OpenSSL counterpart (it builds no JWT): the expectation is tens of microseconds.
        if let dpopKey = try? DPoPKey(stored: .software(privateKey: Redacted(scalar))),
            var row = await CryptoScenarios.row(
                settings, only: only, "k15", "DPoP proof (ES256 sign + JWT)", unit: "µs", target: .infinity,
                ours: {
                    let url = URL(string: "https://id.example.com/oauth2/token")!
                    let accessToken = Redacted("bench-access-token")
                    return hashLoop(p256Count) {
                        (try? dpopKey.proof(method: "POST", url: url, accessToken: accessToken, nonce: "bench-nonce", at: Date())).map { Array($0.value.utf8) }
                            ?? []
                    } / 1_000
                }, theirs: nil)
        {
            row.note = "no OpenSSL counterpart (it builds no JWT); expected: tens of microseconds, one P-256 signature plus JSON and base64url"
            rows.append(row)
        }
        return rows
    }
}
