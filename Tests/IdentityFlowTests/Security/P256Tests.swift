import CIdentityFlowCrypto
import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// P-256 ECDSA (PIN proof v2's signatures) and HKDF-SHA256 against published vectors.
@Suite("P-256 ECDSA and HKDF")
struct P256Tests {
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    static let order = hex("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")

    /// n − s, big-endian.
    static func negated(_ s: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            let difference = Int(order[index]) - Int(s[index]) - borrow
            result[index] = UInt8((difference + 256) & 0xFF)
            borrow = difference < 0 ? 1 : 0
        }
        return result
    }

    // RFC 6979 A.2.5: the P-256 key and its SHA-256 signatures of "sample" and "test".
    static let privateKey = hex("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721")
    static let publicKey =
        [0x04] + hex("60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6")
        + hex("7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299")

    @Test(
        "RFC 6979 A.2.5: the public key, the deterministic nonce's r, and s (up to the low-s choice)",
        arguments: [
            (
                "sample", "A6E3C57DD01ABE90086538398355DD4C3B17AA873382B0F24D6129493D8AAD60",
                "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716", "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"
            ),
            (
                "test", "D16B6AE827F17175E040871A1C7EC3500192C4C92677336EC2537ACAEE0008E0",
                "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367", "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083"
            ),
        ])
    func rfc6979(message: String, k: String, r: String, s: String) throws {
        let key = try #require(DeviceKey(privateKey: Redacted(Self.privateKey)))
        #expect(key.publicKey == Self.publicKey)
        let digest = Hashing.sha256(Array(message.utf8))
        var nonce = [UInt8](repeating: 0, count: 32)
        _ = ifc_p256_rfc6979_nonce(&nonce, digest, Self.privateKey)
        #expect(nonce == Self.hex(k))
        let signature = key.sign(Array(message.utf8))
        #expect(Array(signature.prefix(32)) == Self.hex(r))
        let lowS = [Self.hex(s), Self.negated(Self.hex(s))].min { $0.lexicographicallyPrecedes($1) }
        #expect(Array(signature.suffix(32)) == lowS)
        #expect(DeviceKey.verify(signature, of: Array(message.utf8), publicKey: Self.publicKey))
        // Both s and n − s verify (high s is accepted, as in FIPS 186-5).
        #expect(DeviceKey.verify(Self.hex(r) + Self.hex(s), of: Array(message.utf8), publicKey: Self.publicKey))
        #expect(!DeviceKey.verify(signature, of: Array((message + "!").utf8), publicKey: Self.publicKey))
    }

    @Test("scalars: key material reduces into 1...n-1; zero, n and 31-byte keys are refused")
    func scalars() {
        #expect(DeviceKey(privateKey: Redacted(Array(repeating: 0, count: 32))) == nil)
        #expect(DeviceKey(privateKey: Redacted(Self.order)) == nil)
        #expect(DeviceKey(privateKey: Redacted(Array(repeating: 1, count: 31))) == nil)
        let one = DeviceKey(keyMaterial: Array(repeating: 0, count: 48))
        #expect(one.privateKey.value == Array(repeating: 0, count: 31) + [1], "0 mod (n-1) + 1 = 1")
        #expect(
            one.publicKey == [0x04] + Self.hex("6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296")
                + Self.hex("4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5"), "1·G = G")
        let top = DeviceKey(keyMaterial: Array(repeating: 0xFF, count: 48))
        #expect(DeviceKey(privateKey: top.privateKey) != nil)
    }

    @Test("points: off-curve, out-of-range and compressed encodings are refused; malformed signatures do not verify")
    func malformed() throws {
        var offCurve = Self.publicKey
        offCurve[64] ^= 1
        #expect(!DeviceKey.isValidPublicKey(offCurve))
        var compressed = Self.publicKey
        compressed[0] = 0x02
        #expect(!DeviceKey.isValidPublicKey(compressed))
        #expect(!DeviceKey.isValidPublicKey([0x04] + Array(repeating: 0xFF, count: 64)))
        #expect(DeviceKey.isValidPublicKey(Self.publicKey))
        let signature = try #require(DeviceKey(privateKey: Redacted(Self.privateKey))).sign([1])
        #expect(!DeviceKey.isWellFormedSignature(Array(repeating: 0, count: 64)))
        #expect(!DeviceKey.isWellFormedSignature(Array(signature.prefix(32)) + Self.order))
        #expect(!DeviceKey.verify(Array(signature.prefix(32)) + Self.order, of: [1], publicKey: Self.publicKey))
        #expect(!DeviceKey.verify(signature, of: [1], publicKey: offCurve))
        #expect(DeviceKey.verify(signature, of: [1], publicKey: Self.publicKey))
        for _ in 0..<64 {
            let garbage = (0..<64).map { _ in UInt8.random(in: 0...255) }
            #expect(!DeviceKey.verify(garbage, of: [1], publicKey: Self.publicKey))
        }
    }

    @Test("Wycheproof-style edge cases made with Python's cryptography (Tests/Fixtures/crypto/p256-edge-cases.json)")
    func edgeCases() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/crypto/p256-edge-cases.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let cases = try #require(document["cases"] as? [[String: Any]])
        #expect(cases.count >= 15)
        for entry in cases {
            let name = try #require(entry["name"] as? String)
            func bytes(_ key: String) throws -> [UInt8] { Self.hex(try #require(entry[key] as? String)) }
            let valid = try #require(entry["valid"] as? Bool)
            #expect(DeviceKey.verify(try bytes("signature"), of: try bytes("message"), publicKey: try bytes("public_key")) == valid, "\(name)")
        }
    }

    @Test("random keys sign and verify; another key's signature does not")
    func roundTrip() throws {
        for index in 0..<16 {
            let key = try DeviceKey.random(), other = try DeviceKey.random()
            let message = Array("message \(index)".utf8)
            let signature = key.sign(message)
            #expect(DeviceKey.verify(signature, of: message, publicKey: key.publicKey))
            #expect(!DeviceKey.verify(signature, of: message, publicKey: other.publicKey))
            #expect(DeviceKey.isValidPublicKey(key.publicKey))
        }
    }

    @Test("the worked example of docs/pin-proof.md: the PIN key's scalar and public key as Python derives them")
    func pinKeyWorkedExample() throws {
        let key = try PinProof.pinKey(
            pin: Redacted("24680"), salt: Array(0x00..<0x10), iterations: 100_000,
            deviceSecret: Redacted(Array(0x40..<0x60)), profile: UserProfile(profileId: "P1"))
        #expect(key.privateKey.value == Self.hex("3e9472daa91599e3b944f5fededf7275246d26a182f11c4caf6c5192dfe52dcd"))
        #expect(
            key.publicKey
                == Self.hex(
                    "048801ad25a220149eb44c9181274d2dd334d587fb5f3ce0794bc638d5ea874198ccf2a0cf107c3682f20f292f4c300eca22c9e7e62ed9d5984ec9c3878c5f4fc1"))
        #expect(
            PinProof.message(PinProof.Purpose.login.rawValue, profile: UserProfile(profileId: "P1"), nonce: Array(0x20..<0x40))
                == Self.hex("6964656e74697479666c6f772d70696e2d70726f6f662d763200503100202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"))
    }

    /// k·G through the fixed-base table (what keys and signatures use).
    static func baseMultiple(_ scalar: [UInt8]) -> [UInt8]? {
        var point = [UInt8](repeating: 0, count: 65)
        return ifc_p256_public_key(&point, scalar) == 1 ? point : nil
    }

    /// k·P through the variable-base windows (what verification uses for the public key).
    static func multiple(of point: [UInt8], _ scalar: [UInt8]) -> [UInt8]? {
        var result = [UInt8](repeating: 0, count: 65)
        return ifc_p256_multiply(&result, point, scalar) == 1 ? result : nil
    }

    /// `digit`·16^`position` as 32 bytes big-endian.
    static func digitScalar(_ digit: UInt8, at position: Int) -> [UInt8] {
        var scalar = [UInt8](repeating: 0, count: 32)
        scalar[31 - position / 2] = position % 2 == 0 ? digit : digit << 4
        return scalar
    }

    @Test("the fixed-base table and the variable-base windows give the same k·G for edge and random scalars")
    func fixedAndVariableBaseAgree() throws {
        let generator = try #require(Self.baseMultiple(Array(repeating: 0, count: 31) + [1]))
        var minusOne = Self.order
        minusOne[31] -= 1
        var minusTwo = Self.order
        minusTwo[31] -= 2
        var half = [UInt8](repeating: 0, count: 32)
        for index in 0..<32 {  // (n - 1) / 2: shift n - 1 right by one bit
            half[index] = (minusOne[index] >> 1) | (index > 0 ? minusOne[index - 1] << 7 : 0)
        }
        var scalars: [[UInt8]] = [minusOne, minusTwo, half, Array(repeating: 0x11, count: 32)]
        for position in [0, 1, 2, 31, 32, 62, 63] {
            for digit: UInt8 in [1, 2, 8, 15] { scalars.append(Self.digitScalar(digit, at: position)) }
        }
        // The fixed-base path's signed 6-bit digits: windows of 32 (the largest positive digit), 33
        // and 63 (negative, carrying into the next window), runs of carries, and the top window.
        for window in [0, 1, 20, 41, 42] {
            for value: UInt64 in [32, 33, 63, 1] {
                if let scalar = Self.windowScalar([(window, value)]) { scalars.append(scalar) }
            }
        }
        for value: UInt64 in [32, 33, 63] {
            if let scalar = Self.windowScalar((0..<42).map { ($0, value) }) { scalars.append(scalar) }
        }
        for _ in 0..<48 {
            let key = try DeviceKey.random()
            scalars.append(key.privateKey.value)
        }
        for scalar in scalars {
            let fixed = try #require(Self.baseMultiple(scalar))
            #expect(Self.multiple(of: generator, scalar) == fixed, "\(scalar)")
        }
        // (n - 1)·G = -G: the same x, y negated.
        let negated = try #require(Self.baseMultiple(minusOne))
        #expect(Array(negated.prefix(33)) == Array(generator.prefix(33)))
        #expect(negated != generator)
        // 2·(3·G) = 6·G through both paths.
        let threeG = try #require(Self.baseMultiple(Array(repeating: 0, count: 31) + [3]))
        #expect(Self.multiple(of: threeG, Array(repeating: 0, count: 31) + [2]) == Self.baseMultiple(Array(repeating: 0, count: 31) + [6]))
        // Out of range scalars and off-curve points are refused.
        #expect(Self.baseMultiple(Self.order) == nil)
        #expect(Self.multiple(of: generator, Array(repeating: 0, count: 32)) == nil)
        #expect(Self.multiple(of: generator, Self.order) == nil)
        var offCurve = generator
        offCurve[64] ^= 1
        #expect(Self.multiple(of: offCurve, Array(repeating: 0, count: 31) + [2]) == nil)
    }

    /// The scalar Σ value·64^window over the given (window, value) pairs (6-bit windows, values
    /// below 64), as 32 big-endian bytes; `nil` when it is not in 1...n-1.
    static func windowScalar(_ windows: [(Int, UInt64)]) -> [UInt8]? {
        var limbs = [UInt64](repeating: 0, count: 5)
        for (window, value) in windows {
            let bit = 6 * window
            limbs[bit / 64] |= value << UInt64(bit % 64)
            if bit % 64 > 58 { limbs[bit / 64 + 1] |= value >> UInt64(64 - bit % 64) }
        }
        guard limbs[4] == 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in 0..<32 {
            let shift = UInt64(56 - 8 * (index % 8))
            bytes[index] = UInt8(truncatingIfNeeded: limbs[3 - index / 8] >> shift)
        }
        guard bytes.contains(where: { $0 != 0 }), bytes.lexicographicallyPrecedes(order) else { return nil }
        return bytes
    }

    @Test(
        "RFC 5869 test cases 1-3",
        arguments: [
            (
                "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9", 42,
                "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
            ),
            (
                "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f",
                "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
                "b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
                82,
                "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"
            ),
            (
                "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "", "", 42,
                "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
            ),
        ])
    func hkdf(ikm: String, salt: String, info: String, length: Int, okm: String) {
        #expect(HKDF.sha256(inputKeyMaterial: Self.hex(ikm), salt: Self.hex(salt), info: Self.hex(info), outputLength: length) == Self.hex(okm))
    }
}
