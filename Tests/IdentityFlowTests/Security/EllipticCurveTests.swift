import Testing
@testable import IdentityFlow

/// The parts of ECDSA verification one at a time: point arithmetic and its special cases, public
/// key validation, the range of r and s, the digest's truncation and the final comparison.
@Suite("Elliptic curve arithmetic and the steps of ECDSA verification")
struct EllipticCurveTests {
    static let curves = [EllipticCurve.p384, .p521]

    /// `k · P` (P = G by default), affine, or `nil` for the point at infinity.
    static func multiple(_ curve: EllipticCurve, _ k: BigUInt, _ p: EllipticCurve.JacobianPoint? = nil) -> (x: BigUInt, y: BigUInt)? {
        curve.affine(p.map { curve.linearCombination(BigUInt(0), k, $0) } ?? curve.linearCombination(k, BigUInt(0), curve.generator))
    }

    @Test("G is on the curve, n·G is the point at infinity, (n − 1)·G is −G and (n + 1)·G is G", arguments: curves)
    func order(_ curve: EllipticCurve) {
        let n = curve.scalars.modulus, p = curve.field.modulus
        #expect(curve.contains(x: curve.gx, y: curve.gy))
        #expect(Self.multiple(curve, n) == nil)
        let minusG = Self.multiple(curve, n - BigUInt(1))
        #expect(minusG?.x == curve.gx && minusG?.y == p - curve.gy)
        let g = Self.multiple(curve, n + BigUInt(1))
        #expect(g?.x == curve.gx && g?.y == curve.gy)
    }

    @Test("addition's special cases: ∞ + P = P + ∞ = P, P + P = 2P, P + (−P) = ∞; and 2G + G = 3G", arguments: curves)
    func additionSpecialCases(_ curve: EllipticCurve) throws {
        let g = curve.generator, p = curve.field.modulus
        let minusG = curve.point(x: curve.gx, y: p - curve.gy)
        let twoG = try #require(curve.affine(curve.double(g)))
        #expect(try #require(curve.affine(curve.add(.infinity, g))) == (curve.gx, curve.gy))
        #expect(try #require(curve.affine(curve.add(g, .infinity))) == (curve.gx, curve.gy))
        #expect(try #require(curve.affine(curve.add(g, g))) == twoG)
        #expect(curve.add(g, minusG).isInfinity)
        #expect(curve.double(.infinity).isInfinity)
        #expect(curve.contains(x: twoG.x, y: twoG.y))
        // 2G in Jacobian form (Z ≠ 1) plus G, against 3G by the scalar multiplication.
        #expect(curve.affine(curve.add(curve.double(g), g)).map { [$0.x, $0.y] } == Self.multiple(curve, BigUInt(3)).map { [$0.x, $0.y] })
        // The same point with another Z: P + P in Jacobian form is a doubling too.
        let twoGJacobian = curve.double(g)
        #expect(curve.affine(curve.add(twoGJacobian, twoGJacobian)).map { [$0.x, $0.y] } == Self.multiple(curve, BigUInt(4)).map { [$0.x, $0.y] })
    }

    @Test("u₁G + u₂Q is the point at infinity when u₁ + u₂d ≡ 0 mod n, and affine gives it no coordinates", arguments: curves)
    func combinationAtInfinity(_ curve: EllipticCurve) throws {
        let n = curve.scalars.modulus
        let (qx, qy) = try #require(Self.multiple(curve, BigUInt(5)))
        let q = curve.point(x: qx, y: qy)
        #expect(curve.linearCombination(n - BigUInt(15), BigUInt(3), q).isInfinity)
        #expect(curve.affine(curve.linearCombination(n - BigUInt(15), BigUInt(3), q)) == nil)
        #expect(Self.multiple(curve, BigUInt(7)).map { [$0.x, $0.y] } == curve.affine(curve.linearCombination(BigUInt(2), BigUInt(1), q)).map { [$0.x, $0.y] })
    }

