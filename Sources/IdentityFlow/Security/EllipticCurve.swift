import CIdentityFlowCrypto

/// A NIST curve whose ECDSA signatures ID tokens may carry besides P-256: P-384 (`ES384`) and
/// P-521 (`ES512`) (FIPS 186-4 D.1.2.4, D.1.2.5; SEC 2 secp384r1, secp521r1).
///
/// The arithmetic is C in CIdentityFlowCrypto: `P384.c` and `P521.c`, the field and point
/// templates `ECFieldTemplate.h` and `ECPointTemplate.h` compiled for each curve's size (P-521's
/// field reduced by p = 2⁵²¹ − 1's shape). It serves verification only, whose inputs are all
/// public, so it is not constant time. P-256 (`ES256`, PIN proofs) has its own constant-time C
/// code behind ``DeviceKey``.
package struct EllipticCurve: Sendable, Equatable {
    /// Which of the two curves.
    private enum Identity: Sendable, Equatable {
        case p384, p521
    }

    private let identity: Identity

    /// The curve's name as a JWK's `crv` writes it: "P-384", "P-521".
    package let name: String

    /// The length of a coordinate, and of each of a signature's `r` and `s`, in bytes: 48 or 66.
    let byteCount: Int

    /// P-384: p = 2³⁸⁴ − 2¹²⁸ − 2⁹⁶ + 2³² − 1.
    package static let p384 = EllipticCurve(identity: .p384, name: "P-384", byteCount: 48)

    /// P-521: p = 2⁵²¹ − 1.
    package static let p521 = EllipticCurve(identity: .p521, name: "P-521", byteCount: 66)

    /// Whether `(x, y)` is a point of the curve: each coordinate exactly ``byteCount`` big-endian
    /// bytes, below `p` (a larger value is refused, not reduced), and `y² = x³ − 3x + b mod p`.
    /// `(0, 0)`, which some encodings use for the point at infinity, is not on these curves
    /// (`b ≠ 0`); with cofactor 1 every point of the curve generates the whole group, so no
    /// `n · Q = ∞` check is needed (SEC 1 §3.2.2.1).
    func contains(x: [UInt8], y: [UInt8]) -> Bool {
        guard x.count == byteCount, y.count == byteCount else { return false }
        return switch identity {
        case .p384: ifc_p384_valid_public_key(x, y) == 1
        case .p521: ifc_p521_valid_public_key(x, y) == 1
        }
    }

    /// Whether `signature` (`r ‖ s`, ``byteCount`` bytes each) verifies for `digest` under the
    /// key `(x, y)` (SEC 1 §4.1.4): `r` and `s` in `1...n − 1`, the key on the curve, the digest's
    /// leftmost bits, as many as n has (384 or 521; a shorter digest taken whole, not shifted),
    /// `x_R mod n = r`.
    /// High `s` is accepted, as FIPS 186-4 and other verifiers accept it.
    func verify(_ signature: [UInt8], digest: [UInt8], x: [UInt8], y: [UInt8]) -> Bool {
        guard signature.count == 2 * byteCount, x.count == byteCount, y.count == byteCount else { return false }
        return switch identity {
        case .p384: ifc_p384_verify(signature, digest, digest.count, x, y) == 1
        case .p521: ifc_p521_verify(signature, digest, digest.count, x, y) == 1
        }
    }

    /// `u₁G + u₂Q` in affine coordinates, for scalars of ``byteCount`` big-endian bytes (any
    /// value, not reduced mod n): the sum verification computes, open to tests.
    /// - Returns: `nil` when an argument has another length, `Q` is not on the curve, or the sum
    ///   is the point at infinity.
    func linearCombination(_ u1: [UInt8], _ u2: [UInt8], x: [UInt8], y: [UInt8]) -> (x: [UInt8], y: [UInt8])? {
        guard [u1, u2, x, y].allSatisfy({ $0.count == byteCount }) else { return nil }
        var rx = [UInt8](repeating: 0, count: byteCount), ry = rx
        let found =
            switch identity {
            case .p384: ifc_p384_linear_combination(&rx, &ry, u1, u2, x, y)
            case .p521: ifc_p521_linear_combination(&rx, &ry, u1, u2, x, y)
            }
        return found == 1 ? (rx, ry) : nil
    }
}
