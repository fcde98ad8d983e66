/// Modular exponentiation modulo a fixed odd modulus by Montgomery multiplication (CIOS
/// method, Koç et al. 1996) on 64-bit limbs: the fast path of RSA signature verification.
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
        let count = modulus.count
        let reduced = base < value ? base : base.remainder(dividingBy: value)
        // Scratch: x | base in Montgomery form | one | R² | t (count + 2 words).
        var scratch = [UInt64](repeating: 0, count: 5 * count + 2)
        let baseLimbs = Self.limbs64(of: reduced, count: count)
        scratch.withUnsafeMutableBufferPointer { buffer in
            guard let x = buffer.baseAddress else { return }
            let montgomeryBase = x + count, one = x + 2 * count, r2 = x + 3 * count, t = x + 4 * count
            for index in 0..<count {
                one[index] = index == 0 ? 1 : 0
                r2[index] = rSquared[index]
                x[index] = baseLimbs[index]
            }
            multiply(x, r2, into: montgomeryBase, scratch: t)
            // x = R mod n (Montgomery one), then left-to-right square-and-multiply.
            multiply(one, r2, into: x, scratch: t)
            for bit in stride(from: exponent.bitWidth - 1, through: 0, by: -1) {
                multiply(x, x, into: x, scratch: t)
                if exponent.bit(bit) {
                    multiply(x, montgomeryBase, into: x, scratch: t)
                }
            }
            multiply(x, one, into: x, scratch: t)
        }
        var limbs32: [UInt32] = []
        limbs32.reserveCapacity(2 * count)
        for limb in scratch[0..<count] {
            limbs32.append(UInt32(truncatingIfNeeded: limb))
            limbs32.append(UInt32(truncatingIfNeeded: limb >> 32))
        }
        return BigUInt(limbs: limbs32)
    }

    /// `result = a · b · R⁻¹ mod n` for `a, b < n`; `result` may alias `a` or `b`.
    private func multiply(
        _ a: UnsafePointer<UInt64>, _ b: UnsafePointer<UInt64>,
        into result: UnsafeMutablePointer<UInt64>, scratch t: UnsafeMutablePointer<UInt64>
    ) {
        let count = modulus.count
        modulus.withUnsafeBufferPointer { nBuffer in
            guard let n = nBuffer.baseAddress else { return }
            for index in 0..<(count + 2) {
                t[index] = 0
            }
            for i in 0..<count {
                // t += a · b[i]. Each step's a·b + t + carry ≤ 2¹²⁸ − 1, so the carries never overflow.
                let bi = b[i]
                var carry: UInt64 = 0
                for j in 0..<count {
                    let (high, low) = a[j].multipliedFullWidth(by: bi)
                    let (sum, overflow1) = low.addingReportingOverflow(t[j])
                    let (total, overflow2) = sum.addingReportingOverflow(carry)
                    t[j] = total
                    carry = high &+ overflow1.bit &+ overflow2.bit
                }
                let (top, topOverflow) = t[count].addingReportingOverflow(carry)
                t[count] = top
                t[count + 1] = topOverflow.bit
                // t = (t + m · n) / 2⁶⁴ with m chosen so the low limb cancels.
                let m = t[0] &* negatedInverse
                let (firstHigh, firstLow) = m.multipliedFullWidth(by: n[0])
                carry = firstHigh &+ firstLow.addingReportingOverflow(t[0]).overflow.bit
                for j in 1..<max(count, 1) {
                    let (high, low) = m.multipliedFullWidth(by: n[j])
                    let (sum, overflow1) = low.addingReportingOverflow(t[j])
                    let (total, overflow2) = sum.addingReportingOverflow(carry)
                    t[j - 1] = total
                    carry = high &+ overflow1.bit &+ overflow2.bit
                }
                let (shifted, shiftOverflow) = t[count].addingReportingOverflow(carry)
                t[count - 1] = shifted
                t[count] = t[count + 1] &+ shiftOverflow.bit
            }
            // t < 2n: subtract n once if t ≥ n.
            var needsSubtraction = t[count] != 0
            if !needsSubtraction {
                needsSubtraction = true
                for index in stride(from: count - 1, through: 0, by: -1) where t[index] != n[index] {
                    needsSubtraction = t[index] > n[index]
                    break
                }
            }
            if needsSubtraction {
                var borrow = false
                for index in 0..<count {
                    let (difference, overflow1) = t[index].subtractingReportingOverflow(n[index])
                    let (final, overflow2) = difference.subtractingReportingOverflow(borrow ? 1 : 0)
                    t[index] = final
                    borrow = overflow1 || overflow2
                }
            }
            for index in 0..<count {
                result[index] = t[index]
            }
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

extension Bool {
    /// 1 for `true`, 0 for `false`, without a branch: carries are data-dependent and
    /// unpredictable, and a mispredicted branch per limb would dominate the multiplication.
    @inline(__always)
    fileprivate var bit: UInt64 {
        // Bool is a single byte holding exactly 0 or 1.
        UInt64(unsafeBitCast(self, to: UInt8.self))
    }
}
