#ifndef CIDENTITYFLOWCRYPTO_H
#define CIDENTITYFLOWCRYPTO_H

#include <stddef.h>
#include <stdint.h>

/// Compresses `blocks` 64-byte blocks of `data` into `state` (eight SHA-256 chaining words),
/// with the fastest engine this CPU has (SHA-NI, ARMv8 SHA2, or the portable C code).
void ifc_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

/// The portable engine alone, so tests can check it against the hardware one.
void ifc_sha256_blocks_portable(uint32_t state[8], const uint8_t *data, size_t blocks);

/// 1 when `ifc_sha256_blocks` uses SHA instructions on this CPU, 0 when it uses the portable code.
int ifc_sha256_has_hardware(void);

/// PBKDF2's inner loop: `count` times, u = HMAC(u) from the precomputed pad states, t ^= u.
/// Two compressions per iteration, no allocation. `portable` forces the portable engine.
void ifc_pbkdf2_sha256_iterate(const uint32_t inner[8], const uint32_t outer[8],
                               uint32_t u[8], uint32_t t[8], uint64_t count, int portable);

/// Montgomery multiplication (64-bit limbs, least significant first):
/// `result = a * b / 2^(64 * count) mod n` for `a, b < n`, `n` odd, with the fastest engine this
/// CPU has (MULX/ADCX/ADOX on x86-64 with BMI2 and ADX, else the portable C code). `result` may
/// alias `a` or `b`; `t` is scratch of `2 * count` limbs. Only public values come here: not constant time.
void ifc_montgomery_multiply(uint64_t *result, const uint64_t *a, const uint64_t *b, const uint64_t *n,
                             uint64_t negated_inverse, size_t count, uint64_t *t);

/// Montgomery squaring: `result = a * a / 2^(64 * count) mod n`, the cross products computed once,
/// on the same engine as `ifc_montgomery_multiply`. `result` may alias `a`; `t` is scratch of `2 * count` limbs.
void ifc_montgomery_square(uint64_t *result, const uint64_t *a, const uint64_t *n,
                           uint64_t negated_inverse, size_t count, uint64_t *t);

/// The portable multiplication alone (fused CIOS on 128-bit products), so tests can check the fast
/// engine against it. `t` needs only `count + 1` limbs here.
void ifc_montgomery_multiply_portable(uint64_t *result, const uint64_t *a, const uint64_t *b, const uint64_t *n,
                                      uint64_t negated_inverse, size_t count, uint64_t *t);

/// The portable squaring alone, for the same tests.
void ifc_montgomery_square_portable(uint64_t *result, const uint64_t *a, const uint64_t *n,
                                    uint64_t negated_inverse, size_t count, uint64_t *t);

/// 1 when `ifc_montgomery_multiply` and `ifc_montgomery_square` use MULX/ADCX/ADOX on this CPU,
/// 0 when they use the portable code.
int ifc_montgomery_has_fast_path(void);

// MARK: - SHA-512 and SHA-384

/// The SHA-512 (`digest_length` 64) or SHA-384 (`digest_length` 48) digest of `length` bytes of
/// `data` (FIPS 180-4), padding included: one call, no allocation. `data` may be NULL when
/// `length` is 0. Returns 1, or 0 for another digest length (nothing is written then).
int ifc_sha512(uint8_t *digest, size_t digest_length, const uint8_t *data, size_t length);

/// `ifc_sha512` with the portable engine whatever the CPU, for the tests that compare it with the
/// engine chosen at run time.
int ifc_sha512_portable(uint8_t *digest, size_t digest_length, const uint8_t *data, size_t length);

/// 1 when `ifc_sha512` runs the AVX-512 engine (message schedule in vector registers) on this CPU.
int ifc_sha512_has_vector_schedule(void);

// MARK: - P-256 (secp256r1), for PIN proof v2. Scalars and digests are 32 bytes big-endian,
// public keys SEC1 uncompressed (65 bytes), signatures r || s (64 bytes). Functions return 1 on
// success, 0 otherwise. Whatever touches a private scalar or nonce runs in constant time.

/// `scalar` = (material mod (n - 1)) + 1: a private key from key material without usable bias
/// (48 bytes or more; FIPS 186-5 A.2.1).
int ifc_p256_scalar_from_material(uint8_t scalar[32], const uint8_t *material, size_t length);

/// The public key scalar * G; 0 when the scalar is not in 1...n-1.
int ifc_p256_public_key(uint8_t public_key[65], const uint8_t scalar[32]);

/// `ifc_p256_public_key` with the portable scan of G's table whatever the CPU, for the tests
/// that compare it with the AVX2 scan.
int ifc_p256_public_key_portable(uint8_t public_key[65], const uint8_t scalar[32]);

