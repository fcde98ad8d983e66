// P-256 (secp256r1) for PIN proof v2: field and scalar arithmetic in Montgomery form with four
// 64-bit limbs (least significant first), Jacobian points, ECDSA signing and verification.
//
// Everything that touches a secret (the private scalar, the nonce k) runs in constant time: no
// branch and no memory access depends on secret data. Additions and the final subtractions
// select with masks, inversions are exponentiations by a fixed public exponent, and a scalar
// multiplication does the same double, add and select for every one of the 256 bits. Point
// addition computes the general sum, the doubling and the infinity cases every time and keeps
// the right one by mask, so no input makes it branch.
#include "CIdentityFlowCrypto.h"
#include <pthread.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef uint64_t fe[4];

// p = 2^256 - 2^224 + 2^192 + 2^96 - 1, n = the group order, b, and the generator G.
static const fe P = {0xFFFFFFFFFFFFFFFFULL, 0x00000000FFFFFFFFULL, 0x0000000000000000ULL, 0xFFFFFFFF00000001ULL};
static const fe N = {0xF3B9CAC2FC632551ULL, 0xBCE6FAADA7179E84ULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFF00000000ULL};
static const fe B = {0x3BCE3C3E27D2604BULL, 0x651D06B0CC53B0F6ULL, 0xB3EBBD55769886BCULL, 0x5AC635D8AA3A93E7ULL};
static const fe GX = {0xF4A13945D898C296ULL, 0x77037D812DEB33A0ULL, 0xF8BCE6E563A440F2ULL, 0x6B17D1F2E12C4247ULL};
static const fe GY = {0xCBB6406837BF51F5ULL, 0x2BCE33576B315ECEULL, 0x8EE7EB4A7C0F9E16ULL, 0x4FE342E2FE1A7F9BULL};

/// A modulus with its Montgomery constants: -m^-1 mod 2^64 and R^2 mod m (R = 2^256).
typedef struct {
    fe m;
    uint64_t inv;
    fe r2;
    fe one; // R mod m: 1 in Montgomery form
} modulus;

// MARK: - Limb helpers (constant time)

static uint64_t mask_if(uint64_t bit) { return (uint64_t)0 - (bit & 1); }

static uint64_t is_zero(const fe a) {
    uint64_t t = a[0] | a[1] | a[2] | a[3];
    return 1 ^ ((t | ((uint64_t)0 - t)) >> 63);
}

static void select_fe(fe r, const fe a, const fe b, uint64_t mask) { // mask ? a : b
    for (int i = 0; i < 4; i++) r[i] = (a[i] & mask) | (b[i] & ~mask);
}

