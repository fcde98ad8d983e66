import CIdentityFlowCrypto
import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// k·G from the fixed-base table (37 rows of signed 7-bit digits, scanned with AVX2 where the CPU
/// has it) and the safegcd inversions behind public keys and signatures (issue 38).
@Suite("P-256 fixed-base k·G and safegcd inversion")
struct P256BaseMultipleTests {
    /// The cases of Tests/Fixtures/crypto/p256-base-multiples.json (make_p256_base_multiples.py).
    static func cases() throws -> [(scalar: [UInt8], publicKey: [UInt8])] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/crypto/p256-base-multiples.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let entries = try #require(document["cases"] as? [[String: String]])
        return try entries.map { entry in
            (P256Tests.hex(try #require(entry["scalar"])), P256Tests.hex(try #require(entry["public_key"])))
        }
    }

    @Test("Edge and random scalars (1, 2, n-1, Booth digit boundaries, 2^252, seeded random): Python's public keys, on both table scans")
    func pythonVectors() throws {
        let cases = try Self.cases()
        #expect(cases.count >= 40)
        for (scalar, expected) in cases {
            let key = try #require(DeviceKey(privateKey: Redacted(scalar)))
            #expect(key.publicKey == expected, "\(SecurityTestHex.encode(scalar))")
            var portable = [UInt8](repeating: 0, count: 65)
            #expect(ifc_p256_public_key_portable(&portable, scalar) == 1)
            #expect(portable == expected, "portable scan, \(SecurityTestHex.encode(scalar))")
        }
    }

    @Test("The AVX2 and portable table scans agree on random scalars, and with the variable-base windows")
    func scansAgree() throws {
        for _ in 0..<64 {
            let key = try DeviceKey.random()
            var portable = [UInt8](repeating: 0, count: 65), windows = [UInt8](repeating: 0, count: 65)
            #expect(ifc_p256_public_key_portable(&portable, key.privateKey.value) == 1)
            #expect(portable == key.publicKey)
            // scalar·G by the 4-bit windows of any point: an independent path.
            var one = [UInt8](repeating: 0, count: 32)
            one[31] = 1
            let generator = try #require(DeviceKey(privateKey: Redacted(one))).publicKey
            #expect(ifc_p256_multiply(&windows, generator, key.privateKey.value) == 1)
            #expect(windows == key.publicKey)
        }
    }

    @Test("safegcd inverses match Fermat's modulo p and n: edge values and random ones")
    func inversesAgree() {
        var values: [[UInt8]] = [
            [UInt8](repeating: 0, count: 32), [UInt8](repeating: 0, count: 31) + [1], [UInt8](repeating: 0, count: 31) + [2],
            [0x80] + [UInt8](repeating: 0, count: 31), [UInt8](repeating: 0xff, count: 32),
            P256Tests.hex("FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFE"),  // p - 1
            P256Tests.hex("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632550"),  // n - 1
            P256Tests.hex("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632552"),  // n + 1 (below p)
        ]
        for _ in 0..<2_000 { values.append((0..<32).map { _ in UInt8.random(in: 0...255) }) }
        for value in values {
            #expect(ifc_p256_inverses_agree(value) == 1, "\(SecurityTestHex.encode(value))")
        }
    }
}