/// 1 when `ifc_p256_public_key` (and signing) scan G's table with AVX2 on this CPU.
int ifc_p256_public_key_has_vector_scan(void);

/// 1 when the safegcd inversions (P256Inverse.c) give what Fermat's a^(m-2) gives for `value`
/// (big-endian): modulo p for a value below p (as a Montgomery-form field element), modulo n for
/// a value below n (as a plain scalar). For the tests.
int ifc_p256_inverses_agree(const uint8_t value[32]);

/// result = scalar * public_key, by the variable-base windows that verification uses for the
/// public key (an independent path from the fixed-base table behind ifc_p256_public_key, so
/// tests can check one against the other). 0 when the scalar is not in 1...n-1 or the point is
/// not on the curve.
int ifc_p256_multiply(uint8_t result[65], const uint8_t public_key[65], const uint8_t scalar[32]);

/// 1 when the scalar is in 1...n-1.
int ifc_p256_valid_scalar(const uint8_t scalar[32]);

/// 1 when the bytes are an uncompressed point on the curve with coordinates below p.
int ifc_p256_valid_public_key(const uint8_t public_key[65]);

/// ECDSA signature of a SHA-256 digest with the given nonce k (RFC 6979 chooses it), low s.
/// 0 when the scalar or nonce is out of range or r or s comes out 0 (then pick another nonce).
int ifc_p256_sign(uint8_t signature[64], const uint8_t digest[32], const uint8_t scalar[32], const uint8_t nonce[32]);

/// ECDSA signature of a SHA-256 digest with RFC 6979's deterministic nonce (HMAC-DRBG over the
/// private key and the digest, the first candidate that signs), low s. 0 when the scalar is not in
/// 1...n-1. Constant time in the scalar and the nonce.
int ifc_p256_sign_deterministic(uint8_t signature[64], const uint8_t digest[32], const uint8_t scalar[32]);

/// RFC 6979's first nonce candidate for the digest and private key (for tests: the signature
/// uses it unless it is out of range).
int ifc_p256_rfc6979_nonce(uint8_t nonce[32], const uint8_t digest[32], const uint8_t scalar[32]);

/// 1 when r and s are both in 1...n-1.
int ifc_p256_valid_signature_encoding(const uint8_t signature[64]);

/// 1 when the signature of the digest verifies under the public key (high s is accepted, as
/// FIPS 186-5 and other verifiers accept it).
int ifc_p256_verify(const uint8_t signature[64], const uint8_t digest[32], const uint8_t public_key[65]);

// MARK: - P-384 and P-521 (secp384r1, secp521r1), for ID tokens signed ES384 and ES512.
// Coordinates, r and s are big-endian of the curve's length: 48 bytes on P-384, 66 on P-521.
// Signatures are r || s. Only public values come here: not constant time. Functions return 1 on
// success, 0 otherwise.

/// 1 when (x, y) is a point of P-384: both coordinates below p and on the curve.
int ifc_p384_valid_public_key(const uint8_t x[48], const uint8_t y[48]);

/// 1 when `signature` (r || s, 96 bytes) verifies for the digest under the key (x, y) (SEC 1
/// §4.1.4): r and s in 1...n-1, the key on the curve, the digest's leftmost 384 bits (a shorter
/// digest taken whole). High s is accepted.
int ifc_p384_verify(const uint8_t signature[96], const uint8_t *digest, size_t digest_length,
                    const uint8_t x[48], const uint8_t y[48]);

/// u1·G + u2·Q in affine coordinates (rx, ry) for any 48-byte u1 and u2 (not reduced mod n):
/// the arithmetic verification uses, open to tests. 0 when Q is not on the curve or the sum is
/// the point at infinity.
int ifc_p384_linear_combination(uint8_t rx[48], uint8_t ry[48], const uint8_t u1[48], const uint8_t u2[48],
                                const uint8_t qx[48], const uint8_t qy[48]);

/// 1 when (x, y) is a point of P-521: both coordinates below p and on the curve.
int ifc_p521_valid_public_key(const uint8_t x[66], const uint8_t y[66]);

/// 1 when `signature` (r || s, 132 bytes) verifies for the digest under the key (x, y), as
/// `ifc_p384_verify` does on P-384; the digest's leftmost 521 bits (SHA-512 is taken whole).
int ifc_p521_verify(const uint8_t signature[132], const uint8_t *digest, size_t digest_length,
                    const uint8_t x[66], const uint8_t y[66]);

/// u1·G + u2·Q on P-521, as `ifc_p384_linear_combination` on P-384.
int ifc_p521_linear_combination(uint8_t rx[66], uint8_t ry[66], const uint8_t u1[66], const uint8_t u2[66],
                                const uint8_t qx[66], const uint8_t qy[66]);

#endif