/// r = a - b, returning the borrow.
static uint64_t sub4(fe r, const fe a, const fe b) {
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        u128 d = (u128)a[i] - b[i] - borrow;
        r[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return borrow;
}

/// r = a + b, returning the carry.
static uint64_t add4(fe r, const fe a, const fe b) {
    uint64_t carry = 0;
    for (int i = 0; i < 4; i++) {
        u128 s = (u128)a[i] + b[i] + carry;
        r[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
    return carry;
}

/// 1 when a < b.
static uint64_t less_than(const fe a, const fe b) {
    fe t;
    return sub4(t, a, b);
}

// MARK: - Modular arithmetic

static void mod_add(fe r, const fe a, const fe b, const modulus *md) {
    fe sum, reduced;
    uint64_t carry = add4(sum, a, b);
    uint64_t borrow = sub4(reduced, sum, md->m);
    // Keep the sum only when it was below m: no carry out and the subtraction borrowed.
    select_fe(r, sum, reduced, mask_if(borrow & (carry ^ 1)));
}

static void mod_sub(fe r, const fe a, const fe b, const modulus *md) {
    fe diff, fixed;
    uint64_t borrow = sub4(diff, a, b);
    add4(fixed, diff, md->m);
    select_fe(r, fixed, diff, mask_if(borrow));
}

/// Montgomery product a * b / R mod m (CIOS), for a, b < m.
static void mont_mul(fe r, const fe a, const fe b, const modulus *md) {
    uint64_t t[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 4; j++) {
            u128 x = (u128)a[j] * b[i] + t[j] + carry;
            t[j] = (uint64_t)x;
            carry = (uint64_t)(x >> 64);
        }
        u128 x = (u128)t[4] + carry;
        t[4] = (uint64_t)x;
        t[5] = (uint64_t)(x >> 64);
        uint64_t q = t[0] * md->inv;
        x = (u128)q * md->m[0] + t[0];
        carry = (uint64_t)(x >> 64);
        for (int j = 1; j < 4; j++) {
            x = (u128)q * md->m[j] + t[j] + carry;
            t[j - 1] = (uint64_t)x;
            carry = (uint64_t)(x >> 64);
        }
        x = (u128)t[4] + carry;
        t[3] = (uint64_t)x;
        t[4] = t[5] + (uint64_t)(x >> 64);
    }
    fe low = {t[0], t[1], t[2], t[3]}, reduced;
    uint64_t borrow = sub4(reduced, low, md->m);
    select_fe(r, low, reduced, mask_if(borrow & (t[4] ^ 1)));
}

static void to_mont(fe r, const fe a, const modulus *md) { mont_mul(r, a, md->r2, md); }

static void from_mont(fe r, const fe a, const modulus *md) {
    static const fe one = {1, 0, 0, 0};
    mont_mul(r, a, one, md);
}

/// a^(m-2) in Montgomery form: the inverse for prime m (0 stays 0). The exponent is public.
static void mont_inverse(fe r, const fe a, const modulus *md) {
    fe e, acc, base;
    static const fe two = {2, 0, 0, 0};
    sub4(e, md->m, two);
    memcpy(acc, md->one, sizeof(fe));
    memcpy(base, a, sizeof(fe));
    for (int bit = 255; bit >= 0; bit--) {
        mont_mul(acc, acc, acc, md);
        if ((e[bit / 64] >> (bit % 64)) & 1) mont_mul(acc, acc, base, md);
    }
    memcpy(r, acc, sizeof(fe));
}

/// Sets up a modulus: -m^-1 mod 2^64 by Newton's iteration, R mod m, R^2 mod m by doubling.
static void modulus_init(modulus *md, const fe m) {
    memcpy(md->m, m, sizeof(fe));
    uint64_t x = 1;
    for (int i = 0; i < 7; i++) x *= 2 - m[0] * x;
    md->inv = (uint64_t)0 - x;
    fe zero = {0, 0, 0, 0};
    sub4(md->one, zero, m); // 2^256 - m = R mod m, since m > 2^255
    memcpy(md->r2, md->one, sizeof(fe));
    for (int i = 0; i < 256; i++) mod_add(md->r2, md->r2, md->r2, md);
}

static modulus FP, FN;
static pthread_once_t constants_once = PTHREAD_ONCE_INIT;

static void compute_constants(void) {
    modulus_init(&FP, P);
    modulus_init(&FN, N);
}

/// The Montgomery constants of p and n, computed once, before any thread reads them.
static void init(void) { pthread_once(&constants_once, compute_constants); }

// MARK: - Bytes

static void fe_from_bytes(fe r, const uint8_t b[32]) {
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++) w = (w << 8) | b[(3 - i) * 8 + j];
        r[i] = w;
    }
}

static void fe_to_bytes(uint8_t b[32], const fe a) {
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) b[(3 - i) * 8 + j] = (uint8_t)(a[i] >> (56 - 8 * j));
}

// MARK: - Points: Jacobian (X, Y, Z) in Montgomery form; Z = 0 is the point at infinity

typedef struct { fe x, y, z; } point;

static void point_select(point *r, const point *a, const point *b, uint64_t mask) {
    select_fe(r->x, a->x, b->x, mask);
    select_fe(r->y, a->y, b->y, mask);
    select_fe(r->z, a->z, b->z, mask);
}

