/// An ECDSA public key on P-384 or P-521 that verifies signatures as FIPS 186-4 §6.4 and SEC 1
/// §4.1.4 describe: the `ES384` and `ES512` algorithms of JSON Web Signatures (RFC 7518 §3.4),
/// whose signatures are `r ‖ s`, each as long as a coordinate (48 or 66 bytes, big-endian).
///
/// Verification handles public data only (the key, the signature, the message), so it is not
/// constant time and need not be.
///
/// ```swift
/// guard let key = ECDSAPublicKey(curve: .p384, x: jwkX, y: jwkY) else { throw ... }
/// let valid = key.isValidSignature(signature, for: signingInput, hash: .sha384)
/// ```
struct ECDSAPublicKey: Sendable, Equatable {
    /// The key's curve.
    let curve: EllipticCurve

    /// The point's affine coordinates.
    let x: BigUInt, y: BigUInt

    /// The key with the point `(x, y)`, given as unsigned big-endian coordinates of exactly the
    /// curve's ``EllipticCurve/byteCount`` (as a JWK's `x` and `y` must be, RFC 7518 §6.2.1.2).
    /// - Returns: `nil` for coordinates of another length, not below `p`, or not a point of the
    ///   curve (SEC 1 §3.2.2.1; with cofactor 1 that is the whole check).
    init?(curve: EllipticCurve, x: [UInt8], y: [UInt8]) {
        guard x.count == curve.byteCount, y.count == curve.byteCount else { return nil }
        let x = BigUInt(bigEndianBytes: x), y = BigUInt(bigEndianBytes: y)
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
    func isValidSignature(_ signature: [UInt8], for message: some Collection<UInt8>, hash: Hashing.Function) -> Bool {
        isValidSignature(signature, digest: hash.hash(message))
    }

    /// Whether `signature`, `r ‖ s`, is valid for `digest`, a message's hash (SEC 1 §4.1.4).
    func isValidSignature(_ signature: [UInt8], digest: [UInt8]) -> Bool {
        // Step 1: r and s are integers in [1, n − 1].
        guard let (r, s) = curve.signatureScalars(signature) else { return false }
        // Steps 2-3: e is the digest truncated to the bit length of n.
        let e = curve.digestInteger(digest)
        // Step 4: w = s⁻¹ mod n. Step 5: u₁ = e·w mod n, u₂ = r·w mod n, R = u₁G + u₂Q.
        let scalars = curve.scalars
        let w = scalars.inverse(s)
        let u1 = scalars.multiply(scalars.reduce(e), w), u2 = scalars.multiply(r, w)
        let sum = curve.linearCombination(u1, u2, curve.point(x: x, y: y))
        // Step 6: R is not the point at infinity. Steps 7-8: x_R mod n equals r.
        guard let point = curve.affine(sum) else { return false }
        return curve.signatureMatches(xR: point.x, r: r)
    }
}

extension EllipticCurve {
    /// A signature's `r` and `s`: `r ‖ s`, each ``byteCount`` big-endian bytes, and each in
    /// `1...n − 1` (SEC 1 §4.1.4 step 1); `nil` otherwise, which refuses the DER form and values
    /// equal to n or larger, even those congruent to a valid one.
    func signatureScalars(_ signature: [UInt8]) -> (r: BigUInt, s: BigUInt)? {
        guard signature.count == 2 * byteCount else { return nil }
        let r = BigUInt(bigEndianBytes: signature[..<byteCount]), s = BigUInt(bigEndianBytes: signature[byteCount...])
        let n = scalars.modulus
        guard !r.isZero, r < n, !s.isZero, s < n else { return nil }
        return (r, s)
    }

    /// The integer of a digest's leftmost ⌈log₂ n⌉ bits (SEC 1 §4.1.4 step 3, FIPS 186-4 §6.4):
    /// the whole digest when it is not longer than n (SHA-384 on P-384, SHA-512 on P-521, whose n
    /// has 521 bits: the digest is not shifted left to fill them), its leading bits otherwise.
    func digestInteger(_ digest: [UInt8]) -> BigUInt {
        let value = BigUInt(bigEndianBytes: digest)
        let excess = 8 * digest.count - orderBitCount
        return excess > 0 ? value.shiftedRight(by: excess) : value
    }

    /// SEC 1 §4.1.4 step 7-8: whether `x_R mod n` equals `r`. `x_R` is below p, which exceeds n on
    /// these curves, so it may need the reduction.
    func signatureMatches(xR: BigUInt, r: BigUInt) -> Bool {
        scalars.reduce(xR) == r
    }
}
