/// Authenticated encryption for the device vault (`docs/device-authenticators.md`): HMAC-SHA256
/// in counter mode as the keystream, then HMAC-SHA256 over the header, the nonce and the
/// ciphertext (encrypt-then-MAC). Both keys come from one 32-byte key through HKDF-SHA256, so a
/// key is never used for two purposes. It needs nothing but the SHA-256 the package already has,
/// on every platform.
///
/// A box is `version ‖ nonce (16) ‖ ciphertext ‖ tag (32)`; the associated data (the profile and
/// what the box holds) is authenticated but not stored.
enum SealedBox {
    static let version: UInt8 = 1
    static let nonceLength = 16
    static let tagLength = 32
    static let overhead = 1 + nonceLength + tagLength

    /// Seals `plaintext` under `key`.
    /// - Throws: ``ErrorCode/unknown`` when the secure random generator fails.
    static func seal(_ plaintext: [UInt8], key: Redacted<[UInt8]>, associatedData: [UInt8]) throws(IdentityFlowError) -> [UInt8] {
        let nonce = try PinProof.randomBytes(nonceLength)
        let (encryption, authentication) = subkeys(of: key)
        let ciphertext = xorKeystream(plaintext, key: encryption, nonce: nonce)
        let header = [version] + nonce
        return header + ciphertext + authentication.authenticationCode(for: associatedData + header + ciphertext)
    }

    /// Opens a box sealed by ``seal(_:key:associatedData:)``.
    /// - Returns: The plaintext, or `nil` when the key or the associated data is not the one it
    ///   was sealed with, or the box was changed.
    static func open(_ box: [UInt8], key: Redacted<[UInt8]>, associatedData: [UInt8]) -> [UInt8]? {
        guard isWellFormed(box) else { return nil }
        let (encryption, authentication) = subkeys(of: key)
        let header = Array(box[0...nonceLength])
        let ciphertext = Array(box[(nonceLength + 1)..<(box.count - tagLength)])
        let tag = Array(box.suffix(tagLength))
        let expected = authentication.authenticationCode(for: associatedData + header + ciphertext)
        guard LegacyPinProof.constantTimeEquals(expected, tag) else { return nil }
        return xorKeystream(ciphertext, key: encryption, nonce: Array(header.dropFirst()))
    }

    /// Whether a box has this version's header and room for its nonce and tag.
    static func isWellFormed(_ box: [UInt8]) -> Bool { box.count >= overhead && box[0] == version }

    private static func subkeys(of key: Redacted<[UInt8]>) -> (HMACSHA256, HMACSHA256) {
        let material = HKDF.sha256(inputKeyMaterial: key.value, salt: [], info: Array("identityflow-sealed-box-v1".utf8), outputLength: 64)
        return (HMACSHA256(key: material.prefix(32)), HMACSHA256(key: material.suffix(32)))
    }

    /// `bytes` XOR `HMAC(key, nonce ‖ counter)`, block by block.
    private static func xorKeystream(_ bytes: [UInt8], key: HMACSHA256, nonce: [UInt8]) -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(bytes.count)
        var counter: UInt32 = 0
        while output.count < bytes.count {
            var block = nonce
            withUnsafeBytes(of: counter.bigEndian) { block.append(contentsOf: $0) }
            let keystream = key.authenticationCode(for: block)
            let start = output.count
            for (index, byte) in keystream.prefix(bytes.count - start).enumerated() { output.append(bytes[start + index] ^ byte) }
            counter &+= 1
        }
        return output
    }
}
