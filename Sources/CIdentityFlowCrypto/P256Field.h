// P-256 arithmetic modulo p (the field) and modulo n (the group order): four 64-bit limbs, least
// significant first, in Montgomery form (R = 2^256). Every function here runs in constant time:
// no branch and no memory access depends on the values, only on public exponents.
#ifndef CIDENTITYFLOWCRYPTO_P256FIELD_H
#define CIDENTITYFLOWCRYPTO_P256FIELD_H

#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

// SwiftPM compiles C with -O2, which leaves these short fixed-count loops rolled and the
// reduction out of line: a P-256 field multiplication took 20 ns, 13 ns unrolled, 11 ns with the
// helpers below inlined too.
#define UNROLL _Pragma("clang loop unroll(full)")
// The helpers a multiplication is made of, inlined into it whatever the optimiser's budget says.
#define LIMB_HELPER static inline __attribute__((always_inline))
typedef uint64_t fe[4];

// p = 2^256 - 2^224 + 2^192 + 2^96 - 1, n = the group order.
static const fe P256_P = {0xFFFFFFFFFFFFFFFFULL, 0x00000000FFFFFFFFULL, 0x0000000000000000ULL, 0xFFFFFFFF00000001ULL};
static const fe P256_N = {0xF3B9CAC2FC632551ULL, 0xBCE6FAADA7179E84ULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFF00000000ULL};
// R mod p (1 in Montgomery form) and R^2 mod p (to enter it).
static const fe P256_ONE = {0x0000000000000001ULL, 0xFFFFFFFF00000000ULL, 0xFFFFFFFFFFFFFFFFULL, 0x00000000FFFFFFFEULL};
static const fe P256_RR = {0x0000000000000003ULL, 0xFFFFFFFBFFFFFFFFULL, 0xFFFFFFFFFFFFFFFEULL, 0x00000004FFFFFFFDULL};
// For n: -n^-1 mod 2^64, R mod n and R^2 mod n.
static const uint64_t P256_N_INV = 0xCCD1C8AAEE00BC4FULL;
static const fe P256_N_ONE = {0x0C46353D039CDAAFULL, 0x4319055258E8617BULL, 0x0000000000000000ULL, 0x00000000FFFFFFFFULL};
static const fe P256_N_RR = {0x83244C95BE79EEA2ULL, 0x4699799C49BD6FA6ULL, 0x2845B2392B6BEC59ULL, 0x66E12D94F3D95620ULL};

// MARK: - Limbs

LIMB_HELPER uint64_t mask_if(uint64_t bit) { return (uint64_t)0 - (bit & 1); }

/// 1 when a is zero.
LIMB_HELPER uint64_t fe_is_zero(const fe a) {
    uint64_t t = a[0] | a[1] | a[2] | a[3];
    return 1 ^ ((t | ((uint64_t)0 - t)) >> 63);
}

/// r = mask ? a : b.
LIMB_HELPER void fe_select(fe r, const fe a, const fe b, uint64_t mask) {
    UNROLL
    for (int i = 0; i < 4; i++) r[i] = (a[i] & mask) | (b[i] & ~mask);
}

/// r = a - b, returning the borrow. (__builtin_subcll gives one SBB chain; the same on u128
/// left the borrow in SETB/MOVZX pairs and doubled the cost of a field subtraction.)
LIMB_HELPER uint64_t fe_sub_raw(fe r, const fe a, const fe b) {
    unsigned long long borrow = 0;
    UNROLL
    for (int i = 0; i < 4; i++) r[i] = __builtin_subcll(a[i], b[i], borrow, &borrow);
    return borrow;
}

/// r = a + b, returning the carry (one ADC chain, as fe_sub_raw).
LIMB_HELPER uint64_t fe_add_raw(fe r, const fe a, const fe b) {
    unsigned long long carry = 0;
    UNROLL
    for (int i = 0; i < 4; i++) r[i] = __builtin_addcll(a[i], b[i], carry, &carry);
    return carry;
}

/// 1 when a < b.
LIMB_HELPER uint64_t fe_less_than(const fe a, const fe b) {
    fe t;
    return fe_sub_raw(t, a, b);
}

/// r = (carry·2^256 + a) reduced below m, for a value below 2m.
LIMB_HELPER void fe_reduce_once(fe r, const fe a, uint64_t carry, const fe m) {
    fe reduced;
    uint64_t borrow = fe_sub_raw(reduced, a, m);
    // Keep a only when it was below m: no carry in and the subtraction borrowed.
    fe_select(r, a, reduced, mask_if(borrow & (carry ^ 1)));
}

