import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The JSON written by Tests/Fixtures/crypto/make_hash_vectors.py: hashlib/hmac and
/// `cryptography` results for every message length 0...300.
struct HashVectorDocument: Decodable {
    struct Case: Decodable {
        let data: String, key: String, salt: String
        let iterations: Int, keyLength: Int
        let sha256: String, hmac: String, pbkdf2: String
    }

    let cases: [Case]

    static let committedURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/crypto/hash-vectors.json")
}

@Suite("SHA-256 engines (hardware and portable) against Python's hashlib, hmac and cryptography")
struct SHA256EngineTests {
    @Test("Every length 0...300: SHA-256, HMAC-SHA256 and PBKDF2 match the committed vectors on both engines")
    func committedVectors() throws {
        let document = try JSONDecoder().decode(HashVectorDocument.self, from: Data(contentsOf: HashVectorDocument.committedURL))
        #expect(document.cases.count == 301)
        for (length, testCase) in document.cases.enumerated() {
            let data = try #require(SecurityTestHex.decode(testCase.data))
            let key = try #require(SecurityTestHex.decode(testCase.key))
            let salt = try #require(SecurityTestHex.decode(testCase.salt))
            try #require(data.count == length)
            let context = Comment(rawValue: "length \(length)")
            for engine in [SHA256.Engine.fastest, .portable] {
                #expect(SecurityTestHex.encode(SHA256.hash(data, engine: engine)) == testCase.sha256, context)
                #expect(SecurityTestHex.encode(HMACSHA256(key: key).authenticationState(for: data, engine: engine).bytes) == testCase.hmac, context)
                let derived = KeyDerivation.pbkdf2SHA256(
                    password: data, salt: salt, iterations: testCase.iterations, keyLength: testCase.keyLength, engine: engine)
                #expect(SecurityTestHex.encode(derived) == testCase.pbkdf2, context)
            }
            #expect(SecurityTestHex.encode(Hashing.sha256(data)) == testCase.sha256, context)
            #expect(SecurityTestHex.encode(Hashing.hmacSHA256(key: key, message: data)) == testCase.hmac, context)
        }
    }

    @Test("Fuzz: the fastest engine and the portable engine agree on random messages and chaining states")
    func enginesAgree() {
        for _ in 0..<2_000 {
            let message = SecurityTestRandom.bytes(Int.random(in: 0...1_100))
            let start = SHA256.State(
                h0: .random(in: .min ... .max), h1: .random(in: .min ... .max), h2: .random(in: .min ... .max), h3: .random(in: .min ... .max),
                h4: .random(in: .min ... .max), h5: .random(in: .min ... .max), h6: .random(in: .min ... .max), h7: .random(in: .min ... .max))
            let prior = 64 * Int.random(in: 0...3)
            let fast = SHA256.hash(message, continuing: start, priorByteCount: prior, engine: .fastest)
            let portable = SHA256.hash(message, continuing: start, priorByteCount: prior, engine: .portable)
            #expect(fast == portable, "message \(SecurityTestHex.encode(message))")
        }
    }

    /// The CPU flags Linux reports, or `nil` elsewhere.
    static let cpuFlags: Set<Substring>? = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))
        .map { Set($0.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })) }

    @Test(
        "Where Linux reports SHA instructions, the fastest engine uses them (else the agreement tests compare portable with itself)",
        .enabled(if: cpuFlags.map { $0.contains("sha_ni") || $0.contains("sha2") } ?? false, "the CPU reports no SHA instructions"))
    func hardwareSelected() {
        #expect(SHA256.Engine.fastestUsesHardware)
    }

    @Test("PBKDF2's C iteration loop gives the same key on both engines over many iterations")
    func pbkdf2EnginesAgree() {
        for _ in 0..<8 {
            let password = SecurityTestRandom.bytes(Int.random(in: 0...100))
            let salt = SecurityTestRandom.bytes(Int.random(in: 0...40))
            let iterations = Int.random(in: 1...3_000), keyLength = Int.random(in: 1...80)
            #expect(
                KeyDerivation.pbkdf2SHA256(password: password, salt: salt, iterations: iterations, keyLength: keyLength, engine: .fastest)
                    == KeyDerivation.pbkdf2SHA256(password: password, salt: salt, iterations: iterations, keyLength: keyLength, engine: .portable))
        }
    }
}
