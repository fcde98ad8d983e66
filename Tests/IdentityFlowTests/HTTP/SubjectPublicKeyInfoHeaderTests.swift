import Foundation
import Testing
@testable import IdentityFlow

/// The SPKI prefixes the Apple pinning path puts in front of a key's external representation.
@Suite("SubjectPublicKeyInfo prefixes for Apple's key representations")
struct SubjectPublicKeyInfoHeaderTests {
    /// One key of Tests/Fixtures/crypto/spki-vectors.json (make_spki_vectors.py).
    struct Vector: Decodable {
        let kind: String, bits: Int, spki: String, raw: String
    }

    static let vectors: [Vector] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/crypto/spki-vectors.json")
        return (try? JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))) ?? []
    }()

    @Test("Prefix + Apple's representation is the SPKI the cryptography package encodes, for every pinnable type and size")
    func prefixesRebuildTheKeyInfo() throws {
        #expect(Self.vectors.count == 6)
        for vector in Self.vectors {
            let algorithm: SubjectPublicKeyInfoHeader.Algorithm = vector.kind == "rsa" ? .rsa : .ellipticCurve
            let prefix = try #require(SubjectPublicKeyInfoHeader.prefix(for: algorithm, bits: vector.bits), "\(vector.kind) \(vector.bits)")
            let raw = try #require(Data(base64Encoded: vector.raw))
            #expect(Data(prefix) + raw == Data(base64Encoded: vector.spki), "\(vector.kind) \(vector.bits)")
        }
    }

    @Test(
        "Other sizes have no prefix: their keys never match a pin",
        arguments: [(SubjectPublicKeyInfoHeader.Algorithm.rsa, 1024), (.rsa, 256), (.ellipticCurve, 224), (.ellipticCurve, 2048)])
    func otherSizes(algorithm: SubjectPublicKeyInfoHeader.Algorithm, bits: Int) {
        #expect(SubjectPublicKeyInfoHeader.prefix(for: algorithm, bits: bits) == nil)
    }
}
