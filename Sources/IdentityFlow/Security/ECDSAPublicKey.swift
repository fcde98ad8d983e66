/// An ECDSA public key on P-384 or P-521 that verifies signatures as FIPS 186-4 §6.4 and SEC 1
/// §4.1.4 describe: the `ES384` and `ES512` algorithms of JSON Web Signatures (RFC 7518 §3.4),
/// whose signatures are `r ‖ s`, each as long as a coordinate (48 or 66 bytes, big-endian).
///
/// Verification handles public data only (the key, the signature, the message), so it is not
/// constant time and need not be. It runs in C (see ``EllipticCurve``).
///
/// ```swift
/// guard let key = ECDSAPublicKey(curve: .p384, x: jwkX, y: jwkY) else { throw ... }
/// let valid = key.isValidSignature(signature, for: signingInput, hash: .sha384)
/// ```
package struct ECDSAPublicKey: Sendable, Equatable {
    /// The key's curve.
    let curve: EllipticCurve

    /// The point's affine coordinates, big-endian, each ``EllipticCurve/byteCount`` bytes.
    let x: [UInt8], y: [UInt8]

    /// The key with the point `(x, y)`, given as unsigned big-endian coordinates of exactly the
    /// curve's ``EllipticCurve/byteCount`` (as a JWK's `x` and `y` must be, RFC 7518 §6.2.1.2).
    /// - Returns: `nil` for coordinates of another length, not below `p`, or not a point of the
    ///   curve (SEC 1 §3.2.2.1; with cofactor 1 that is the whole check).
    package init?(curve: EllipticCurve, x: [UInt8], y: [UInt8]) {
        guard curve.contains(x: x, y: y) else { return nil }
        self.curve = curve
        self.x = x
        self.y = y
    }

    /// Whether `signature`, `r ‖ s`, is a valid signature of `message` hashed with `hash`.
    /// - Parameters:
    ///   - signature: `r ‖ s`, each exactly ``EllipticCurve/byteCount`` bytes; the DER form fails.
    ///   - message: The signed message (for a JWS, the ASCII signing input `header.payload`).
    ///   - hash: The hash the signer used (JWS: SHA-384 for `ES384`, SHA-512 for `ES512`).
    package func isValidSignature(_ signature: [UInt8], for message: some Collection<UInt8>, hash: Hashing.Function) -> Bool {
        isValidSignature(signature, digest: hash.hash(message))
    }

    /// Whether `signature`, `r ‖ s`, is valid for `digest`, a message's hash (SEC 1 §4.1.4): `r`
    /// and `s` in `1...n − 1`, and `x_R mod n = r` for `R = (e·G + r·Q) / s`, which is not the
    /// point at infinity.
    func isValidSignature(_ signature: [UInt8], digest: [UInt8]) -> Bool {
        curve.verify(signature, digest: digest, x: x, y: y)
    }
}