/// 2P with a = -3 (dbl-2001-b). Infinity (Z = 0) stays infinity.
static void point_double(point *r, const point *p) {
    const modulus *f = &FP;
    fe delta, gamma, beta, alpha, t1, t2, x3, y3, z3;
    mont_mul(delta, p->z, p->z, f);
    mont_mul(gamma, p->y, p->y, f);
    mont_mul(beta, p->x, gamma, f);
    mod_sub(t1, p->x, delta, f);
    mod_add(t2, p->x, delta, f);
    mont_mul(alpha, t1, t2, f);
    mod_add(t1, alpha, alpha, f);
    mod_add(alpha, t1, alpha, f); // alpha = 3 (X - delta)(X + delta)
    mont_mul(x3, alpha, alpha, f);
    mod_add(t1, beta, beta, f);
    mod_add(t1, t1, t1, f);
    mod_add(t2, t1, t1, f); // 8 beta
    mod_sub(x3, x3, t2, f);
    mod_add(t2, p->y, p->z, f);
    mont_mul(z3, t2, t2, f);
    mod_sub(z3, z3, gamma, f);
    mod_sub(z3, z3, delta, f);
    mod_sub(t1, t1, x3, f); // 4 beta - X3
    mont_mul(y3, alpha, t1, f);
    mont_mul(t2, gamma, gamma, f);
    mod_add(t2, t2, t2, f);
    mod_add(t2, t2, t2, f);
    mod_add(t2, t2, t2, f); // 8 gamma^2
    mod_sub(y3, y3, t2, f);
    memcpy(r->x, x3, sizeof(fe));
    memcpy(r->y, y3, sizeof(fe));
    memcpy(r->z, z3, sizeof(fe));
}

/// P + Q for any P, Q: the general sum (add-2007-bl), with the doubling and the infinity cases
/// computed every time and chosen by mask.
static void point_add(point *r, const point *p, const point *q) {
    const modulus *f = &FP;
    fe z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    point sum, dbl;
    mont_mul(z1z1, p->z, p->z, f);
    mont_mul(z2z2, q->z, q->z, f);
    mont_mul(u1, p->x, z2z2, f);
    mont_mul(u2, q->x, z1z1, f);
    mont_mul(t, q->z, z2z2, f);
    mont_mul(s1, p->y, t, f);
    mont_mul(t, p->z, z1z1, f);
    mont_mul(s2, q->y, t, f);
    mod_sub(h, u2, u1, f);
    mod_add(i, h, h, f);
    mont_mul(i, i, i, f);
    mont_mul(j, h, i, f);
    mod_sub(rr, s2, s1, f);
    uint64_t same_x = is_zero(h), same_y = is_zero(rr);
    mod_add(rr, rr, rr, f);
    mont_mul(v, u1, i, f);
    mont_mul(sum.x, rr, rr, f);
    mod_sub(sum.x, sum.x, j, f);
    mod_sub(sum.x, sum.x, v, f);
    mod_sub(sum.x, sum.x, v, f);
    mod_sub(t, v, sum.x, f);
    mont_mul(sum.y, rr, t, f);
    mont_mul(t, s1, j, f);
    mod_add(t, t, t, f);
    mod_sub(sum.y, sum.y, t, f);
    mod_add(t, p->z, q->z, f);
    mont_mul(t, t, t, f);
    mod_sub(t, t, z1z1, f);
    mod_sub(t, t, z2z2, f);
    mont_mul(sum.z, t, h, f);
    point_double(&dbl, p);
    uint64_t p_inf = is_zero(p->z), q_inf = is_zero(q->z);
    // Equal points (same x, same y, neither at infinity) need the doubling; opposite points give
    // Z = 0 from the general formula already.
    point_select(&sum, &dbl, &sum, mask_if(same_x & same_y & (p_inf ^ 1) & (q_inf ^ 1)));
    point_select(&sum, q, &sum, mask_if(p_inf));
    point_select(&sum, p, &sum, mask_if(q_inf & (p_inf ^ 1)));
    *r = sum;
}

/// k * P for a 32-byte big-endian scalar, the same work for every bit.
static void point_mul(point *r, const point *p, const uint8_t k[32]) {
    point acc, sum;
    memset(&acc, 0, sizeof acc); // infinity
    for (int bit = 255; bit >= 0; bit--) {
        point_double(&acc, &acc);
        point_add(&sum, &acc, p);
        point_select(&acc, &sum, &acc, mask_if((uint64_t)(k[31 - bit / 8] >> (bit % 8))));
    }
    *r = acc;
}

