import Foundation
import Testing
@testable import IdentityFlow

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

/// ECDSA verification on P-384 and P-521 against signatures made by Python's `cryptography`,
/// published vectors (RFC 6979 §A.2.6, §A.2.7; NIST CAVP SigVer) and a toy curve on which `x_R`
/// often exceeds `n`.
@Suite("ECDSA verification on P-384 and P-521 (SEC 1 §4.1.4), JWS ES384 / ES512")
struct ECDSATests {
    static let hashes: [String: Hashing.Function] = ["sha256": .sha256, "sha384": .sha384, "sha512": .sha512]

    let document: ECDSAVectorDocument
    let curves: [String: EllipticCurve]

    init() throws {
        document = try ECDSAVectorDocument.load("ecdsa-vectors.json")
        let toy = try #require(document.curves?["toy"])
        curves = ["P-384": .p384, "P-521": .p521, "toy": try Self.curve("toy", toy)]
    }

    static func integer(_ hex: String) throws -> BigUInt {
        BigUInt(bigEndianBytes: try #require(SecurityTestHex.decode(hex.count % 2 == 0 ? hex : "0" + hex)))
    }

    static func curve(_ name: String, _ values: ECDSAVectorDocument.Curve) throws -> EllipticCurve {
        EllipticCurve(name: name, p: try integer(values.p), n: try integer(values.n), b: try integer(values.b),
                      gx: try integer(values.gx), gy: try integer(values.gy))
    }

    /// The key of `vector`, or `nil` when it is refused.
    private func key(_ vector: ECDSAVectorDocument.Signature) throws -> ECDSAPublicKey? {
        let curve = try #require(curves[vector.curve])
        let x = try #require(SecurityTestHex.decode(vector.x)), y = try #require(SecurityTestHex.decode(vector.y))
        return ECDSAPublicKey(curve: curve, x: x, y: y)
    }

    /// Whether `vector` verifies: `nil` when its key is refused.
    private func verifies(_ vector: ECDSAVectorDocument.Signature) throws -> Bool? {
        guard let key = try key(vector) else { return nil }
        let signature = try #require(SecurityTestHex.decode(vector.signature)), message = try #require(SecurityTestHex.decode(vector.message))
        return key.isValidSignature(signature, for: message, hash: try #require(Self.hashes[vector.hash]))
    }

    @Test("the constants of P-384 and P-521 are cryptography's (n and G) and fit its G (b)", arguments: ["P-384", "P-521"])
    func constants(_ name: String) throws {
        let expected = try Self.curve(name, try #require(document.curves?[name]))
        let curve = try #require(curves[name])
        #expect(curve == expected)
        #expect(curve.byteCount == (name == "P-384" ? 48 : 66))
        #expect(curve.orderBitCount == (name == "P-384" ? 384 : 521))
    }

    @Test("each vector verifies as cryptography says: SHA-256, SHA-384, SHA-512 (truncated on P-384), high s, keys G and -G; r, s and lengths checked")
    func committedVectors() throws {
        let signatures = try #require(document.signatures)
        for vector in signatures {
            #expect(try verifies(vector) == vector.valid, "\(vector.curve): \(vector.comment ?? "")")
        }
        let comments = Set(signatures.map { "\($0.curve): \($0.comment ?? "")" })
        for curve in ["P-384", "P-521"] {
            for comment in ["r = 0", "s = 0", "r = s = 0", "r = n", "s = n", "DER", "one byte short", "R is the point at infinity (r = -e / d mod n)",
                            "key 1: Q = G, so G + Q is a doubling", "key n - 1: Q = -G, so G + Q is the point at infinity",
                            "valid, sha512, s replaced by n - s (high s is valid ECDSA)"] {
                #expect(comments.contains("\(curve): \(comment)"), "\(curve): \(comment)")
            }
        }
        for comment in ["P-384: SHA-512 truncated to its leftmost 384 bits, signed here", "P-521: SHA-512 shifted left to n's 521 bits",
                        "P-521: r + n (congruent to r, out of range)", "P-521: s + n (congruent to s, out of range)", "toy: x_R >= n, r = x_R - n",
                        "toy: r + n (congruent to r, out of range)", "toy: s + n (congruent to s, out of range)"] {
            #expect(comments.contains(comment), "\(comment)")
        }
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
        }
    }
}
