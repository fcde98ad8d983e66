import CIdentityFlowCrypto

/// Modular exponentiation modulo a fixed odd modulus by Montgomery multiplication (CIOS
/// method, Koç et al. 1996) on 64-bit limbs, in C: the fast path of RSA signature verification.
///
/// The constants (`-n⁻¹ mod 2⁶⁴` and `R² mod n`) are computed once per modulus. Only public
/// values go through this type, so it makes no constant-time claims.
struct MontgomeryModulus: Sendable, Equatable {
    /// The modulus `n`, 64-bit limbs, least significant first.
    private let modulus: [UInt64]

    /// `-n⁻¹ mod 2⁶⁴`.
    private let negatedInverse: UInt64

    /// `R² mod n` with `R = 2^(64 × limb count)`, to enter the Montgomery domain.
    private let rSquared: [UInt64]

    /// The original modulus.
    let value: BigUInt

    /// Prepares arithmetic modulo `modulus`.
    /// - Parameter modulus: An odd modulus greater than 1.
    /// - Returns: `nil` if `modulus` is even or below 3.
    init?(_ modulus: BigUInt) {
        guard !modulus.isEven, modulus > BigUInt(1) else { return nil }
        let limbs = Self.limbs64(of: modulus, count: (modulus.limbs.count + 1) / 2)
        // Newton's iteration doubles the correct low bits each step: 3 (n·n ≡ 1 mod 8) → 6 → ... → 96.
        var inverse = limbs[0]
        for _ in 0..<5 {
            inverse = inverse &* (2 &- limbs[0] &* inverse)
        }
        let r2 = BigUInt(limbs: [UInt32](repeating: 0, count: 4 * limbs.count) + [1]).remainder(dividingBy: modulus)
        self.modulus = limbs
        self.negatedInverse = 0 &- inverse
        self.rSquared = Self.limbs64(of: r2, count: limbs.count)
        self.value = modulus
    }

    /// Computes `base^exponent mod n`.
    /// - Parameters:
    ///   - base: The base (reduced modulo `n` first if needed).
    ///   - exponent: The exponent.
    /// - Returns: `base^exponent mod n`.
    func power(_ base: BigUInt, _ exponent: BigUInt) -> BigUInt {
        // n > 1, so x^0 mod n is 1.
        guard !exponent.isZero else { return BigUInt(1) }
        let count = modulus.count
        let reduced = base < value ? base : base.remainder(dividingBy: value)
        guard exponent.bitWidth > 1 else { return reduced }
        // Scratch: x | base | base in Montgomery form | t (2 × count words).
        var scratch = [UInt64](repeating: 0, count: 5 * count)
        scratch.withUnsafeMutableBufferPointer { buffer in
            guard let x = buffer.baseAddress else { return }
            let plainBase = x + count, montgomeryBase = x + 2 * count, t = x + 3 * count
            Self.store(reduced, into: plainBase, count: count)
            rSquared.withUnsafeBufferPointer { r2 in
                guard let r2 = r2.baseAddress else { return }
                multiply(plainBase, r2, into: montgomeryBase, scratch: t)
            }
            // Left-to-right square-and-multiply from the top bit, which is 1: x starts as the base.
            x.update(from: montgomeryBase, count: count)
            for bit in stride(from: exponent.bitWidth - 2, through: 1, by: -1) {
                square(x, scratch: t)
                if exponent.bit(bit) {
                    multiply(x, montgomeryBase, into: x, scratch: t)
                }
            }
            square(x, scratch: t)
            // The last step also leaves the Montgomery domain: x · base · R⁻¹ = x_plain · base when
            // the low bit is set (always, for RSA), else x · 1 · R⁻¹.
            if exponent.bit(0) {
                multiply(x, plainBase, into: x, scratch: t)
            } else {
                // The plain base is no longer needed: it becomes 1.
                plainBase.update(repeating: 0, count: count)
                plainBase[0] = 1
                multiply(x, plainBase, into: x, scratch: t)
            }
        }
        var limbs32: [UInt32] = []
        limbs32.reserveCapacity(2 * count)
        for limb in scratch[0..<count] {
            limbs32.append(UInt32(truncatingIfNeeded: limb))
            limbs32.append(UInt32(truncatingIfNeeded: limb >> 32))
        }
        return BigUInt(limbs: limbs32)
    }

    /// `result = a · b · R⁻¹ mod n` for `a, b < n`; `result` may alias `a` or `b`. The loop is
    /// C (fused CIOS on 128-bit products), which compiles to one multiply-add chain per limb.
    @inline(__always)
    private func multiply(
        _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>,
        into result: UnsafeMutablePointer<UInt64>, scratch t: UnsafeMutablePointer<UInt64>
    ) {
        modulus.withUnsafeBufferPointer { n in
            ifc_montgomery_multiply(result, a, b, n.baseAddress, negatedInverse, n.count, t)
        }
    }

    /// `x = x² · R⁻¹ mod n` for `x < n`, with the C squaring (cross products once).
    @inline(__always)
    private func square(_ x: UnsafeMutablePointer<UInt64>, scratch t: UnsafeMutablePointer<UInt64>) {
        modulus.withUnsafeBufferPointer { n in
            ifc_montgomery_square(x, x, n.baseAddress, negatedInverse, n.count, t)
        }
    }

    /// Writes `value` as exactly `count` 64-bit limbs, least significant first, at `destination`
    /// (truncating above).
    private static func store(_ value: BigUInt, into destination: UnsafeMutablePointer<UInt64>, count: Int) {
        destination.update(repeating: 0, count: count)
        for (index, limb) in value.limbs.enumerated() where index / 2 < count {
            destination[index / 2] |= UInt64(limb) << (32 * UInt64(index % 2))
        }
    }

    /// The value as exactly `count` 64-bit limbs, least significant first (truncating above).
    private static func limbs64(of value: BigUInt, count: Int) -> [UInt64] {
        var result = [UInt64](repeating: 0, count: count)
        for (index, limb) in value.limbs.enumerated() where index / 2 < count {
            result[index / 2] |= UInt64(limb) << (32 * UInt64(index % 2))
        }
        return result
    }
}