static void generator(point *g) {
    to_mont(g->x, GX, &FP);
    to_mont(g->y, GY, &FP);
    memcpy(g->z, FP.one, sizeof(fe));
}

/// The affine x and y (plain form) of a point not at infinity.
static void affine(fe x, fe y, const point *p) {
    fe zi, zi2, zi3;
    mont_inverse(zi, p->z, &FP);
    mont_mul(zi2, zi, zi, &FP);
    mont_mul(zi3, zi2, zi, &FP);
    mont_mul(x, p->x, zi2, &FP);
    mont_mul(y, p->y, zi3, &FP);
    from_mont(x, x, &FP);
    from_mont(y, y, &FP);
}

/// Reads an uncompressed point and checks it: coordinates below p, on the curve.
static int decode_point(point *r, const uint8_t public_key[65]) {
    if (public_key[0] != 0x04) return 0;
    fe x, y;
    fe_from_bytes(x, public_key + 1);
    fe_from_bytes(y, public_key + 33);
    if (!less_than(x, P) || !less_than(y, P)) return 0;
    fe mx, my, lhs, rhs, t, mb;
    to_mont(mx, x, &FP);
    to_mont(my, y, &FP);
    mont_mul(lhs, my, my, &FP);
    mont_mul(t, mx, mx, &FP);
    mont_mul(rhs, t, mx, &FP);
    mod_sub(rhs, rhs, mx, &FP);
    mod_sub(rhs, rhs, mx, &FP);
    mod_sub(rhs, rhs, mx, &FP);
    to_mont(mb, B, &FP);
    mod_add(rhs, rhs, mb, &FP);
    fe d;
    sub4(d, lhs, rhs);
    if (!is_zero(d)) return 0;
    memcpy(r->x, mx, sizeof(fe));
    memcpy(r->y, my, sizeof(fe));
    memcpy(r->z, FP.one, sizeof(fe));
    return 1;
}

/// A scalar in 1...n-1.
static int valid_scalar(const fe s) { return !is_zero(s) && less_than(s, N); }

// MARK: - Public functions

int ifc_p256_scalar_from_material(uint8_t scalar[32], const uint8_t *material, size_t length) {
    init();
    // material mod (n - 1), then + 1, bit by bit with masked subtractions: constant time.
    static const fe one = {1, 0, 0, 0};
    fe m, acc = {0, 0, 0, 0};
    sub4(m, N, one);
    for (size_t i = 0; i < length * 8; i++) {
        uint64_t bit = (uint64_t)(material[i / 8] >> (7 - i % 8)) & 1;
        uint64_t top = acc[3] >> 63;
        fe doubled, reduced;
        doubled[3] = (acc[3] << 1) | (acc[2] >> 63);
        doubled[2] = (acc[2] << 1) | (acc[1] >> 63);
        doubled[1] = (acc[1] << 1) | (acc[0] >> 63);
        doubled[0] = (acc[0] << 1) | bit;
        uint64_t borrow = sub4(reduced, doubled, m);
        select_fe(acc, doubled, reduced, mask_if(borrow & (top ^ 1)));
    }
    add4(acc, acc, one);
    fe_to_bytes(scalar, acc);
    return 1;
}

int ifc_p256_public_key(uint8_t public_key[65], const uint8_t scalar[32]) {
    init();
    fe d;
    fe_from_bytes(d, scalar);
    if (!valid_scalar(d)) return 0;
    point g, q;
    generator(&g);
    point_mul(&q, &g, scalar);
    fe x, y;
    affine(x, y, &q);
    public_key[0] = 0x04;
    fe_to_bytes(public_key + 1, x);
    fe_to_bytes(public_key + 33, y);
    return 1;
}

int ifc_p256_valid_public_key(const uint8_t public_key[65]) {
    init();
    point q;
    return decode_point(&q, public_key);
}