    @Test("r and s: exactly two coordinates' length, each in 1...n − 1", arguments: curves)
    func signatureScalars(_ curve: EllipticCurve) throws {
        let n = curve.scalars.modulus, size = curve.byteCount
        func signature(_ r: BigUInt, _ s: BigUInt) throws -> [UInt8] {
            try #require(r.bigEndianBytes(count: size)) + (try #require(s.bigEndianBytes(count: size)))
        }
        let one = BigUInt(1), nMinus1 = n - BigUInt(1)
        #expect(curve.signatureScalars(try signature(one, nMinus1)).map { [$0.r, $0.s] } == [one, nMinus1])
        #expect(curve.signatureScalars(try signature(nMinus1, one)).map { [$0.r, $0.s] } == [nMinus1, one])
        for (r, s) in [(BigUInt(0), one), (one, BigUInt(0)), (n, one), (one, n)] {
            #expect(curve.signatureScalars(try signature(r, s)) == nil, "\(r) \(s)")
        }
        #expect(curve.signatureScalars(Array(try signature(one, one).dropFirst())) == nil)
        #expect(curve.signatureScalars(try signature(one, one) + [0]) == nil)
    }

    @Test("the digest's integer: the whole digest when not longer than n (not shifted left to n's 521 bits on P-521), its leftmost bits otherwise")
    func digestInteger() {
        let sha512 = Hashing.sha512(Array("abc".utf8)), sha384 = Hashing.sha384(Array("abc".utf8))
        #expect(EllipticCurve.p521.digestInteger(sha512) == BigUInt(bigEndianBytes: sha512))
        #expect(EllipticCurve.p384.digestInteger(sha384) == BigUInt(bigEndianBytes: sha384))
        #expect(EllipticCurve.p384.digestInteger(sha512) == BigUInt(bigEndianBytes: sha512.prefix(48)))
        // A digest longer than n by bits that are not a whole number of bytes: P-521 and 528 bits.
        let long = [UInt8](repeating: 0xFF, count: 66)
        #expect(EllipticCurve.p521.digestInteger(long) == BigUInt(bigEndianBytes: long).shiftedRight(by: 7))
        #expect(EllipticCurve.p521.digestInteger(long).bitWidth == 521)
    }

    @Test("the final comparison reduces x_R mod n: x_R = r + n matches r", arguments: curves)
    func comparisonModN(_ curve: EllipticCurve) {
        let n = curve.scalars.modulus, r = BigUInt(12345)
        #expect(curve.signatureMatches(xR: r, r: r))
        #expect(r + n < curve.field.modulus, "such an x exists below p")
        #expect(curve.signatureMatches(xR: r + n, r: r))
        #expect(!curve.signatureMatches(xR: r + BigUInt(1), r: r))
    }

    @Test("public keys: coordinates of exactly the curve's length, below p, on the curve; (0, 0) is not a point", arguments: curves)
    func publicKeys(_ curve: EllipticCurve) throws {
        let size = curve.byteCount, p = curve.field.modulus
        func bytes(_ value: BigUInt, _ count: Int = size) throws -> [UInt8] { try #require(value.bigEndianBytes(count: count)) }
        #expect(ECDSAPublicKey(curve: curve, x: try bytes(curve.gx), y: try bytes(curve.gy)) != nil)
        #expect(ECDSAPublicKey(curve: curve, x: try bytes(curve.gx), y: try bytes(p - curve.gy)) != nil)
        #expect(ECDSAPublicKey(curve: curve, x: try bytes(curve.gx), y: try bytes(curve.gy + BigUInt(1))) == nil)
        #expect(ECDSAPublicKey(curve: curve, x: try bytes(BigUInt(0)), y: try bytes(BigUInt(0))) == nil)
        #expect(ECDSAPublicKey(curve: curve, x: try bytes(curve.gx, size + 1), y: try bytes(curve.gy)) == nil)
        #expect(ECDSAPublicKey(curve: curve, x: try bytes(curve.gx), y: Array(try bytes(curve.gy).dropFirst())) == nil)
        #expect(!curve.contains(x: curve.gx, y: curve.gy + p), "the same point mod p, a coordinate not below p")
        #expect(!curve.contains(x: curve.gx + p, y: curve.gy))
    }

    @Test("P-521: y + p fits in 66 bytes, and such a key is refused though it is G mod p")
    func coordinateNotBelowP() throws {
        let curve = EllipticCurve.p521
        let y = try #require((curve.gy + curve.field.modulus).bigEndianBytes(count: 66))
        #expect(ECDSAPublicKey(curve: curve, x: try #require(curve.gx.bigEndianBytes(count: 66)), y: y) == nil)
    }
}
