import CIdentityFlowCrypto
import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The JSON written by Tests/Fixtures/crypto/make_ecdsa_vectors.py and make_ecdsa_published_vectors.py.
struct ECDSAVectorDocument: Decodable {
    struct Curve: Decodable {
        let p: String, n: String, b: String, gx: String, gy: String
    }

    struct Signature: Decodable {
        let curve: String, x: String, y: String, hash: String, message: String, signature: String, valid: Bool
        let comment: String?, source: String?
    }

    let curves: [String: Curve]?
    let signatures: [Signature]?
    let vectors: [Signature]?

    static func load(_ name: String) throws -> ECDSAVectorDocument {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/crypto/\(name)")
        return try JSONDecoder().decode(ECDSAVectorDocument.self, from: Data(contentsOf: url))
    }
}

/// The JSON written by Tests/Fixtures/crypto/make_ecdsa_edge_cases.py: Wycheproof-style cases
/// given as digests, each checked by a pure-Python verifier and by `cryptography`.
struct ECDSAEdgeCaseDocument: Decodable {
    struct Case: Decodable {
        let curve: String, x: String, y: String, digest: String, signature: String, valid: Bool, comment: String
    }

    let cases: [Case]

    static func load() throws -> ECDSAEdgeCaseDocument {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/crypto/ecdsa-edge-cases.json")
        return try JSONDecoder().decode(ECDSAEdgeCaseDocument.self, from: Data(contentsOf: url))
    }
}

/// ECDSA verification on P-384 and P-521 (the C code of P384.c and P521.c; P-256's variable-time
/// verifier of P256Verify.c in the edge cases) against signatures
/// made by Python's `cryptography`, published vectors (RFC 6979 §A.2.6, §A.2.7; NIST CAVP
/// SigVer) and Wycheproof-style edge cases (x_R ≥ n, u₁ = 0, sums that double or vanish, r and s
/// at and beyond their bounds, digests of every length, keys off the curve).
///
/// ecdsa-vectors.json also holds signatures on a toy curve, which the former portable Swift
/// arithmetic verified for the case x_R ≥ n; the C code serves the two real curves only, and
/// ecdsa-edge-cases.json has that case on both of them.
@Suite("ECDSA verification on P-384 and P-521 (SEC 1 §4.1.4), JWS ES384 / ES512")
struct ECDSATests {
    static let hashes: [String: Hashing.Function] = ["sha256": .sha256, "sha384": .sha384, "sha512": .sha512]
    static let curves: [String: EllipticCurve] = ["P-384": .p384, "P-521": .p521]

    let document: ECDSAVectorDocument

    init() throws {
        document = try ECDSAVectorDocument.load("ecdsa-vectors.json")
    }

    /// The key of `vector`, or `nil` when it is refused.
    private func key(_ vector: ECDSAVectorDocument.Signature) throws -> ECDSAPublicKey? {
        let curve = try #require(Self.curves[vector.curve])
        let x = try #require(SecurityTestHex.decode(vector.x)), y = try #require(SecurityTestHex.decode(vector.y))
        return ECDSAPublicKey(curve: curve, x: x, y: y)
    }

