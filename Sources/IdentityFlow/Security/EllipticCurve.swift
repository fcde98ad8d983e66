/// A short Weierstrass curve `y² = x³ − 3x + b` over the prime field of `p`, with a base point
/// `G` of prime order `n` and cofactor 1: the NIST curves P-384 and P-521 (FIPS 186-4 D.1.2.4,
/// D.1.2.5; SEC 2 secp384r1, secp521r1), whose ECDSA signatures JWS names `ES384` and `ES512`.
///
/// The arithmetic is in ``PrimeField`` and `EllipticCurve+Jacobian.swift`. It serves signature
/// verification only, whose inputs are all public, so nothing here is constant time. P-256
/// (`ES256`, PIN proofs) stays with the C implementation behind ``DeviceKey``.
struct EllipticCurve: Sendable, Equatable {
    /// The curve's name as a JWK's `crv` writes it: "P-384", "P-521".
    let name: String

    /// The field of the coordinates, modulo the prime `p`.
    let field: PrimeField

    /// The scalars, modulo the group order `n`.
    let scalars: PrimeField

    /// The constant `b` (the constant `a` is −3 for every curve of this type).
    let b: BigUInt

    /// The base point `G`'s coordinates.
    let gx: BigUInt, gy: BigUInt

    /// The length of a coordinate, and of each of a signature's `r` and `s`, in bytes: ⌈log₂ p / 8⌉.
    let byteCount: Int

    /// The bit length of `n`, to which a digest is truncated (SEC 1 §4.1.4 step 3).
    var orderBitCount: Int { scalars.modulus.bitWidth }

    /// Describes a curve; `p` and `n` must be odd primes and `G` a point of order `n` on it.
    init(name: String, p: BigUInt, n: BigUInt, b: BigUInt, gx: BigUInt, gy: BigUInt) {
        self.name = name
        self.field = PrimeField(p)
        self.scalars = PrimeField(n)
        self.b = b
        self.gx = gx
        self.gy = gy
        self.byteCount = (p.bitWidth + 7) / 8
    }

    /// Whether `(x, y)` is a point of the curve: both coordinates in `0..<p` (a larger value is
    /// refused, not reduced) and `y² = x³ − 3x + b mod p`. The point at infinity has no affine
    /// coordinates; `(0, 0)`, which some encodings use for it, is not on these curves (`b ≠ 0`).
    /// With cofactor 1, every such point generates the whole group, so no `n · Q = ∞` check is
    /// needed (SEC 1 §3.2.2.1 step 4 is for cofactors above 1).
    func contains(x: BigUInt, y: BigUInt) -> Bool {
        guard x < field.modulus, y < field.modulus else { return false }
        let x3 = field.multiply(field.square(x), x)
        let threeX = field.add(field.add(x, x), x)
        let rhs = field.add(field.subtract(x3, threeX), b)
        return field.square(y) == rhs
    }

    // MARK: - The curves

    /// P-384 (FIPS 186-4 D.1.2.4): p = 2³⁸⁴ − 2¹²⁸ − 2⁹⁶ + 2³² − 1.
    static let p384 = EllipticCurve(
        name: "P-384",
        p: hex("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFF0000000000000000FFFFFFFF"),
        n: hex("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973"),
        b: hex("B3312FA7E23EE7E4988E056BE3F82D19181D9C6EFE8141120314088F5013875AC656398D8A2ED19D2A85C8EDD3EC2AEF"),
        gx: hex("AA87CA22BE8B05378EB1C71EF320AD746E1D3B628BA79B9859F741E082542A385502F25DBF55296C3A545E3872760AB7"),
        gy: hex("3617DE4A96262C6F5D9E98BF9292DC29F8F41DBD289A147CE9DA3113B5F0B8C00A60B1CE1D7E819D7A431D7C90EA0E5F"))

    /// P-521 (FIPS 186-4 D.1.2.5): p = 2⁵²¹ − 1.
    static let p521 = EllipticCurve(
        name: "P-521",
        p: hex("01FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"),
        n: hex("01FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFA51868783BF2F966B7FCC0148F709A5D03BB5C9B8899C47AEBB6FB71E91386409"),
        b: hex("0051953EB9618E1C9A1F929A21A0B68540EEA2DA725B99B315F3B8B489918EF109E156193951EC7E937B1652C0BD3BB1BF073573DF883D2C34F1EF451FD46B503F00"),
        gx: hex("00C6858E06B70404E9CD9E3ECB662395B4429C648139053FB521F828AF606B4D3DBAA14B5E77EFE75928FE1DC127A2FFA8DE3348B3C1856A429BF97E7E31C2E5BD66"),
        gy: hex("011839296A789A3BC0045C8A5FB42C7D1BD998F54449579B446817AFBD17273E662C97EE72995EF42640C550B9013FAD0761353C7086A272C24088BE94769FD16650"))

    /// A constant's value from its hexadecimal digits (an even number of them).
    private static func hex(_ digits: String) -> BigUInt {
        let characters = Array(digits.utf8)
        let bytes = stride(from: 0, to: characters.count, by: 2).map { index in
            UInt8(String(decoding: characters[index...index + 1], as: UTF8.self), radix: 16) ?? 0
        }
        return BigUInt(bigEndianBytes: bytes)
    }
}
