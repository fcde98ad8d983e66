/// A minimal arbitrary-precision unsigned integer with exactly what RSA signature
/// verification needs: big-endian byte conversion, comparison and remainder
/// (Knuth's Algorithm D). Modular exponentiation lives in ``MontgomeryModulus``.
///
/// Limbs are 32-bit, least significant first, and normalised (no most-significant zero limbs;
/// zero has no limbs). Only package values go through this type (keys and signatures), so it
/// makes no constant-time claims.
struct BigUInt: Equatable, Comparable, Sendable {
    /// The limbs, least significant first, without most-significant zero limbs.
    private(set) var limbs: [UInt32]

    /// Creates a value from limbs (least significant first), dropping most-significant zeros.
    init(limbs: [UInt32]) {
        self.limbs = limbs
        normalize()
    }

    /// Creates a value from a machine word.
    init(_ value: UInt64) {
        self.init(limbs: [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)])
    }

    /// Creates a value from unsigned big-endian bytes (OS2IP, RFC 8017 §4.2); leading zero bytes are allowed.
    init(bigEndianBytes bytes: some Collection<UInt8>) {
        var limbs = [UInt32](repeating: 0, count: (bytes.count + 3) / 4)
        for (index, byte) in bytes.reversed().enumerated() {
            limbs[index / 4] |= UInt32(byte) << UInt32(8 * (index % 4))
        }
        self.init(limbs: limbs)
    }

    private mutating func normalize() {
        while let last = limbs.last, last == 0 {
            limbs.removeLast()
        }
    }

    // MARK: - Properties

    /// Whether the value is zero.
    var isZero: Bool { limbs.isEmpty }

    /// Whether the value is even (zero is even).
    var isEven: Bool { limbs.first.map { $0 & 1 == 0 } ?? true }

    /// The number of significant bits (0 for zero).
    var bitWidth: Int {
        guard let last = limbs.last else { return 0 }
        return limbs.count * 32 - last.leadingZeroBitCount
    }

    /// The value of bit `index` (0 is the least significant).
    func bit(_ index: Int) -> Bool {
        let limb = index / 32
        guard limb < limbs.count else { return false }
        return (limbs[limb] >> UInt32(index % 32)) & 1 == 1
    }

    /// The value as unsigned big-endian bytes of exactly `count` bytes (I2OSP, RFC 8017 §4.1).
    /// - Parameter count: The output length.
    /// - Returns: The bytes, or `nil` if the value needs more than `count` bytes.
    func bigEndianBytes(count: Int) -> [UInt8]? {
        guard count >= 0, (bitWidth + 7) / 8 <= count else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        for (limbIndex, limb) in limbs.enumerated() {
            for byteIndex in 0..<4 {
                let position = limbIndex * 4 + byteIndex
                guard position < count else { break }
                bytes[count - 1 - position] = UInt8(truncatingIfNeeded: limb >> UInt32(8 * byteIndex))
            }
        }
        return bytes
    }

    // MARK: - Comparison

    static func < (lhs: BigUInt, rhs: BigUInt) -> Bool {
        if lhs.limbs.count != rhs.limbs.count {
            return lhs.limbs.count < rhs.limbs.count
        }
        for index in stride(from: lhs.limbs.count - 1, through: 0, by: -1) where lhs.limbs[index] != rhs.limbs[index] {
            return lhs.limbs[index] < rhs.limbs[index]
        }
        return false
    }

    // MARK: - Arithmetic

    /// The remainder of division by `divisor`, by Knuth's Algorithm D (TAOCP vol. 2, 4.3.1).
    /// - Parameter divisor: The divisor; a zero divisor returns `self` unchanged (callers never pass zero).
    /// - Returns: `self mod divisor`.
    func remainder(dividingBy divisor: BigUInt) -> BigUInt {
        guard !divisor.isZero, self >= divisor else { return self }
        let v = divisor.limbs
        let n = v.count
        if n == 1 {
            let d = UInt64(v[0])
            var r: UInt64 = 0
            for limb in limbs.reversed() {
                r = ((r << 32) | UInt64(limb)) % d
            }
            return BigUInt(r)
        }
        let u = limbs
        let m = u.count
        // D1: normalise so the divisor's top limb has its high bit set. Swift's `>>` by 32 yields 0.
        let shift = UInt32(v[n - 1].leadingZeroBitCount)
        var vn = [UInt32](repeating: 0, count: n)
        for i in stride(from: n - 1, to: 0, by: -1) {
            vn[i] = (v[i] << shift) | (v[i - 1] >> (32 - shift))
        }
        vn[0] = v[0] << shift
        var un = [UInt32](repeating: 0, count: m + 1)
        un[m] = u[m - 1] >> (32 - shift)
        for i in stride(from: m - 1, to: 0, by: -1) {
            un[i] = (u[i] << shift) | (u[i - 1] >> (32 - shift))
        }
        un[0] = u[0] << shift

        let base: UInt64 = 1 << 32
        vn.withUnsafeBufferPointer { vp in
            un.withUnsafeMutableBufferPointer { up in
                let vTop = UInt64(vp[n - 1])
                let vNext = UInt64(vp[n - 2])
                for j in stride(from: m - n, through: 0, by: -1) {
                    // D3: estimate the quotient digit from the top two limbs, then correct it.
                    let numerator = (UInt64(up[j + n]) << 32) | UInt64(up[j + n - 1])
                    var qhat = numerator / vTop
                    var rhat = numerator % vTop
                    while qhat >= base || qhat * vNext > ((rhat << 32) | UInt64(up[j + n - 2])) {
                        qhat -= 1
                        rhat += vTop
                        if rhat >= base { break }
                    }
                    // D4: multiply and subtract.
                    var borrow: Int64 = 0
                    var t: Int64 = 0
                    for i in 0..<n {
                        let p = qhat &* UInt64(vp[i])
                        t = Int64(up[i + j]) &- borrow &- Int64(p & 0xFFFF_FFFF)
                        up[i + j] = UInt32(truncatingIfNeeded: t)
                        borrow = Int64(p >> 32) &- (t >> 32)
                    }
                    t = Int64(up[j + n]) &- borrow
                    up[j + n] = UInt32(truncatingIfNeeded: t)
                    // D6: the estimate was one too large (rare): add the divisor back.
                    if t < 0 {
                        var carry: UInt64 = 0
                        for i in 0..<n {
                            let sum = UInt64(up[i + j]) &+ UInt64(vp[i]) &+ carry
                            up[i + j] = UInt32(truncatingIfNeeded: sum)
                            carry = sum >> 32
                        }
                        up[j + n] = up[j + n] &+ UInt32(truncatingIfNeeded: carry)
                    }
                }
            }
        }
        // D8: unnormalise the remainder.
        var remainder = [UInt32](repeating: 0, count: n)
        for i in 0..<n {
            remainder[i] = (un[i] >> shift) | (un[i + 1] << (32 - shift))
        }
        return BigUInt(limbs: remainder)
    }
}
