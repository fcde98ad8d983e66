import Testing
@testable import IdentityFlow

@Suite("BigUInt")
struct BigUIntTests {
    @Test("Big-endian bytes round-trip, ignoring leading zeros, and refuse too-short outputs")
    func bytes() {
        let value = BigUInt(bigEndianBytes: [0, 0, 0x01, 0x02, 0x03, 0x04, 0x05])
        #expect(value.limbs == [0x0203_0405, 0x01])
        #expect(value.bitWidth == 33)
        #expect(value.bigEndianBytes(count: 5) == [0x01, 0x02, 0x03, 0x04, 0x05])
        #expect(value.bigEndianBytes(count: 7) == [0, 0, 0x01, 0x02, 0x03, 0x04, 0x05])
        #expect(value.bigEndianBytes(count: 4) == nil)
        #expect(BigUInt(bigEndianBytes: [0, 0]).isZero)
        #expect(BigUInt(bigEndianBytes: []).bigEndianBytes(count: 2) == [0, 0])
    }

    @Test("Comparison")
    func comparison() {
        let small = BigUInt(bigEndianBytes: [0xff, 0xff, 0xff, 0xff])
        let large = BigUInt(bigEndianBytes: [0x01, 0, 0, 0, 0])
        #expect(small < large)
        #expect(!(large < small))
        #expect(!(large < large))
        #expect(BigUInt(7) == BigUInt(bigEndianBytes: [0, 7]))
    }

    @Test("Known products, remainders and powers")
    func arithmetic() {
        let twoTo64 = BigUInt(limbs: [0, 0, 1])
        let max64 = BigUInt(UInt64.max)
        #expect(max64 * max64 == BigUInt(limbs: [1, 0, 0xffff_fffe, 0xffff_ffff]))
        #expect(twoTo64.remainder(dividingBy: BigUInt(1_000_000_007)) == BigUInt(582_344_008))
        #expect((max64 * max64).remainder(dividingBy: max64).isZero)
    }

    @Test("Sums and differences carry and borrow across limbs; right shifts by bits, whole limbs and more than the width")
    func additionAndShifts() {
        let max64 = BigUInt(UInt64.max), one = BigUInt(1)
        #expect(max64 + one == BigUInt(limbs: [0, 0, 1]))
        #expect(one + max64 == BigUInt(limbs: [0, 0, 1]))
        #expect(BigUInt(limbs: [0, 0, 1]) - one == max64)
        #expect(max64 - max64 == BigUInt(0))
        #expect((max64 * max64 + max64) - max64 == max64 * max64)
        #expect(BigUInt(7) + BigUInt(limbs: []) == BigUInt(7))
        let value = BigUInt(limbs: [0x89AB_CDEF, 0x0123_4567, 0xFFFF_0000])
        #expect(value.shiftedRight(by: 0) == value)
        #expect(value.shiftedRight(by: 4) == BigUInt(limbs: [0x789A_BCDE, 0x0012_3456, 0x0FFF_F000]))
        #expect(value.shiftedRight(by: 32) == BigUInt(limbs: [0x0123_4567, 0xFFFF_0000]))
        #expect(value.shiftedRight(by: 36) == BigUInt(limbs: [0x0012_3456, 0x0FFF_F000]))
        #expect(value.shiftedRight(by: 95) == one)
        #expect(value.shiftedRight(by: 96).isZero)
        #expect(value.shiftedRight(by: 200).isZero)
    }

    @Test("Prime fields: sums and differences wrap around the prime, products reduce, inverses multiply to 1")
    func primeField() {
        let field = PrimeField(BigUInt(1_000_000_007))
        let a = BigUInt(999_999_999), b = BigUInt(10)
        #expect(field.add(a, b) == BigUInt(2))
        #expect(field.subtract(b, a) == BigUInt(18))
        #expect(field.subtract(a, b) == BigUInt(999_999_989))
        #expect(field.multiply(a, b) == BigUInt(999_999_927))
        #expect(field.multiply(field.inverse(a), a) == BigUInt(1))
        #expect(field.inverse(BigUInt(0)).isZero)
        #expect(field.reduce(BigUInt(2_000_000_015)) == BigUInt(1))
    }

    @Test("Montgomery powers: known values, Fermat's little theorem, and refusal of even moduli")
    func montgomery() throws {
        let seven = try #require(MontgomeryModulus(BigUInt(7)))
        #expect(seven.power(BigUInt(3), BigUInt(5)) == BigUInt(5))
        #expect(seven.power(BigUInt(5), BigUInt(0)) == BigUInt(1))
        #expect(seven.power(BigUInt(10), BigUInt(1)) == BigUInt(3))
        let prime = try #require(MontgomeryModulus(BigUInt(1_000_000_007)))
        #expect(prime.power(BigUInt(2), BigUInt(1_000_000_006)) == BigUInt(1))
        // The Mersenne prime 2^127 - 1 spans two 64-bit limbs.
        let mersenne = try #require(MontgomeryModulus(BigUInt(limbs: [0xffff_ffff, 0xffff_ffff, 0xffff_ffff, 0x7fff_ffff])))
        let exponent = BigUInt(limbs: [0xffff_fffe, 0xffff_ffff, 0xffff_ffff, 0x7fff_ffff])
        #expect(mersenne.power(BigUInt(123_456_789), exponent) == BigUInt(1))
        #expect(MontgomeryModulus(BigUInt(8)) == nil)
        #expect(MontgomeryModulus(BigUInt(1)) == nil)
    }
}
