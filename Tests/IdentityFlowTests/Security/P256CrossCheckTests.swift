import Testing
@_spi(Integrator) @testable import IdentityFlow

/// P-256 ECDSA against Python's `cryptography` on random keys and messages, both ways: its
/// signatures (high s half the time) verified here, ours verified there, and the public keys
/// this code derives from random scalars equal to those `cryptography` derives.
@Suite(
    "Cross-checks of P-256 ECDSA against Python's cryptography",
    .enabled(if: SecurityTestPython.hasCryptography, "python3 with the cryptography package not found (set IDENTITYFLOW_PYTHON; bash .ci/run does)")
)
struct P256CrossCheckTests {
    @Test("Python signs, this code verifies; this code signs, Python verifies; both derive the same public keys")
    func bothDirections() throws {
        let keys = try (0..<24).map { _ in try DeviceKey.random() }
        let messages = keys.indices.map { _ in SecurityTestRandom.bytes(Int.random(in: 0...200)) }
        let ours = zip(keys, messages).map { $0.sign($1) }
        let script = """
            import sys
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.asymmetric import ec, utils
            for line in sys.stdin.read().splitlines():
                scalar, message, signature = (bytes.fromhex(part) for part in line.split(" "))
                key = ec.derive_private_key(int.from_bytes(scalar, "big"), ec.SECP256R1())
                public = key.public_key()
                point = public.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
                r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
                try:
                    public.verify(utils.encode_dss_signature(r, s), message, ec.ECDSA(hashes.SHA256()))
                    ours = "ok"
                except Exception:
                    ours = "bad"
                theirs = utils.decode_dss_signature(key.sign(message, ec.ECDSA(hashes.SHA256())))
                print(point.hex(), ours, theirs[0].to_bytes(32, "big").hex() + theirs[1].to_bytes(32, "big").hex())
            """
        let input =
            keys.indices.map {
                [SecurityTestHex.encode(keys[$0].privateKey.value), SecurityTestHex.encode(messages[$0]), SecurityTestHex.encode(ours[$0])].joined(
                    separator: " ")
            }.joined(separator: "\n") + "\n"
        let lines = try SecurityTestPython.lines(ofScript: script, input: input)
        try #require(lines.count == keys.count)
        for (index, line) in lines.enumerated() {
            let parts = line.split(separator: " ").map(String.init)
            try #require(parts.count == 3)
            #expect(parts[0] == SecurityTestHex.encode(keys[index].publicKey), "public key \(index)")
            #expect(parts[1] == "ok", "our signature \(index) verified by cryptography")
            let theirs = try #require(SecurityTestHex.decode(parts[2]))
            #expect(DeviceKey.verify(theirs, of: messages[index], publicKey: keys[index].publicKey), "cryptography's signature \(index) verified here")
            #expect(!DeviceKey.verify(theirs, of: messages[index] + [0], publicKey: keys[index].publicKey))
        }
    }
}