LIMB_HELPER void mod_add(fe r, const fe a, const fe b, const fe m) {
    fe sum;
    uint64_t carry = fe_add_raw(sum, a, b);
    fe_reduce_once(r, sum, carry, m);
}

LIMB_HELPER void mod_sub(fe r, const fe a, const fe b, const fe m) {
    fe diff, fixed;
    uint64_t borrow = fe_sub_raw(diff, a, b);
    fe_add_raw(fixed, diff, m);
    fe_select(r, fixed, diff, mask_if(borrow));
}

// MARK: - The field

LIMB_HELPER void fp_add(fe r, const fe a, const fe b) { mod_add(r, a, b, P256_P); }
LIMB_HELPER void fp_sub(fe r, const fe a, const fe b) { mod_sub(r, a, b, P256_P); }

/// Montgomery reduction of the 512-bit t (t < p·2^256) by p's shape: -p^-1 mod 2^64 is 1, so
/// each step's multiple of p is q = t[i], and q·p adds q·2^96 and q·p[3]·2^192 after the low
/// limb cancels. Four multiplications instead of sixteen; the additions are ADC chains
/// (__builtin_addcll), as in fe_add_raw.
LIMB_HELPER void fp_reduce(fe r, uint64_t t[8]) {
    unsigned long long top = 0; // the carry above t[7]
    UNROLL
    for (int i = 0; i < 4; i++) {
        const uint64_t q = t[i];
        const u128 m = (u128)q * P256_P[3];
        // t + q·p = t - q + q·2^64 (limb i cancels to 0 with a carry of q into limb i + 1)
        //         + (q·2^32 - q)·2^64 + q·p[3]·2^192: limb i + 1 gets q<<32, limb i + 2 q>>32.
        unsigned long long c = 0;
        t[i + 1] = __builtin_addcll(t[i + 1], q << 32, c, &c);
        t[i + 2] = __builtin_addcll(t[i + 2], q >> 32, c, &c);
        t[i + 3] = __builtin_addcll(t[i + 3], (uint64_t)m, c, &c);
        t[i + 4] = __builtin_addcll(t[i + 4], (uint64_t)(m >> 64), c, &c);
        UNROLL
        for (int j = i + 5; j < 8; j++) t[j] = __builtin_addcll(t[j], 0, c, &c);
        top += c;
    }
    fe_reduce_once(r, t + 4, top, P256_P);
}

/// t[i...i+4] += a·x, where t[i + 4] is fresh (set here): the low halves of the four products
/// on one ADC chain, the high halves on another.
LIMB_HELPER void row_multiply_add(uint64_t *t, const fe a, uint64_t x, int fresh_top) {
    uint64_t lo[4], hi[4];
    UNROLL
    for (int j = 0; j < 4; j++) {
        const u128 p = (u128)a[j] * x;
        lo[j] = (uint64_t)p;
        hi[j] = (uint64_t)(p >> 64);
    }
    unsigned long long c = 0, d = 0;
    UNROLL
    for (int j = 0; j < 4; j++) t[j] = __builtin_addcll(t[j], lo[j], c, &c);
    t[4] = fresh_top ? c : t[4] + c;
    UNROLL
    for (int j = 0; j < 4; j++) t[j + 1] = __builtin_addcll(t[j + 1], hi[j], d, &d);
    if (!fresh_top) t[5] += d;
}

/// r = a·b/R mod p.
static inline void fp_mul(fe r, const fe a, const fe b) {
    uint64_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    // Row i writes t[i + 4] first; its high halves' carry out of t[i + 4] is 0 (the partial
    // product a·b[0...i] fits in i + 5 limbs).
    UNROLL
    for (int i = 0; i < 4; i++) row_multiply_add(t + i, a, b[i], 1);
    fp_reduce(r, t);
}

