/// An RSA package key that verifies RSASSA-PKCS1-v1_5 (RFC 8017 §8.2.2) and RSASSA-PSS
/// (§8.1.2) signatures with SHA-256, SHA-384 or SHA-512: the `RS256`, `RS384`, `RS512`, `PS256`,
/// `PS384` and `PS512` algorithms of JSON Web Signatures (RFC 7518 §3.3, §3.5) used for OpenID
/// Connect ID tokens.
///
/// Moduli from 2048 to 8192 bits are accepted (2048 to 4096 are tested against OpenSSL).
///
/// ```swift
/// let key = try RSAPublicKey(jwkModulus: jwk["n"], jwkExponent: jwk["e"])
/// guard key.isValidSignature(signature, for: signingInput, hash: .sha512, scheme: .pss) else { throw ... }
/// ```
package struct RSAPublicKey: Sendable, Equatable {
    /// The smallest accepted modulus size in bits: 2048, as RFC 7518 §3.3 and §3.5 require for RS* and PS*.
    package static let minimumModulusBitCount = 2048

    /// The largest accepted modulus size in bits; it bounds the cost of a verification.
    package static let maximumModulusBitCount = 8192

    let modulus: BigUInt
    let exponent: BigUInt
    let arithmetic: MontgomeryModulus

    /// The size of the modulus in bits.
    package var modulusBitCount: Int { modulus.bitWidth }

    /// The size of the modulus in bytes, `k` in RFC 8017: every valid signature has exactly this length.
    package var modulusByteCount: Int { (modulus.bitWidth + 7) / 8 }

    // MARK: - Creating keys

    /// Creates a key from the unsigned big-endian bytes of its modulus and package exponent.
    /// - Parameters:
    ///   - modulus: The modulus `n`; leading zero bytes are ignored.
    ///   - exponent: The package exponent `e`; leading zero bytes are ignored.
    /// - Throws: ``CryptoError`` with code ``CryptoError/Code/invalidKey`` when the modulus is
    ///   outside ``minimumModulusBitCount``...``maximumModulusBitCount`` bits or even, or the
    ///   exponent is below 3, even, or not smaller than the modulus.
    package init(modulus: [UInt8], exponent: [UInt8]) throws {
        let n = BigUInt(bigEndianBytes: modulus)
        let e = BigUInt(bigEndianBytes: exponent)
        guard (Self.minimumModulusBitCount...Self.maximumModulusBitCount).contains(n.bitWidth) else {
            throw CryptoError(
                .invalidKey, reason: "RSA modulus of \(n.bitWidth) bits is outside \(Self.minimumModulusBitCount)-\(Self.maximumModulusBitCount) bits")
        }
        guard !n.isEven else {
            throw CryptoError(.invalidKey, reason: "RSA modulus is even")
        }
        guard e >= BigUInt(3), !e.isEven, e < n else {
            throw CryptoError(.invalidKey, reason: "RSA package exponent must be odd, at least 3 and smaller than the modulus")
        }
        guard let arithmetic = MontgomeryModulus(n) else {
            throw CryptoError(.invalidKey, reason: "RSA modulus is unusable")
        }
        self.modulus = n
        self.exponent = e
        self.arithmetic = arithmetic
    }

    /// Creates a key from the base64url `n` and `e` members of an RSA JSON Web Key (RFC 7518 §6.3.1).
    /// - Parameters:
    ///   - jwkModulus: The JWK `n` member: the modulus as base64url big-endian bytes.
    ///   - jwkExponent: The JWK `e` member: the exponent as base64url big-endian bytes (usually `"AQAB"`).
    /// - Throws: ``CryptoError`` with code ``CryptoError/Code/invalidKey`` when either member is
    ///   not valid base64url or the key is refused by ``init(modulus:exponent:)``.
    package init(jwkModulus: String, jwkExponent: String) throws {
        guard let modulus = Base64URL.decode(jwkModulus), let exponent = Base64URL.decode(jwkExponent) else {
            throw CryptoError(.invalidKey, reason: "JWK n or e is not valid base64url")
        }
        try self.init(modulus: modulus, exponent: exponent)
    }

    // MARK: - Verification

    /// An RSA signature scheme of RFC 8017 §8, with the parameters JSON Web Signatures fix.
    package enum SignatureScheme: Sendable, Equatable {
        /// RSASSA-PKCS1-v1_5 (§8.2): `RS256`, `RS384`, `RS512` (RFC 7518 §3.3).
        case pkcs1v15
        /// RSASSA-PSS (§8.1) with MGF1 over the message's hash and a salt as long as that hash:
        /// `PS256`, `PS384`, `PS512` (RFC 7518 §3.5).
        case pss
    }

    /// The DER encoding of a hash's `DigestInfo` up to the digest (RFC 8017 §9.2, note 1). The
    /// three differ in the sequence's length, the last byte of the hash's OID and the digest's length.
    private static func digestInfoPrefix(_ hash: Hashing.Function) -> [UInt8] {
        switch hash {
        case .sha256: [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20]
        case .sha384: [0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30]
        case .sha512: [0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40]
        }
    }

    /// Verifies an RSASSA-PKCS1-v1_5 (RFC 8017 §8.2.2) or RSASSA-PSS (§8.1.2) signature with
    /// SHA-256, SHA-384 or SHA-512.
    ///
    /// The signature must be exactly ``modulusByteCount`` bytes and, as an integer, smaller than
    /// the modulus. For PKCS#1 v1.5 the recovered encoded message is compared byte for byte with
    /// the complete expected EMSA-PKCS1-v1_5 encoding (`00 01 FF…FF 00 DigestInfo(hash) H`);
    /// nothing is parsed, so malformed paddings, other hash algorithms and PSS signatures all
    /// fail. For PSS it goes through EMSA-PSS-VERIFY (§9.1.2) with MGF1 over `hash` and a salt of
    /// exactly `hash`'s length, as JWS requires: other salt lengths, MGF1 hashes and PKCS#1 v1.5
    /// signatures fail.
    /// - Parameters:
    ///   - signature: The signature bytes.
    ///   - message: The signed message (for a JWS, the ASCII signing input `header.payload`).
    ///   - hash: The hash the signer used: SHA-256 (the default), SHA-384 or SHA-512.
    ///   - scheme: The signature scheme: PKCS#1 v1.5 (`RS*`, the default) or PSS (`PS*`).
    /// - Returns: `true` only if the signature is valid for `message` under this key with `hash`
    ///   and `scheme`.
    package func isValidSignature(
        _ signature: [UInt8], for message: some Collection<UInt8>, hash: Hashing.Function = .sha256,
        scheme: SignatureScheme = .pkcs1v15
    ) -> Bool {
        // §8.1.2 and §8.2.2 step 1: the signature is exactly k octets.
        let k = modulusByteCount
        guard signature.count == k else { return false }
        // Step 2a-b: s = OS2IP(S); RSAVP1 (§5.2.2) refuses s outside 0..<n, then m = s^e mod n.
        let s = BigUInt(bigEndianBytes: signature)
        guard s < modulus else { return false }
        let m = arithmetic.power(s, exponent)
        switch scheme {
        case .pkcs1v15:
            // §8.2.2 step 2c: EM = I2OSP(m, k). Steps 3-4: EM equals EMSA-PKCS1-v1_5-ENCODE(M, k).
            guard let encoded = m.bigEndianBytes(count: k), let expected = Self.encodedMessage(for: message, hash: hash, length: k) else {
                return false
            }
            return Self.constantTimeEqual(encoded, expected)
        case .pss:
            // §8.1.2 step 2c: EM = I2OSP(m, emLen) with emLen = ⌈(modBits − 1) / 8⌉, which is k − 1
            // when modBits is 1 more than a multiple of 8: an m that needs more octets is invalid.
            // Step 3: EMSA-PSS-VERIFY(M, EM, modBits − 1).
            let emBits = modulusBitCount - 1
            guard let encoded = m.bigEndianBytes(count: (emBits + 7) / 8) else { return false }
            return Self.isPSSEncoding(encoded, of: message, emBits: emBits, hash: hash)
        }
    }

    /// Whether two byte strings are equal, in a time that depends on their length only.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) {
            difference |= left ^ right
        }
        return difference == 0
    }

    /// EMSA-PKCS1-v1_5-ENCODE (RFC 8017 §9.2).
    private static func encodedMessage(for message: some Collection<UInt8>, hash: Hashing.Function, length: Int) -> [UInt8]? {
        let t = digestInfoPrefix(hash) + hash.hash(message)
        guard length >= t.count + 11 else { return nil }
        var encoded: [UInt8] = [0x00, 0x01]
        encoded.append(contentsOf: repeatElement(0xFF, count: length - t.count - 3))
        encoded.append(0x00)
        encoded.append(contentsOf: t)
        return encoded
    }
}
