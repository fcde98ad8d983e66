import CIdentityFlowCrypto
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The Montgomery engines (MULX/ADX on x86-64 where the CPU has BMI2 and ADX, and the portable
/// C code) against each other and against BigUInt, on random and carry-heavy operands.
///
/// Where the CPU has no fast path, `ifc_montgomery_multiply` is the portable code, so the
/// agreement checks compare it with itself; the BigUInt reference checks still test it.
@Suite("Montgomery engines (MULX/ADX and portable) against each other and BigUInt")
struct MontgomeryEngineTests {
    /// Limb counts to test: small, odd, around and at RSA-2048 (32), RSA-3072 (48) and RSA-4096 (64).
    static let limbCounts = [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 32, 32, 33, 48, 64]

    @Test("Fast and portable multiplication and squaring agree, and match (a · b) mod n = result · R mod n")
    func enginesAgreeWithReference() {
        for count in Self.limbCounts {
            for round in 0..<12 {
                let n = Self.randomOddModulus(count: count, extreme: round % 2 == 1)
                let a = Self.randomBelow(n, extreme: round % 3 == 1), b = Self.randomBelow(n, extreme: round % 3 == 2)
                let context = Comment(rawValue: "count \(count), n \(n), a \(a), b \(b)")
                let product = Self.run(n) { result, n, inverse, t in
                    a.withUnsafeBufferPointer { a in
                        b.withUnsafeBufferPointer { b in
                            ifc_montgomery_multiply(result, a.baseAddress, b.baseAddress, n, inverse, count, t)
                        }
                    }
                }
                let portableProduct = Self.run(n) { result, n, inverse, t in
                    a.withUnsafeBufferPointer { a in
                        b.withUnsafeBufferPointer { b in
                            ifc_montgomery_multiply_portable(result, a.baseAddress, b.baseAddress, n, inverse, count, t)
                        }
                    }
                }
                let square = Self.run(n) { result, n, inverse, t in
                    a.withUnsafeBufferPointer { ifc_montgomery_square(result, $0.baseAddress, n, inverse, count, t) }
                }
                let portableSquare = Self.run(n) { result, n, inverse, t in
                    a.withUnsafeBufferPointer { ifc_montgomery_square_portable(result, $0.baseAddress, n, inverse, count, t) }
                }
                #expect(product == portableProduct, context)
                #expect(square == portableSquare, context)
                #expect(Self.isMontgomeryProduct(product, of: a, b, modulo: n), context)
                #expect(Self.isMontgomeryProduct(square, of: a, a, modulo: n), context)
            }
        }
    }

    @Test("The largest operands: n = 2^(64 k) - 1 and a = b = n - 1")
    func largestOperands() {
        for count in Self.limbCounts {
            let n = [UInt64](repeating: .max, count: count)
            var a = n
            a[0] -= 1
            let fast = Self.run(n) { result, n, inverse, t in
                a.withUnsafeBufferPointer { ifc_montgomery_square(result, $0.baseAddress, n, inverse, count, t) }
            }
            let portable = Self.run(n) { result, n, inverse, t in
                a.withUnsafeBufferPointer { ifc_montgomery_multiply_portable(result, $0.baseAddress, $0.baseAddress, n, inverse, count, t) }
            }
            #expect(fast == portable, "count \(count)")
            #expect(Self.isMontgomeryProduct(fast, of: a, a, modulo: n), "count \(count)")
        }
    }

    @Test("Powers modulo random 2048-bit moduli match square-and-multiply in BigUInt")
    func powersMatchReference() throws {
        for round in 0..<6 {
            let n = Self.big(Self.randomOddModulus(count: 32, extreme: round % 2 == 1))
            let modulus = try #require(MontgomeryModulus(n))
            let base = Self.big(Self.randomBelow(Self.limbs(n, count: 32), extreme: false))
            let exponents = [BigUInt(65_537), BigUInt(3), BigUInt(2), BigUInt(1), BigUInt(UInt64.random(in: 1 ... .max))]
            for exponent in exponents {
                var expected = BigUInt(1)
                for bit in stride(from: exponent.bitWidth - 1, through: 0, by: -1) {
                    expected = (expected * expected).remainder(dividingBy: n)
                    if exponent.bit(bit) { expected = (expected * base).remainder(dividingBy: n) }
                }
                #expect(modulus.power(base, exponent) == expected, "exponent \(exponent), n \(n)")
            }
        }
    }

    @Test(
        "Where Linux reports BMI2 and ADX, the fast path is in use (else the agreement checks compare portable with itself)",
        .enabled(
            if: SHA256EngineTests.cpuFlags.map { $0.contains("bmi2") && $0.contains("adx") } ?? false,
            "the CPU reports no BMI2 and ADX"))
    func fastPathSelected() {
        #expect(ifc_montgomery_has_fast_path() == 1)
    }

    // MARK: - Helpers

    /// Runs `body` with a result buffer, `n`, `-n⁻¹ mod 2⁶⁴` and scratch of 2 × count limbs; returns the result.
    static func run(
        _ n: [UInt64], _ body: (UnsafeMutablePointer<UInt64>, UnsafePointer<UInt64>, UInt64, UnsafeMutablePointer<UInt64>) -> Void
    ) -> [UInt64] {
        var result = [UInt64](repeating: 0, count: n.count)
        var scratch = [UInt64](repeating: 0xdead_beef, count: 2 * n.count)
        var inverse = n[0]
        for _ in 0..<5 { inverse = inverse &* (2 &- n[0] &* inverse) }
        result.withUnsafeMutableBufferPointer { result in
            scratch.withUnsafeMutableBufferPointer { scratch in
                n.withUnsafeBufferPointer { n in
                    body(result.baseAddress!, n.baseAddress!, 0 &- inverse, scratch.baseAddress!)
                }
            }
        }
        return result
    }

    /// Whether `result < n` and `result · R ≡ a · b (mod n)` with `R = 2^(64 × count)`: the
    /// Montgomery product, checked without R⁻¹ (R is invertible because n is odd).
    static func isMontgomeryProduct(_ result: [UInt64], of a: [UInt64], _ b: [UInt64], modulo n: [UInt64]) -> Bool {
        let modulus = big(n)
        let shifted = BigUInt(limbs: [UInt32](repeating: 0, count: 2 * n.count) + big(result).limbs)
        return big(result) < modulus && shifted.remainder(dividingBy: modulus) == (big(a) * big(b)).remainder(dividingBy: modulus)
    }

    /// A random odd modulus of exactly `count` limbs; `extreme` favours all-ones and zero limbs.
    static func randomOddModulus(count: Int, extreme: Bool) -> [UInt64] {
        var n = (0..<count).map { _ in randomLimb(extreme: extreme) }
        n[0] |= 1
        if n[count - 1] == 0 { n[count - 1] = .random(in: 1 ... .max) }
        if count == 1 && n[0] == 1 { n[0] = 3 }
        return n
    }

    /// A random value below `n`, as many limbs as `n`; `extreme` favours all-ones and zero limbs.
    static func randomBelow(_ n: [UInt64], extreme: Bool) -> [UInt64] {
        let value = big((0..<n.count).map { _ in randomLimb(extreme: extreme) }).remainder(dividingBy: big(n))
        return limbs(value, count: n.count)
    }

    /// A random limb, or with `extreme` one of 0, 1, 2⁶³, 2⁶⁴ - 1 half the time.
    static func randomLimb(extreme: Bool) -> UInt64 {
        extreme && Bool.random() ? [0, 1, 1 << 63, .max, .max].randomElement()! : .random(in: .min ... .max)
    }

    /// 64-bit limbs (least significant first) as a BigUInt.
    static func big(_ limbs: [UInt64]) -> BigUInt {
        BigUInt(limbs: limbs.flatMap { [UInt32(truncatingIfNeeded: $0), UInt32(truncatingIfNeeded: $0 >> 32)] })
    }

    /// A BigUInt as exactly `count` 64-bit limbs.
    static func limbs(_ value: BigUInt, count: Int) -> [UInt64] {
        var result = [UInt64](repeating: 0, count: count)
        for (index, limb) in value.limbs.enumerated() { result[index / 2] |= UInt64(limb) << (32 * UInt64(index % 2)) }
        return result
    }
}
