@_spi(Integrator) @testable import IdentityFlow

/// BigUInt's schoolbook multiplication, the reference the Montgomery engine tests compare
/// against. The library itself no longer multiplies BigUInts (RSA multiplies in C, ECDSA went to
/// C with it), so the operator lives with the tests that use it.
extension BigUInt {
    /// Schoolbook multiplication.
    static func * (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
        guard !lhs.isZero, !rhs.isZero else { return BigUInt(limbs: []) }
        var product = [UInt32](repeating: 0, count: lhs.limbs.count + rhs.limbs.count)
        let rhsCount = rhs.limbs.count
        lhs.limbs.withUnsafeBufferPointer { a in
            rhs.limbs.withUnsafeBufferPointer { b in
                product.withUnsafeMutableBufferPointer { r in
                    for i in 0..<a.count {
                        let ai = UInt64(a[i])
                        guard ai != 0 else { continue }
                        var carry: UInt64 = 0
                        for j in 0..<rhsCount {
                            // (2^32 - 1)^2 + 2 (2^32 - 1) = 2^64 - 1: never overflows.
                            let t = ai &* UInt64(b[j]) &+ UInt64(r[i + j]) &+ carry
                            r[i + j] = UInt32(truncatingIfNeeded: t)
                            carry = t >> 32
                        }
                        r[i + rhsCount] = UInt32(truncatingIfNeeded: carry)
                    }
                }
            }
        }
        return BigUInt(limbs: product)
    }
}
