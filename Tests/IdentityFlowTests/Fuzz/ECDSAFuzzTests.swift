import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The ECDSA verifiers under hostile bytes: P-256 (PIN proofs, ES256), P-384 and P-521 (ES384,
/// ES512), all in C.
extension FuzzTests {
    /// An input laid out as signature ‖ digest ‖ x ‖ y, cut back into those parts: the signature
    /// is the first `2 · size` bytes, the key the last `2 · size`, the digest what lies between
    /// (any part may come out short when mutations shortened the input).
    struct ECDSAInput {
        let signature: [UInt8], digest: [UInt8], x: [UInt8], y: [UInt8]

        init(_ input: [UInt8], size: Int) {
            signature = Array(input.prefix(2 * size))
            let rest = Array(input.dropFirst(2 * size))
            let key = Array(rest.suffix(2 * size))
            digest = Array(rest.dropLast(key.count))
            x = Array(key.prefix(size))
            y = Array(key.dropFirst(size))
        }

        /// The bytes of a case laid out for the fuzzer.
        static func bytes(signature: [UInt8], digest: [UInt8], x: [UInt8], y: [UInt8]) -> [UInt8] {
            signature + digest + x + y
        }
    }

    @Test(
        "ECDSA P-256, P-384 and P-521: a mutated signature, digest or key verifies only with a valid seed's key, signature (or its high-s twin) and the digest bits that count",
        arguments: ["P-256", "P-384", "P-521"])
    func ecdsa(_ name: String) throws {
        let size = ["P-256": 32, "P-384": 48, "P-521": 66][name] ?? 0
        let orderBits = ["P-256": 256, "P-384": 384, "P-521": 521][name] ?? 0
        let curve = name == "P-384" ? EllipticCurve.p384 : name == "P-521" ? .p521 : nil
        let valid = try ECDSAEdgeCaseDocument.load().cases.filter { $0.curve == name && $0.valid }
        let seeds = try valid.map { edge in
            ECDSAInput.bytes(
                signature: try #require(SecurityTestHex.decode(edge.signature)), digest: try #require(SecurityTestHex.decode(edge.digest)),
                x: try #require(SecurityTestHex.decode(edge.x)), y: try #require(SecurityTestHex.decode(edge.y)))
        }
        let originals = seeds.map { ECDSAInput($0, size: size) }
        #expect(
            !originals.isEmpty && originals.allSatisfy { ECDSATests.verifies(name, $0.signature, digest: $0.digest, x: $0.x, y: $0.y) },
            "every seed verifies")
        // n, p and G's coordinates: ecdsa-vectors.json has them for P-384 and P-521 (from cryptography).
        let (n, p, gx, gy): ([UInt8], [UInt8], [UInt8], [UInt8])
        if name == "P-256" {
            (n, p) = (
                try ECDSACurveBytes.fixed("FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551", 32),
                try ECDSACurveBytes.fixed("FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF", 32)
            )
            (gx, gy) = (
                try ECDSACurveBytes.fixed("6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296", 32),
                try ECDSACurveBytes.fixed("4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5", 32)
            )
        } else {
            let constants = try EllipticCurveTests.Constants(name)
            (n, p, gx, gy) = (constants.n, constants.p, constants.gx, constants.gy)
        }
        let dictionary = [
            n, p, gx, gy, [UInt8](repeating: 0, count: size), [UInt8](repeating: 0xFF, count: size),
            ECDSACurveBytes.subtract(n, ECDSACurveBytes.small(1, size)), [0], [0xFF], [1],
        ]
        Fuzzer.run("ecdsa-\(name)", byteSeeds: seeds, dictionary: dictionary) { input in
            let candidate = ECDSAInput(input, size: size)
            let keyAccepted =
                curve.map { ECDSAPublicKey(curve: $0, x: candidate.x, y: candidate.y) != nil }
                ?? DeviceKey.isValidPublicKey([0x04] + candidate.x + candidate.y)
            let verified = ECDSATests.verifies(name, candidate.signature, digest: candidate.digest, x: candidate.x, y: candidate.y)
            if verified && !keyAccepted { return "verified under a key that is refused" }
            guard verified else { return nil }
            let matches = originals.contains { original in
                guard original.x == candidate.x, original.y == candidate.y, original.signature.prefix(size) == candidate.signature.prefix(size) else {
                    return false
                }
                let s = Array(candidate.signature.suffix(size)), originalS = Array(original.signature.suffix(size))
                let twin = ECDSACurveBytes.subtract(n, originalS)
                guard s == originalS || s == twin else { return false }
                return original.digest.count != candidate.digest.count
                    || Self.leadingBitsEqual(original.digest, candidate.digest, bits: orderBits)
            }
            return matches ? nil : "a mutated signature, key or digest verified"
        }
    }

    /// Whether two digests of one length agree on their leftmost `bits` bits, all that
    /// verification reads of a digest longer than n (SEC 1 §4.1.4 step 3).
    static func leadingBitsEqual(_ a: [UInt8], _ b: [UInt8], bits: Int) -> Bool {
        let whole = min(a.count, bits / 8)
        guard a.prefix(whole) == b.prefix(whole) else { return false }
        guard whole < a.count, bits % 8 != 0 else { return true }
        let mask = UInt8(0xFF) << (8 - bits % 8)
        return a[whole] & mask == b[whole] & mask
    }
}
