import Foundation
import Testing
@_spi(Integrator) import IdentityFlow

@Suite("RSA PKCS#1 v1.5 SHA-256 verification (RFC 8017 §8.2.2)")
struct RSAPublicKeyTests {
    @Test("Committed vectors: valid, tampered, wrong-key, wrong-length, PSS, SHA-1 and non-canonical signatures")
    func committedVectors() throws {
        let document = try RSAVectorDocument.load(from: RSAVectorDocument.committedURL)
        #expect(Set(document.keys.map(\.bits)) == [1024, 2048, 3072, 4096])
        #expect(document.signatures.count > 50)
        try document.verifyAll()
    }

    @Test(
        "Fresh vectors from the Python generator",
        .enabled(if: SecurityTestPython.hasCryptography, "python3 with the `cryptography` package is not available"),
        .timeLimit(.minutes(2))
    )
    func liveVectors() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("identityflow-rsa-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try SecurityTestPython.run([RSAVectorDocument.generatorURL.path, output.path])
        try #require(result.status == 0, "generator failed: \(result.error)")
        let document = try RSAVectorDocument.load(from: output)
        #expect(Set(document.keys.map(\.bits)) == [1024, 2048, 3072, 4096])
        try document.verifyAll()
    }

    @Test("Keys are refused below 2048 bits (RFC 7518 §3.3), with an even modulus, or with an exponent below 3 or even")
    func keyValidation() throws {
        let document = try RSAVectorDocument.load(from: RSAVectorDocument.committedURL)
        let key1024 = try #require(document.keys.first { $0.bits == 1024 })
        #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: try #require(Base64URL.decode(key1024.n)), exponent: [1, 0, 1]) }
        let key2048 = try #require(document.keys.first { $0.bits == 2048 })
        let modulus = try #require(Base64URL.decode(key2048.n))
        #expect(throws: Never.self) { try RSAPublicKey(modulus: [0, 0] + modulus, exponent: [0, 1, 0, 1]) }
        let cases: [(modulus: [UInt8], exponent: [UInt8])] = [
            (Array(modulus.dropFirst()), [1, 0, 1]),
            ([], [1, 0, 1]),
            (modulus.dropLast() + [modulus[modulus.count - 1] & 0xfe], [1, 0, 1]),
            (modulus, [2]),
            (modulus, [1]),
            (modulus, [0]),
            (modulus, []),
        ]
        for testCase in cases {
            let error = #expect(throws: CryptoError.self) { try RSAPublicKey(modulus: testCase.modulus, exponent: testCase.exponent) }
            #expect(error?.code == .invalidKey)
        }
    }
}
