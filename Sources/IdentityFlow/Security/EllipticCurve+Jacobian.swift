/// Point arithmetic in Jacobian coordinates, where `(X, Y, Z)` stands for the affine point
/// `(X / Z², Y / Z³)` and `Z = 0` for the point at infinity, so that adding and doubling need no
/// field inversion; one inversion turns the result back into affine coordinates.
///
/// The formulas are the textbook ones for `a = −3` (Hankerson, Menezes and Vanstone, *Guide to
/// Elliptic Curve Cryptography*, §3.2.2; the Explicit-Formulas Database's `dbl-2001-b` and
/// `add-1998-cmo-2`). Verification handles public values only: the branches on the points' values
/// and the scalars' bits are not constant time, and need not be.
extension EllipticCurve {
    /// A point in Jacobian coordinates.
    struct JacobianPoint: Sendable, Equatable {
        var x: BigUInt, y: BigUInt, z: BigUInt

        /// The point at infinity, the group's identity.
        static let infinity = JacobianPoint(x: BigUInt(1), y: BigUInt(1), z: BigUInt(limbs: []))

        /// Whether this is the point at infinity.
        var isInfinity: Bool { z.isZero }
    }

    /// The point `(x, y)`, which must be on the curve.
    func point(x: BigUInt, y: BigUInt) -> JacobianPoint {
        JacobianPoint(x: x, y: y, z: BigUInt(1))
    }

    /// The base point `G`.
    var generator: JacobianPoint { point(x: gx, y: gy) }

    /// The affine coordinates of `point`, or `nil` for the point at infinity, which has none.
    func affine(_ point: JacobianPoint) -> (x: BigUInt, y: BigUInt)? {
        guard !point.isInfinity else { return nil }
        let zInverse = field.inverse(point.z)
        let zInverse2 = field.square(zInverse)
        return (field.multiply(point.x, zInverse2), field.multiply(point.y, field.multiply(zInverse2, zInverse)))
    }

    /// `2P`. The formula needs no special case: the point at infinity doubles to itself (with
    /// `Z = 0`, `Z₃ = (Y + Z)² − Y² − Z² = 0`), and no point of these curves has `y = 0` (it would
    /// be of order 2 in a group of odd prime order).
    func double(_ p: JacobianPoint) -> JacobianPoint {
        // dbl-2001-b: δ = Z², γ = Y², β = X·γ, α = 3(X − δ)(X + δ) (a = −3).
        let delta = field.square(p.z), gamma = field.square(p.y)
        let beta = field.multiply(p.x, gamma)
        let alpha = field.multiply(times(3, field.subtract(p.x, delta)), field.add(p.x, delta))
        // X₃ = α² − 8β, Z₃ = (Y + Z)² − γ − δ, Y₃ = α(4β − X₃) − 8γ².
        let x3 = field.subtract(field.square(alpha), times(8, beta))
        let z3 = field.subtract(field.subtract(field.square(field.add(p.y, p.z)), gamma), delta)
        let y3 = field.subtract(field.multiply(alpha, field.subtract(times(4, beta), x3)), times(8, field.square(gamma)))
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// `P + Q`, with the cases the general formula does not cover: either point at infinity, `P = Q`
    /// (a doubling) and `P = −Q` (the point at infinity).
    func add(_ p: JacobianPoint, _ q: JacobianPoint) -> JacobianPoint {
        if p.isInfinity { return q }
        if q.isInfinity { return p }
        // add-1998-cmo-2: U₁ = X₁Z₂², U₂ = X₂Z₁², S₁ = Y₁Z₂³, S₂ = Y₂Z₁³: the points on a common denominator.
        let pz2 = field.square(p.z), qz2 = field.square(q.z)
        let u1 = field.multiply(p.x, qz2), u2 = field.multiply(q.x, pz2)
        let s1 = field.multiply(p.y, field.multiply(qz2, q.z)), s2 = field.multiply(q.y, field.multiply(pz2, p.z))
        let h = field.subtract(u2, u1), r = field.subtract(s2, s1)
        if h.isZero {
            // Same x: the same point (same y) or opposite points (y and −y).
            return r.isZero ? double(p) : .infinity
        }
        // X₃ = R² − H³ − 2U₁H², Y₃ = R(U₁H² − X₃) − S₁H³, Z₃ = Z₁Z₂H.
        let h2 = field.square(h)
        let h3 = field.multiply(h2, h), v = field.multiply(u1, h2)
        let x3 = field.subtract(field.subtract(field.square(r), h3), field.add(v, v))
        let y3 = field.subtract(field.multiply(r, field.subtract(v, x3)), field.multiply(s1, h3))
        let z3 = field.multiply(field.multiply(p.z, q.z), h)
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// `u₁G + u₂Q` by Shamir's trick (one pass over the scalars' bits, doubling once per bit and
    /// adding `G`, `Q` or `G + Q`), the sum ECDSA verification computes (SEC 1 §4.1.4 step 5).
    /// - Returns: The sum, which may be the point at infinity.
    func linearCombination(_ u1: BigUInt, _ u2: BigUInt, _ q: JacobianPoint) -> JacobianPoint {
        let g = generator
        let sum = add(g, q)
        var result = JacobianPoint.infinity
        for bit in stride(from: max(u1.bitWidth, u2.bitWidth) - 1, through: 0, by: -1) {
            result = double(result)
            switch (u1.bit(bit), u2.bit(bit)) {
            case (true, true): result = add(result, sum)
            case (true, false): result = add(result, g)
            case (false, true): result = add(result, q)
            case (false, false): break
            }
        }
        return result
    }

    /// `k · a mod p` for a small `k`, by additions.
    private func times(_ k: Int, _ a: BigUInt) -> BigUInt {
        var result = a
        for _ in 1..<k { result = field.add(result, a) }
        return result
    }
}
