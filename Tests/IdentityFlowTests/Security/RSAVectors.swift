import Foundation
import Testing
@_spi(Integrator) import IdentityFlow

/// The JSON written by Tests/Fixtures/crypto/make_rsa_vectors.py.
struct RSAVectorDocument: Decodable {
    struct Key: Decodable {
        let name: String, bits: Int, n: String, e: String
    }

    struct Signature: Decodable {
        let key: String, message: String, signature: String, valid: Bool, comment: String
    }

    struct RejectedKey: Decodable {
        let n: String, e: String, comment: String
    }

    struct Token: Decodable {
        let token: String, key: String, valid: Bool, comment: String
    }

    let keys: [Key]
    let signatures: [Signature]
    let rejectedKeys: [RejectedKey]
    let tokens: [Token]
    let jwtClaims: [String: JSONValue]

    /// The committed vectors, located from this file's path.
    static let committedURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/crypto/rsa-vectors.json")

    /// The generator script next to the committed vectors.
    static let generatorURL = committedURL.deletingLastPathComponent().appendingPathComponent("make_rsa_vectors.py")

    static func load(from url: URL) throws -> RSAVectorDocument {
        try JSONDecoder().decode(RSAVectorDocument.self, from: Data(contentsOf: url))
    }

    /// Parses every key both ways, checks every signature and token, and refuses every bad key.
    func verifyAll() throws {
        var publicKeys: [String: RSAPublicKey] = [:]
        for key in keys {
            // RFC 7518 §3.3: RS256 keys below 2048 bits are refused; their vectors must not verify.
            guard key.bits >= RSAPublicKey.minimumModulusBitCount else {
                let error = #expect(throws: CryptoError.self, "\(key.name)") { try RSAPublicKey(jwkModulus: key.n, jwkExponent: key.e) }
                #expect(error?.code == .invalidKey)
                continue
            }
            let fromJWK = try RSAPublicKey(jwkModulus: key.n, jwkExponent: key.e)
            let fromBytes = try RSAPublicKey(modulus: try #require(Base64URL.decode(key.n)), exponent: try #require(Base64URL.decode(key.e)))
            #expect(fromJWK == fromBytes)
            #expect(fromJWK.modulusBitCount == key.bits, "\(key.name)")
            #expect(fromJWK.modulusByteCount == key.bits / 8, "\(key.name)")
            publicKeys[key.name] = fromJWK
        }
        #expect(Set(keys.map(\.bits)).isSuperset(of: [1024, 2048]))
        #expect(keys.contains { $0.e == "Aw" }, "an e=3 key is part of the vectors")
        #expect(signatures.contains { $0.valid } && signatures.contains { !$0.valid })

        for vector in signatures {
            guard let key = publicKeys[vector.key] else {
                #expect(keys.first { $0.name == vector.key }.map { $0.bits < RSAPublicKey.minimumModulusBitCount } == true, "\(vector.key)")
                continue
            }
            let message = try #require(SecurityTestHex.decode(vector.message))
            let signature = try #require(SecurityTestHex.decode(vector.signature))
            #expect(key.isValidSignature(signature, for: message) == vector.valid, "\(vector.key): \(vector.comment)")
        }

        for rejected in rejectedKeys {
            let error = #expect(throws: CryptoError.self, "\(rejected.comment)") {
                try RSAPublicKey(jwkModulus: rejected.n, jwkExponent: rejected.e)
            }
            #expect(error?.code == .invalidKey, "\(rejected.comment)")
        }

        for vector in tokens {
            let key = try #require(publicKeys[vector.key])
            let token = try JSONWebToken(compact: vector.token)
            #expect(token.verifyRS256(with: key) == vector.valid, "\(vector.comment)")
            if vector.valid {
                #expect(token.algorithm == "RS256")
                #expect(token.keyID == vector.key)
                #expect(token.claims == jwtClaims)
            }
        }
        #expect(tokens.contains { $0.valid } && tokens.contains { !$0.valid })
    }
}
