import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The JSON written by Tests/Fixtures/crypto/make_rsa_pss_vectors.py.
struct RSAPSSVectorDocument: Decodable {
    struct Key: Decodable {
        let name: String, bits: Int, n: String, e: String
    }

    struct Signature: Decodable {
        let key: String, hash: String, message: String, signature: String, valid: Bool, comment: String
    }

    let keys: [Key]
    let signatures: [Signature]

    static func load() throws -> RSAPSSVectorDocument {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/crypto/rsa-pss-vectors.json")
        return try JSONDecoder().decode(RSAPSSVectorDocument.self, from: Data(contentsOf: url))
    }
}

/// RSASSA-PSS with MGF1 over the message's hash and a salt as long as the hash (`PS256`, `PS384`,
/// `PS512`), on signatures made by Python's `cryptography` and on raw RSA operations over
/// encodings that each break one step of EMSA-PSS-VERIFY.
@Suite("RSASSA-PSS verification (RFC 8017 §8.1.2, §9.1.2) and JWS PS256 / PS384 / PS512")
struct RSAPSSTests {
    static let hashes: [String: Hashing.Function] = ["sha256": .sha256, "sha384": .sha384, "sha512": .sha512]

    let document: RSAPSSVectorDocument
    let keys: [String: RSAPublicKey]

    init() throws {
        document = try RSAPSSVectorDocument.load()
        var keys: [String: RSAPublicKey] = [:]
        for key in document.keys {
            keys[key.name] = try RSAPublicKey(jwkModulus: key.n, jwkExponent: key.e)
        }
        self.keys = keys
    }

    /// A vector's key, hash, message and signature.
    private func decode(_ vector: RSAPSSVectorDocument.Signature) throws -> (RSAPublicKey, Hashing.Function, [UInt8], [UInt8]) {
        (
            try #require(keys[vector.key]), try #require(Self.hashes[vector.hash]),
            try #require(SecurityTestHex.decode(vector.message)), try #require(SecurityTestHex.decode(vector.signature))
        )
    }

    // emBits = modBits − 1 sets EM's shape: 2048, 3072 and 4096 bits leave one unused high bit in
    // its first octet (step 6 checks it, step 9 clears it from DB), 2050 bits seven, and 2049 bits
    // none, EM being then one octet shorter than the signature (step 2c). A verifier that took EM
    // as k octets, or masked a fixed bit, would pass the 2048-bit vectors and fail these.
    @Test("the keys are of 2048, 2049, 2050, 3072 and 4096 bits; a 2049-bit key signs 257 bytes")
    func keySizes() throws {
        #expect(document.keys.map(\.bits) == [2048, 2049, 2050, 3072, 4096])
        #expect(document.keys.map { keys[$0.name]?.modulusBitCount } == [2048, 2049, 2050, 3072, 4096])
        #expect(document.keys.map { keys[$0.name]?.modulusByteCount } == [256, 257, 257, 384, 512])
    }

    @Test("each vector verifies as cryptography says: salt length = hash length and MGF1 with the same hash only, each step of EMSA-PSS-VERIFY enforced")
    func committedVectors() throws {
        for vector in document.signatures {
            let (key, hash, message, signature) = try decode(vector)
            #expect(
                key.isValidSignature(signature, for: message, hash: hash, scheme: .pss) == vector.valid,
                "\(vector.key) \(vector.hash): \(vector.comment)")
        }
        for key in document.keys.map(\.name) {
            for hash in Self.hashes.keys {
                #expect(document.signatures.contains { $0.key == key && $0.hash == hash && $0.valid }, "\(key) \(hash)")
            }
        }
        let invalid = Set(document.signatures.filter { !$0.valid }.map(\.comment))
        for comment in [
            "salt length 0", "maximal salt length", "salt length hLen + 1", "salt length hLen - 1", "MGF1 with SHA-256",
            "step 2c: m needs 257 octets, emLen is 256", "step 4: trailer octet bd, not bc",
            "step 6: the lowest unused bit of EM's first octet set", "step 10: separator 00, not 01",
            "step 10: first octet of the zero padding is 01", "step 12: H over mHash and salt without the eight zero octets",
            "step 14: salt changed after H was computed", "PKCS#1 v1.5 signature",
        ] {
            #expect(invalid.contains(comment), "\(comment)")
        }
    }

    @Test("a valid PSS signature fails with any other hash and as PKCS#1 v1.5")
    func onlyItsHashAndScheme() throws {
        for vector in document.signatures where vector.valid {
            let (key, hash, message, signature) = try decode(vector)
            for other in [Hashing.Function.sha256, .sha384, .sha512] where other != hash {
                #expect(!key.isValidSignature(signature, for: message, hash: other, scheme: .pss), "\(vector.key) \(vector.hash) as \(other)")
            }
            #expect(!key.isValidSignature(signature, for: message, hash: hash), "\(vector.key) \(vector.hash) as PKCS#1 v1.5")
        }
    }

    @Test(
        "verifyRSA takes the scheme and hash of the header's alg; verifyRS256 takes none of PS*",
        arguments: [
            ("ps256_valid", true), ("ps384_valid", true), ("ps512_valid", true), ("ps256_at_hash", true),
            ("ps256_salt_0", false), ("ps256_salt_max", false), ("ps384_salt_32", false), ("ps256_tampered", false), ("ps256_wrong_key", false),
            ("ps256_signed_rs256", false), ("rs256_signed_ps256", false), ("ps384_signed_ps512", false),
        ])
    func verifyRSA(_ name: String, _ valid: Bool) throws {
        let vectors = try PSSIdTokenVectors.load()
        let token = try JSONWebToken(compact: try vectors.token(name).value)
        #expect(token.verifyRSA(with: try vectors.p1()) == valid)
        #expect(!token.verifyRS256(with: try vectors.p1()))
    }

    @Test("a header naming the other scheme is refused though the signature is the key's: PKCS#1 v1.5 under PS256, PSS under RS256")
    func otherScheme() throws {
        let vectors = try PSSIdTokenVectors.load()
        let key = try vectors.p1()
        for (name, scheme) in [("ps256_signed_rs256", RSAPublicKey.SignatureScheme.pkcs1v15), ("rs256_signed_ps256", .pss)] {
            let token = try JSONWebToken(compact: try vectors.token(name).value)
            #expect(key.isValidSignature(token.signature, for: token.signingInput, hash: .sha256, scheme: scheme), "\(name): the signature itself")
            #expect(!token.verifyRSA(with: key), "\(name)")
        }
    }

    @Test(
        "the hash of an alg: SHA-256 for PS256, SHA-384 for PS384, SHA-512 for PS512",
        arguments: [
            ("ps256_valid", Hashing.Function.sha256), ("ps384_valid", .sha384), ("ps512_valid", .sha512),
        ])
    func hashFunction(_ name: String, _ expected: Hashing.Function) throws {
        #expect(try JSONWebToken(compact: try PSSIdTokenVectors.load().token(name).value).hashFunction == expected)
    }
}
