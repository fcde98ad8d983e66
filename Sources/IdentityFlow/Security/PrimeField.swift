/// Arithmetic modulo an odd prime: the coordinates of an elliptic curve's points (mod p) and
/// ECDSA's scalars (mod n). Elements are ``BigUInt`` values in `0..<modulus`; inputs outside that
/// range are a programming error, except for ``reduce(_:)``.
///
/// Only public values go through it (keys, signatures, digests), so it makes no constant-time
/// claims.
struct PrimeField: Sendable, Equatable {
    /// The prime.
    let modulus: BigUInt

    /// Exponentiation modulo the prime, for inverses.
    private let arithmetic: MontgomeryModulus

    /// The field of integers modulo `prime`.
    /// - Parameter prime: An odd prime (not checked: the curves' constants are).
    init(_ prime: BigUInt) {
        guard let arithmetic = MontgomeryModulus(prime) else { preconditionFailure("a prime field's modulus is an odd prime") }
        self.modulus = prime
        self.arithmetic = arithmetic
    }

    /// `value mod p`, for any value.
    func reduce(_ value: BigUInt) -> BigUInt {
        value < modulus ? value : value.remainder(dividingBy: modulus)
    }

    /// `a + b mod p`.
    func add(_ a: BigUInt, _ b: BigUInt) -> BigUInt {
        let sum = a + b
        return sum < modulus ? sum : sum - modulus
    }

    /// `a − b mod p`.
    func subtract(_ a: BigUInt, _ b: BigUInt) -> BigUInt {
        a < b ? a + (modulus - b) : a - b
    }

    /// `a · b mod p`.
    func multiply(_ a: BigUInt, _ b: BigUInt) -> BigUInt {
        (a * b).remainder(dividingBy: modulus)
    }

    /// `a² mod p`.
    func square(_ a: BigUInt) -> BigUInt { multiply(a, a) }

    /// `a⁻¹ mod p` by Fermat's little theorem, `a^(p−2)`; 0 for 0 (which has no inverse: callers
    /// check for it first).
    func inverse(_ a: BigUInt) -> BigUInt {
        arithmetic.power(a, modulus - BigUInt(2))
    }
}