    /// Whether `vector` verifies: `nil` when its key is refused.
    private func verifies(_ vector: ECDSAVectorDocument.Signature) throws -> Bool? {
        guard let key = try key(vector) else { return nil }
        let signature = try #require(SecurityTestHex.decode(vector.signature)), message = try #require(SecurityTestHex.decode(vector.message))
        return key.isValidSignature(signature, for: message, hash: try #require(Self.hashes[vector.hash]))
    }

    @Test("the C code's curve is cryptography's: its G (and so b) is on it; the coordinates' length", arguments: ["P-384", "P-521"])
    func constants(_ name: String) throws {
        let values = try #require(document.curves?[name])
        let curve = try #require(Self.curves[name])
        let size = name == "P-384" ? 48 : 66
        #expect(curve.byteCount == size)
        let gx = try ECDSACurveBytes.fixed(values.gx, size), gy = try ECDSACurveBytes.fixed(values.gy, size)
        #expect(curve.contains(x: gx, y: gy))
        #expect(ECDSAPublicKey(curve: curve, x: gx, y: gy) != nil)
    }

    @Test("each vector verifies as cryptography says: SHA-256, SHA-384, SHA-512 (truncated on P-384), high s, keys G and -G; r, s and lengths checked")
    func committedVectors() throws {
        let signatures = try #require(document.signatures).filter { $0.curve != "toy" }
        for vector in signatures {
            #expect(try verifies(vector) == vector.valid, "\(vector.curve): \(vector.comment ?? "")")
        }
        let comments = Set(signatures.map { "\($0.curve): \($0.comment ?? "")" })
        for curve in ["P-384", "P-521"] {
            for comment in [
                "r = 0", "s = 0", "r = s = 0", "r = n", "s = n", "DER", "one byte short", "R is the point at infinity (r = -e / d mod n)",
                "key 1: Q = G, so G + Q is a doubling", "key n - 1: Q = -G, so G + Q is the point at infinity",
                "valid, sha512, s replaced by n - s (high s is valid ECDSA)",
            ] {
                #expect(comments.contains("\(curve): \(comment)"), "\(curve): \(comment)")
            }
        }
        for comment in [
            "P-384: SHA-512 truncated to its leftmost 384 bits, signed here", "P-521: SHA-512 shifted left to n's 521 bits",
            "P-521: r + n (congruent to r, out of range)", "P-521: s + n (congruent to s, out of range)",
        ] {
            #expect(comments.contains(comment), "\(comment)")
        }
    }

    @Test("edge cases: x_R >= n, u1 = 0, doubling and vanishing sums, r and s at and past their bounds, digests of 32 to 80 bytes, keys off the curve")
    func edgeCases() throws {
        let cases = try ECDSAEdgeCaseDocument.load().cases
        for edge in cases {
            let x = try #require(SecurityTestHex.decode(edge.x)), y = try #require(SecurityTestHex.decode(edge.y))
            let digest = try #require(SecurityTestHex.decode(edge.digest)), signature = try #require(SecurityTestHex.decode(edge.signature))
            #expect(Self.verifies(edge.curve, signature, digest: digest, x: x, y: y) == edge.valid, "\(edge.curve): \(edge.comment)")
            if let curve = Self.curves[edge.curve] {
                let verified = ECDSAPublicKey(curve: curve, x: x, y: y)?.isValidSignature(signature, digest: digest) ?? false
                #expect(verified == edge.valid, "\(edge.curve): \(edge.comment), through ECDSAPublicKey")
            }
        }
        let comments = Set(cases.map { "\($0.curve): \($0.comment)" })
        for curve in ["P-256", "P-384", "P-521"] {
            for comment in [
                "x_R >= n, r = x_R - n", "x_R >= n, r = x_R (not reduced, out of range)", "u1 = 0: a zero digest",
                "Q = G, e = r: u1 G + u2 Q is a doubling", "Q = -G, e = r: u1 G + u2 Q is infinity", "s = 1, signed for real",
                "key: (0, 0), an encoding of infinity", "key: y + 1 (off the curve)", "high s (n - s)",
            ] {
                #expect(comments.contains("\(curve): \(comment)"), "\(curve): \(comment)")
            }
        }
    }

    /// Whether the C verifier of `curve` ("P-256", "P-384", "P-521") accepts the signature of
    /// `digest` under the key `(x, y)`; P-256's takes 32-byte digests and SEC1 keys.
    static func verifies(_ curve: String, _ signature: [UInt8], digest: [UInt8], x: [UInt8], y: [UInt8]) -> Bool {
        guard curve == "P-256" else { return curves[curve]?.verify(signature, digest: digest, x: x, y: y) ?? false }
        guard signature.count == 64, digest.count == 32, x.count == 32, y.count == 32 else { return false }
        return ifc_p256_verify(signature, digest, [0x04] + x + y) == 1
    }

    @Test("published vectors: RFC 6979 A.2.6 and A.2.7 signatures, NIST CAVP SigVer P-384 and P-521 (message, key, r or s changed)")
    func publishedVectors() throws {
        let vectors = try #require(try ECDSAVectorDocument.load("ecdsa-published-vectors.json").vectors)
        for vector in vectors {
            #expect(try verifies(vector) == vector.valid, "\(vector.source ?? "")")
        }
        #expect(vectors.filter { $0.source?.hasPrefix("RFC 6979") == true && $0.valid }.count == 12)
        #expect(vectors.filter { $0.source?.hasPrefix("NIST CAVP") == true }.count == 60)
        #expect(vectors.filter { $0.source?.hasPrefix("NIST CAVP") == true && $0.valid }.count == 12)
    }

    @Test("a valid signature fails under another hash, another message and with r and s swapped")
    func onlyItsHash() throws {
        for vector in try #require(document.signatures) where vector.valid && vector.curve != "toy" {
            let key = try #require(try key(vector))
            let signature = try #require(SecurityTestHex.decode(vector.signature)), message = try #require(SecurityTestHex.decode(vector.message))
            for (name, hash) in Self.hashes where name != vector.hash {
                #expect(!key.isValidSignature(signature, for: message, hash: hash), "\(vector.curve) \(vector.hash) as \(name)")
            }
            #expect(!key.isValidSignature(signature, for: message + [0], hash: try #require(Self.hashes[vector.hash])))
            let half = signature.count / 2
            #expect(!key.isValidSignature(Array(signature[half...] + signature[..<half]), for: message, hash: try #require(Self.hashes[vector.hash])))
        }
    }
}

/// Big-endian byte arithmetic for building test values (n − 1, p − y, ...) without a big-integer type.
enum ECDSACurveBytes {
    /// `hex` as exactly `count` big-endian bytes (left-padded with zeros).
    static func fixed(_ hex: String, _ count: Int) throws -> [UInt8] {
        let bytes = try #require(SecurityTestHex.decode(hex.count % 2 == 0 ? hex : "0" + hex))
        let significant = Array(bytes.drop { $0 == 0 })
        try #require(significant.count <= count)
        return [UInt8](repeating: 0, count: count - significant.count) + significant
    }

    /// `a + b` over the same length, the carry out of the top byte dropped.
    static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = a, carry = 0
        for index in stride(from: a.count - 1, through: 0, by: -1) {
            let sum = Int(a[index]) + Int(b[index]) + carry
            result[index] = UInt8(sum & 0xFF)
            carry = sum >> 8
        }
        return result
    }

    /// `a − b` over the same length, for a ≥ b.
    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = a, borrow = 0
        for index in stride(from: a.count - 1, through: 0, by: -1) {
            let difference = Int(a[index]) - Int(b[index]) - borrow
            result[index] = UInt8((difference + 256) & 0xFF)
            borrow = difference < 0 ? 1 : 0
        }
        return result
    }

    /// The small integer `value` as `count` big-endian bytes.
    static func small(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { index in
            let shift = 8 * (count - 1 - index)
            return shift < 64 ? UInt8(truncatingIfNeeded: value >> UInt64(shift)) : 0
        }
    }
}