/// t = a², all eight limbs: the six cross products once, doubled, plus the four squares.
LIMB_HELPER void fe_square_wide(uint64_t t[8], const fe a) {
    // Cross products a[i]·a[j], i < j: t[1..6].
    u128 p01 = (u128)a[0] * a[1], p02 = (u128)a[0] * a[2], p03 = (u128)a[0] * a[3];
    u128 p12 = (u128)a[1] * a[2], p13 = (u128)a[1] * a[3], p23 = (u128)a[2] * a[3];
    unsigned long long c = 0;
    t[0] = 0;
    t[1] = (uint64_t)p01;
    t[2] = __builtin_addcll((uint64_t)(p01 >> 64), (uint64_t)p02, 0, &c);
    t[3] = __builtin_addcll((uint64_t)(p02 >> 64), (uint64_t)p03, c, &c);
    t[4] = __builtin_addcll((uint64_t)(p03 >> 64), 0, c, &c);
    c = 0;
    t[3] = __builtin_addcll(t[3], (uint64_t)p12, c, &c);
    t[4] = __builtin_addcll(t[4], (uint64_t)(p12 >> 64), c, &c);
    t[5] = c;
    c = 0;
    t[4] = __builtin_addcll(t[4], (uint64_t)p13, c, &c);
    t[5] = __builtin_addcll(t[5], (uint64_t)(p13 >> 64), c, &c);
    t[6] = c;
    c = 0;
    t[5] = __builtin_addcll(t[5], (uint64_t)p23, c, &c);
    t[6] = __builtin_addcll(t[6], (uint64_t)(p23 >> 64), c, &c);
    t[7] = c;
    // Doubled (the cross products are below 2^511), then the squares on the diagonal.
    t[7] = (t[7] << 1) | (t[6] >> 63);
    t[6] = (t[6] << 1) | (t[5] >> 63);
    t[5] = (t[5] << 1) | (t[4] >> 63);
    t[4] = (t[4] << 1) | (t[3] >> 63);
    t[3] = (t[3] << 1) | (t[2] >> 63);
    t[2] = (t[2] << 1) | (t[1] >> 63);
    t[1] = t[1] << 1;
    u128 s0 = (u128)a[0] * a[0], s1 = (u128)a[1] * a[1], s2 = (u128)a[2] * a[2], s3 = (u128)a[3] * a[3];
    c = 0;
    t[0] = (uint64_t)s0;
    t[1] = __builtin_addcll(t[1], (uint64_t)(s0 >> 64), c, &c);
    t[2] = __builtin_addcll(t[2], (uint64_t)s1, c, &c);
    t[3] = __builtin_addcll(t[3], (uint64_t)(s1 >> 64), c, &c);
    t[4] = __builtin_addcll(t[4], (uint64_t)s2, c, &c);
    t[5] = __builtin_addcll(t[5], (uint64_t)(s2 >> 64), c, &c);
    t[6] = __builtin_addcll(t[6], (uint64_t)s3, c, &c);
    t[7] = __builtin_addcll(t[7], (uint64_t)(s3 >> 64), c, &c);
}

/// r = a²/R mod p.
static inline void fp_sqr(fe r, const fe a) {
    uint64_t t[8];
    fe_square_wide(t, a);
    fp_reduce(r, t);
}

/// r = a squared `count` times.
static inline void fp_sqr_times(fe r, const fe a, int count) {
    memcpy(r, a, sizeof(fe));
    for (int i = 0; i < count; i++) fp_sqr(r, r);
}

/// a^(p-2) = a^-1 (0 stays 0), by an addition chain on p - 2's words
/// FFFFFFFF 00000001 00000000 00000000 00000000 FFFFFFFF FFFFFFFF FFFFFFFD: 255 squarings and
/// 13 multiplications. x_k is a^(2^k - 1), k ones in binary.
static inline void fp_inverse(fe r, const fe a) {
    fe x2, x4, x8, x16, x24, x28, x30, x32, t;
    fp_sqr(t, a);
    fp_mul(x2, t, a);
    fp_sqr_times(t, x2, 2);
    fp_mul(x4, t, x2);
    fp_sqr_times(t, x4, 4);
    fp_mul(x8, t, x4);
    fp_sqr_times(t, x8, 8);
    fp_mul(x16, t, x8);
    fp_sqr_times(t, x16, 8);
    fp_mul(x24, t, x8);
    fp_sqr_times(t, x24, 4);
    fp_mul(x28, t, x4);
    fp_sqr_times(t, x28, 2);
    fp_mul(x30, t, x2);
    fp_sqr_times(t, x30, 2);
    fp_mul(x32, t, x2);
    fp_sqr_times(t, x32, 32); // FFFFFFFF 00000000
    fp_mul(t, t, a);          // FFFFFFFF 00000001
    fp_sqr_times(t, t, 128);  // ... 00000000 00000000 00000000 00000000
    fp_mul(t, t, x32);        // ... FFFFFFFF
    fp_sqr_times(t, t, 32);
    fp_mul(t, t, x32);        // ... FFFFFFFF FFFFFFFF
    fp_sqr_times(t, t, 30);
    fp_mul(t, t, x30);        // ... FFFFFFFF FFFFFFFF 3FFFFFFF
    fp_sqr_times(t, t, 2);
    fp_mul(r, t, a);          // ... FFFFFFFF FFFFFFFF FFFFFFFD
}

