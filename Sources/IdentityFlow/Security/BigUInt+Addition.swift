/// Addition, subtraction and right shifts, which ECDSA verification needs on top of RSA's
/// multiplication and remainder: field and scalar arithmetic (``PrimeField``) and the truncation
/// of a digest to the bit length of the group order (SEC 1 §4.1.4 step 3).
extension BigUInt {
    /// The sum.
    static func + (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
        let (long, short) = lhs.limbs.count >= rhs.limbs.count ? (lhs.limbs, rhs.limbs) : (rhs.limbs, lhs.limbs)
        var sum = [UInt32](repeating: 0, count: long.count + 1)
        var carry: UInt64 = 0
        for index in 0..<long.count {
            let total = UInt64(long[index]) + UInt64(index < short.count ? short[index] : 0) + carry
            sum[index] = UInt32(truncatingIfNeeded: total)
            carry = total >> 32
        }
        sum[long.count] = UInt32(carry)
        return BigUInt(limbs: sum)
    }

    /// The difference; `lhs` must not be smaller than `rhs` (there are no negative values).
    static func - (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
        precondition(!(lhs < rhs), "BigUInt subtraction would be negative")
        var difference = lhs.limbs
        var borrow: Int64 = 0
        for index in 0..<difference.count {
            let total = Int64(difference[index]) - Int64(index < rhs.limbs.count ? rhs.limbs[index] : 0) - borrow
            difference[index] = UInt32(truncatingIfNeeded: total)
            borrow = total < 0 ? 1 : 0
        }
        return BigUInt(limbs: difference)
    }

    /// The value shifted right by `count` bits: `⌊self / 2^count⌋`.
    /// - Parameter count: The number of bits, at least 0.
    func shiftedRight(by count: Int) -> BigUInt {
        precondition(count >= 0, "a right shift by a negative count")
        let limbShift = count / 32, bitShift = UInt32(count % 32)
        guard limbShift < limbs.count else { return BigUInt(limbs: []) }
        var shifted = [UInt32](repeating: 0, count: limbs.count - limbShift)
        for index in 0..<shifted.count {
            let low = limbs[index + limbShift] >> bitShift
            // Swift's `<<` by 32 yields 0, so a whole-limb shift takes nothing from the next limb.
            let high = index + limbShift + 1 < limbs.count ? limbs[index + limbShift + 1] << (32 - bitShift) : 0
            shifted[index] = low | high
        }
        return BigUInt(limbs: shifted)
    }
}
