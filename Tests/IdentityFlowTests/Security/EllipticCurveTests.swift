import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The point arithmetic under ECDSA verification on P-384 and P-521, through the C code's
/// `u₁G + u₂Q` entry (an independent path from the verifier's final comparison): the group's
/// order, addition's special cases, sums at infinity, and public key validation.
@Suite("Elliptic curve arithmetic of P-384 and P-521 (the C verifier's u₁G + u₂Q)")
struct EllipticCurveTests {
    /// A curve with its constants as fixed-length bytes, from ecdsa-vectors.json (cryptography's).
    struct Constants {
        let curve: EllipticCurve
        let p: [UInt8], n: [UInt8], gx: [UInt8], gy: [UInt8]

        init(_ name: String) throws {
            let values = try #require(try ECDSAVectorDocument.load("ecdsa-vectors.json").curves?[name])
            curve = name == "P-384" ? .p384 : .p521
            let size = curve.byteCount
            p = try ECDSACurveBytes.fixed(values.p, size)
            n = try ECDSACurveBytes.fixed(values.n, size)
            gx = try ECDSACurveBytes.fixed(values.gx, size)
            gy = try ECDSACurveBytes.fixed(values.gy, size)
        }

        /// `k` as a scalar of the curve's length.
        func scalar(_ k: UInt64) -> [UInt8] { ECDSACurveBytes.small(k, curve.byteCount) }

        /// `k · G` (plain scalar bytes), or `nil` at infinity.
        func multiple(_ k: [UInt8]) -> (x: [UInt8], y: [UInt8])? {
            curve.linearCombination(k, scalar(0), x: gx, y: gy)
        }
    }

    static let names = ["P-384", "P-521"]

    @Test("G is on the curve, n·G is the point at infinity, (n − 1)·G is −G and (n + 1)·G is G", arguments: names)
    func order(_ name: String) throws {
        let c = try Constants(name)
        #expect(c.curve.contains(x: c.gx, y: c.gy))
        #expect(c.multiple(c.n) == nil)
        let minusG = try #require(c.multiple(ECDSACurveBytes.subtract(c.n, c.scalar(1))))
        #expect(minusG.x == c.gx && minusG.y == ECDSACurveBytes.subtract(c.p, c.gy))
        let g = try #require(c.multiple(ECDSACurveBytes.add(c.n, c.scalar(1))))
        #expect(g.x == c.gx && g.y == c.gy)
    }

    @Test("addition's special cases: G + Q with Q = G doubles, with Q = −G vanishes; 2G + G = 3G; 2G + 2G = 4G", arguments: names)
    func additionSpecialCases(_ name: String) throws {
        let c = try Constants(name)
        let one = c.scalar(1), minusGy = ECDSACurveBytes.subtract(c.p, c.gy)
        let twoG = try #require(c.multiple(c.scalar(2)))
        let doubled = try #require(c.curve.linearCombination(one, one, x: c.gx, y: c.gy))
        #expect(doubled.x == twoG.x && doubled.y == twoG.y)
        #expect(c.curve.linearCombination(one, one, x: c.gx, y: minusGy) == nil)
        #expect(c.curve.contains(x: twoG.x, y: twoG.y))
        let threeG = try #require(c.multiple(c.scalar(3)))
        let sum = try #require(c.curve.linearCombination(one, one, x: twoG.x, y: twoG.y))
        #expect(sum.x == threeG.x && sum.y == threeG.y)
        let fourG = try #require(c.multiple(c.scalar(4)))
        let twice = try #require(c.curve.linearCombination(c.scalar(0), c.scalar(2), x: twoG.x, y: twoG.y))
        #expect(twice.x == fourG.x && twice.y == fourG.y)
        // 1000·G two ways: by G's table alone, and as 10·(100·G) through Q's windows.
        let hundredG = try #require(c.multiple(c.scalar(100)))
        let viaQ = try #require(c.curve.linearCombination(c.scalar(0), c.scalar(10), x: hundredG.x, y: hundredG.y))
        let direct = try #require(c.multiple(c.scalar(1000)))
        #expect(viaQ.x == direct.x && viaQ.y == direct.y)
    }

    @Test("u₁G + u₂Q is the point at infinity when u₁ + u₂d ≡ 0 mod n; 2G + 1·(5G) = 7G", arguments: names)
    func combinationAtInfinity(_ name: String) throws {
        let c = try Constants(name)
        let q = try #require(c.multiple(c.scalar(5)))
        #expect(c.curve.linearCombination(ECDSACurveBytes.subtract(c.n, c.scalar(15)), c.scalar(3), x: q.x, y: q.y) == nil)
        let sevenG = try #require(c.multiple(c.scalar(7)))
        let sum = try #require(c.curve.linearCombination(c.scalar(2), c.scalar(1), x: q.x, y: q.y))
        #expect(sum.x == sevenG.x && sum.y == sevenG.y)
        // n − 1 in both scalars: the longest NAFs, and (n − 1)G + (n − 1)G = −2G.
        let nMinus1 = ECDSACurveBytes.subtract(c.n, c.scalar(1))
        let minusTwoG = try #require(c.curve.linearCombination(nMinus1, nMinus1, x: c.gx, y: c.gy))
        let twoG = try #require(c.multiple(c.scalar(2)))
        #expect(minusTwoG.x == twoG.x && minusTwoG.y == ECDSACurveBytes.subtract(c.p, twoG.y))
    }

    @Test("public keys: coordinates of exactly the curve's length, below p, on the curve; (0, 0) is not a point", arguments: names)
    func publicKeys(_ name: String) throws {
        let c = try Constants(name)
        #expect(ECDSAPublicKey(curve: c.curve, x: c.gx, y: c.gy) != nil)
        #expect(ECDSAPublicKey(curve: c.curve, x: c.gx, y: ECDSACurveBytes.subtract(c.p, c.gy)) != nil)
        #expect(ECDSAPublicKey(curve: c.curve, x: c.gx, y: ECDSACurveBytes.add(c.gy, c.scalar(1))) == nil)
        #expect(ECDSAPublicKey(curve: c.curve, x: c.scalar(0), y: c.scalar(0)) == nil)
        #expect(ECDSAPublicKey(curve: c.curve, x: [0] + c.gx, y: c.gy) == nil)
        #expect(ECDSAPublicKey(curve: c.curve, x: c.gx, y: Array(c.gy.dropFirst())) == nil)
        #expect(ECDSAPublicKey(curve: c.curve, x: c.p, y: c.gy) == nil)
        #expect(c.curve.linearCombination(c.scalar(1), c.scalar(1), x: c.gx, y: ECDSACurveBytes.add(c.gy, c.scalar(1))) == nil, "Q off the curve")
        #expect(c.curve.linearCombination(c.scalar(1), [0] + c.scalar(1), x: c.gx, y: c.gy) == nil, "a scalar of another length")
    }

    @Test("P-521: y + p fits in 66 bytes, and such a key is refused though it is G mod p")
    func coordinateNotBelowP() throws {
        let c = try Constants("P-521")
        let y = ECDSACurveBytes.add(c.gy, c.p)
        #expect(y != c.gy)
        #expect(ECDSAPublicKey(curve: c.curve, x: c.gx, y: y) == nil)
        #expect(ECDSAPublicKey(curve: c.curve, x: ECDSACurveBytes.add(c.gx, c.p), y: c.gy) == nil)
    }
}
