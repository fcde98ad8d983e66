import Testing
@_spi(Integrator) @testable import IdentityFlow

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