static inline void fp_to_mont(fe r, const fe a) { fp_mul(r, a, P256_RR); }

static inline void fp_from_mont(fe r, const fe a) {
    static const fe one = {1, 0, 0, 0};
    fp_mul(r, a, one);
}

// MARK: - Scalars mod n

/// t = a·b, all eight limbs, by rows on ADC chains (row_multiply_add).
LIMB_HELPER void fe_multiply_wide(uint64_t t[8], const fe a, const fe b) {
    memset(t, 0, 8 * sizeof(uint64_t));
    UNROLL
    for (int i = 0; i < 4; i++) row_multiply_add(t + i, a, b[i], 1);
}

/// Montgomery reduction mod n of the 512-bit t (t < n·2^256): a row q·n per limb with
/// q = t[i]·(-n^-1), on ADC chains, then one subtraction at most.
LIMB_HELPER void fn_reduce(fe r, uint64_t t[8]) {
    unsigned long long extra = 0;
    UNROLL
    for (int i = 0; i < 4; i++) {
        const uint64_t q = t[i] * P256_N_INV;
        uint64_t lo[4], hi[4];
        UNROLL
        for (int j = 0; j < 4; j++) {
            const u128 p = (u128)q * P256_N[j];
            lo[j] = (uint64_t)p;
            hi[j] = (uint64_t)(p >> 64);
        }
        unsigned long long c = 0, d = 0;
        UNROLL
        for (int j = 0; j < 4; j++) t[i + j] = __builtin_addcll(t[i + j], lo[j], c, &c);
        t[i + 4] = __builtin_addcll(t[i + 4], 0, c, &c);
        UNROLL
        for (int j = 0; j < 4; j++) t[i + j + 1] = __builtin_addcll(t[i + j + 1], hi[j], d, &d);
        // Both carries leave t[i + 4] (c) and t[i + 4] again (d): into the limbs above.
        unsigned long long carry = c + d;
        UNROLL
        for (int j = i + 5; j < 8; j++) t[j] = __builtin_addcll(t[j], 0, carry, &carry);
        extra += carry;
    }
    fe_reduce_once(r, t + 4, extra, P256_N);
}

/// r = a·b/R mod n, for a, b < n.
static inline void fn_mul(fe r, const fe a, const fe b) {
    uint64_t t[8];
    fe_multiply_wide(t, a, b);
    fn_reduce(r, t);
}

/// r = a²/R mod n: the cross products once (as fp_sqr), then the reduction.
static inline void fn_sqr(fe r, const fe a) {
    uint64_t t[8];
    fe_square_wide(t, a);
    fn_reduce(r, t);
}

static inline void fn_add(fe r, const fe a, const fe b) { mod_add(r, a, b, P256_N); }
static inline void fn_to_mont(fe r, const fe a) { fn_mul(r, a, P256_N_RR); }

static inline void fn_from_mont(fe r, const fe a) {
    static const fe one = {1, 0, 0, 0};
    fn_mul(r, a, one);
}

/// a^(n-2) = a^-1 mod n, in Montgomery form, by 4-bit windows over the public exponent: the
/// table index depends on n only, so the time does not depend on a.
static inline void fn_inverse(fe r, const fe a) {
    static const fe two = {2, 0, 0, 0};
    fe e, table[16], acc;
    fe_sub_raw(e, P256_N, two);
    memcpy(table[0], P256_N_ONE, sizeof(fe));
    for (int i = 1; i < 16; i++) fn_mul(table[i], table[i - 1], a);
    memcpy(acc, P256_N_ONE, sizeof(fe));
    for (int window = 63; window >= 0; window--) {
        for (int i = 0; i < 4; i++) fn_sqr(acc, acc);
        fn_mul(acc, acc, table[(e[window / 16] >> (4 * (window % 16))) & 15]);
    }
    memcpy(r, acc, sizeof(fe));
}

// MARK: - Bytes

static inline void fe_from_bytes(fe r, const uint8_t b[32]) {
    for (int i = 0; i < 4; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++) w = (w << 8) | b[(3 - i) * 8 + j];
        r[i] = w;
    }
}

static inline void fe_to_bytes(uint8_t b[32], const fe a) {
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) b[(3 - i) * 8 + j] = (uint8_t)(a[i] >> (56 - 8 * j));
}

#endif
