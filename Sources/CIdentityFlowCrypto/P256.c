// P-256 (secp256r1) ECDSA for PIN proof v2: keys, signing and verification over the field and
// point arithmetic of P256Field.h and P256Point.c.
//
// Everything that touches a secret (the private scalar, the nonce k) runs in constant time: no
// branch and no memory access depends on secret data (see P256Point.c for how).
#include "CIdentityFlowCrypto.h"
#include "P256Point.h"
#include "P256Verify.h"

/// A scalar in 1...n-1.
static int valid_scalar(const fe s) { return !fe_is_zero(s) && fe_less_than(s, P256_N); }

/// x mod n for any x below 2^256 < 2n: one conditional subtraction.
static void mod_n_once(fe r, const fe x) { fe_reduce_once(r, x, 0, P256_N); }

/// The digest as an integer mod n.
static void digest_mod_n(fe z, const uint8_t digest[32]) {
    fe_from_bytes(z, digest);
    mod_n_once(z, z);
}

// MARK: - Public functions

int ifc_p256_scalar_from_material(uint8_t scalar[32], const uint8_t *material, size_t length) {
    // material mod (n - 1), then + 1, bit by bit with masked subtractions: constant time.
    static const fe one = {1, 0, 0, 0};
    fe m, acc = {0, 0, 0, 0};
    fe_sub_raw(m, P256_N, one);
    for (size_t i = 0; i < length * 8; i++) {
        uint64_t bit = (uint64_t)(material[i / 8] >> (7 - i % 8)) & 1;
        uint64_t top = acc[3] >> 63;
        fe doubled;
        doubled[3] = (acc[3] << 1) | (acc[2] >> 63);
        doubled[2] = (acc[2] << 1) | (acc[1] >> 63);
        doubled[1] = (acc[1] << 1) | (acc[0] >> 63);
        doubled[0] = (acc[0] << 1) | bit;
        fe_reduce_once(acc, doubled, top, m);
    }
    fe_add_raw(acc, acc, one);
    fe_to_bytes(scalar, acc);
    return 1;
}

/// k·G encoded, by `base_mul` (the dispatched engine or the portable one); 0 for an invalid scalar.
static int public_key_with(uint8_t public_key[65], const uint8_t scalar[32], void (*base_mul)(p256_point *, const uint8_t *)) {
    fe d;
    fe_from_bytes(d, scalar);
    if (!valid_scalar(d)) return 0;
    p256_point q;
    base_mul(&q, scalar);
    p256_encode_point(public_key, &q);
    return 1;
}

int ifc_p256_public_key(uint8_t public_key[65], const uint8_t scalar[32]) { return public_key_with(public_key, scalar, p256_base_mul); }

int ifc_p256_public_key_portable(uint8_t public_key[65], const uint8_t scalar[32]) {
    return public_key_with(public_key, scalar, p256_base_mul_portable);
}

int ifc_p256_public_key_has_vector_scan(void) { return p256_base_mul_uses_avx2(); }

int ifc_p256_inverses_agree(const uint8_t value[32]) {
    fe a, fast, reference, m, plain;
    fe_from_bytes(a, value);
    int agree = 1;
    if (fe_less_than(a, P256_P)) { // a as a field element in Montgomery form
        p256_field_invert(fast, a);
        fp_inverse(reference, a);
        agree &= memcmp(fast, reference, sizeof(fe)) == 0;
    }
    if (fe_less_than(a, P256_N)) { // a as a plain scalar
        p256_scalar_invert(fast, a);
        fn_to_mont(m, a);
        fn_inverse(m, m);
        fn_from_mont(plain, m);
        agree &= memcmp(fast, plain, sizeof(fe)) == 0;
    }
    return agree;
}

int ifc_p256_multiply(uint8_t result[65], const uint8_t public_key[65], const uint8_t scalar[32]) {
    fe d;
    fe_from_bytes(d, scalar);
    p256_point point, product;
    if (!valid_scalar(d) || !p256_decode_point(&point, public_key)) return 0;
    p256_point_mul(&product, &point, scalar);
    p256_encode_point(result, &product);
    return 1;
}

int ifc_p256_valid_public_key(const uint8_t public_key[65]) {
    p256_point q;
    return p256_decode_point(&q, public_key);
}

int ifc_p256_valid_scalar(const uint8_t scalar[32]) {
    fe s;
    fe_from_bytes(s, scalar);
    return valid_scalar(s);
}

int ifc_p256_sign(uint8_t signature[64], const uint8_t digest[32], const uint8_t scalar[32], const uint8_t nonce[32]) {
    fe d, k, z;
    fe_from_bytes(d, scalar);
    fe_from_bytes(k, nonce);
    if (!valid_scalar(d) || !valid_scalar(k)) return 0;
    p256_point kg;
    p256_base_mul(&kg, nonce);
    fe x, y, r;
    p256_affine(x, y, &kg);
    mod_n_once(r, x);
    if (fe_is_zero(r)) return 0;
    digest_mod_n(z, digest);
    // s = k^-1 (z + r d) mod n, in Montgomery form mod n.
    fe mk, mr, md, mz, t, s, inverse;
    p256_scalar_invert(inverse, k); // k^-1, plain (safegcd; a^(n-2) took 320 multiplications)
    fn_to_mont(mk, inverse);
    fn_to_mont(mr, r);
    fn_to_mont(md, d);
    fn_to_mont(mz, z);
    fn_mul(t, mr, md);
    fn_add(t, t, mz);
    fn_mul(s, mk, t);
    fn_from_mont(s, s);
    if (fe_is_zero(s)) return 0;
    // Low s: s and n - s are both valid; keep the one at most (n - 1) / 2.
    fe negated, half;
    fe_sub_raw(negated, P256_N, s);
    memcpy(half, P256_N, sizeof(fe));
    for (int i = 0; i < 3; i++) half[i] = (half[i] >> 1) | (half[i + 1] << 63);
    half[3] >>= 1;
    fe_select(s, negated, s, mask_if(fe_less_than(half, s)));
    fe_to_bytes(signature, r);
    fe_to_bytes(signature + 32, s);
    memset(d, 0, sizeof d);
    memset(k, 0, sizeof k);
    memset(md, 0, sizeof md);
    memset(mk, 0, sizeof mk);
    memset(inverse, 0, sizeof inverse);
    return 1;
}

int ifc_p256_valid_signature_encoding(const uint8_t signature[64]) {
    fe r, s;
    fe_from_bytes(r, signature);
    fe_from_bytes(s, signature + 32);
    return valid_scalar(r) && valid_scalar(s);
}

int ifc_p256_verify(const uint8_t signature[64], const uint8_t digest[32], const uint8_t public_key[65]) {
    // Public values only: the variable-time verifier (P256Verify.c), about twice as fast.
    return p256_verify_public(signature, digest, public_key);
}