int ifc_p256_valid_scalar(const uint8_t scalar[32]) {
    init();
    fe s;
    fe_from_bytes(s, scalar);
    return valid_scalar(s);
}

/// x mod n for any x below 2^256 < 2n: one conditional subtraction.
static void mod_n_once(fe r, const fe x) {
    fe reduced;
    uint64_t borrow = sub4(reduced, x, N);
    select_fe(r, x, reduced, mask_if(borrow));
}

/// The digest as an integer mod n.
static void digest_mod_n(fe z, const uint8_t digest[32]) {
    fe_from_bytes(z, digest);
    mod_n_once(z, z);
}

int ifc_p256_sign(uint8_t signature[64], const uint8_t digest[32], const uint8_t scalar[32], const uint8_t nonce[32]) {
    init();
    fe d, k, z;
    fe_from_bytes(d, scalar);
    fe_from_bytes(k, nonce);
    if (!valid_scalar(d) || !valid_scalar(k)) return 0;
    point g, kg;
    generator(&g);
    point_mul(&kg, &g, nonce);
    fe x, y, r;
    affine(x, y, &kg);
    mod_n_once(r, x);
    if (is_zero(r)) return 0;
    digest_mod_n(z, digest);
    // s = k^-1 (z + r d) mod n, in Montgomery form mod n.
    fe mk, mr, md, mz, t, s;
    to_mont(mk, k, &FN);
    to_mont(mr, r, &FN);
    to_mont(md, d, &FN);
    to_mont(mz, z, &FN);
    mont_mul(t, mr, md, &FN);
    mod_add(t, t, mz, &FN);
    mont_inverse(mk, mk, &FN);
    mont_mul(s, mk, t, &FN);
    from_mont(s, s, &FN);
    if (is_zero(s)) return 0;
    // Low s: s and n - s are both valid; keep the one at most (n - 1) / 2.
    fe negated, half;
    sub4(negated, N, s);
    memcpy(half, N, sizeof(fe));
    for (int i = 0; i < 3; i++) half[i] = (half[i] >> 1) | (half[i + 1] << 63);
    half[3] >>= 1;
    select_fe(s, negated, s, mask_if(less_than(half, s)));
    fe_to_bytes(signature, r);
    fe_to_bytes(signature + 32, s);
    memset(d, 0, sizeof d);
    memset(k, 0, sizeof k);
    memset(md, 0, sizeof md);
    memset(mk, 0, sizeof mk);
    return 1;
}

int ifc_p256_valid_signature_encoding(const uint8_t signature[64]) {
    init();
    fe r, s;
    fe_from_bytes(r, signature);
    fe_from_bytes(s, signature + 32);
    return valid_scalar(r) && valid_scalar(s);
}

int ifc_p256_verify(const uint8_t signature[64], const uint8_t digest[32], const uint8_t public_key[65]) {
    init();
    fe r, s, z;
    fe_from_bytes(r, signature);
    fe_from_bytes(s, signature + 32);
    if (!valid_scalar(r) || !valid_scalar(s)) return 0;
    point q;
    if (!decode_point(&q, public_key)) return 0;
    digest_mod_n(z, digest);
    fe ms, mz, mr, w, u1, u2;
    to_mont(ms, s, &FN);
    to_mont(mz, z, &FN);
    to_mont(mr, r, &FN);
    mont_inverse(w, ms, &FN);
    mont_mul(u1, mz, w, &FN);
    mont_mul(u2, mr, w, &FN);
    from_mont(u1, u1, &FN);
    from_mont(u2, u2, &FN);
    uint8_t b1[32], b2[32];
    fe_to_bytes(b1, u1);
    fe_to_bytes(b2, u2);
    point g, p1, p2, sum;
    generator(&g);
    point_mul(&p1, &g, b1);
    point_mul(&p2, &q, b2);
    point_add(&sum, &p1, &p2);
    if (is_zero(sum.z)) return 0;
    fe x, y, v;
    affine(x, y, &sum);
    mod_n_once(v, x);
    fe diff;
    sub4(diff, v, r);
    return (int)is_zero(diff);
}
