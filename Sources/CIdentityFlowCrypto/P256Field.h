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

/// r = a - b, returning the borrow.
LIMB_HELPER uint64_t fe_sub_raw(fe r, const fe a, const fe b) {
    uint64_t borrow = 0;
    UNROLL
    for (int i = 0; i < 4; i++) {
        u128 d = (u128)a[i] - b[i] - borrow;
        r[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return borrow;
}

/// r = a + b, returning the carry.
LIMB_HELPER uint64_t fe_add_raw(fe r, const fe a, const fe b) {
    uint64_t carry = 0;
    UNROLL
    for (int i = 0; i < 4; i++) {
        u128 s = (u128)a[i] + b[i] + carry;
        r[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
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
/// limb cancels. Four multiplications instead of sixteen.
LIMB_HELPER void fp_reduce(fe r, uint64_t t[8]) {
    uint64_t top = 0; // the carry above t[7]
    UNROLL
    for (int i = 0; i < 4; i++) {
        const uint64_t q = t[i];
        // t + q·p = t - q + q·2^64 (limb i cancels to 0 with a carry of q into limb i + 1)
        //         + (q·2^32 - q)·2^64 + q·p[3]·2^192: limb i + 1 gets q<<32, limb i + 2 q>>32.
        u128 c = (u128)t[i + 1] + (q << 32);
        t[i + 1] = (uint64_t)c;
        c = (c >> 64) + t[i + 2] + (q >> 32);
        t[i + 2] = (uint64_t)c;
        c = (c >> 64) + t[i + 3] + (u128)q * P256_P[3];
        t[i + 3] = (uint64_t)c;
        c = (c >> 64) + t[i + 4];
        t[i + 4] = (uint64_t)c;
        uint64_t carry = (uint64_t)(c >> 64);
        UNROLL
        for (int j = i + 5; j < 8; j++) {
            c = (u128)t[j] + carry;
            t[j] = (uint64_t)c;
            carry = (uint64_t)(c >> 64);
        }
        top += carry;
    }
    fe_reduce_once(r, t + 4, top, P256_P);
}

/// r = a·b/R mod p.
static inline void fp_mul(fe r, const fe a, const fe b) {
    uint64_t t[8];
    uint64_t carry = 0;
    UNROLL
    for (int j = 0; j < 4; j++) {
        u128 x = (u128)a[j] * b[0] + carry;
        t[j] = (uint64_t)x;
        carry = (uint64_t)(x >> 64);
    }
    t[4] = carry;
    UNROLL
    for (int i = 1; i < 4; i++) {
        carry = 0;
        UNROLL
        for (int j = 0; j < 4; j++) {
            u128 x = (u128)a[j] * b[i] + t[i + j] + carry;
            t[i + j] = (uint64_t)x;
            carry = (uint64_t)(x >> 64);
        }
        t[i + 4] = carry;
    }
    fp_reduce(r, t);
}

/// r = a²/R mod p: the six cross products once, doubled, plus the four squares.
static inline void fp_sqr(fe r, const fe a) {
    uint64_t t[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    UNROLL
    for (int i = 0; i < 3; i++) {
        uint64_t carry = 0;
        UNROLL
        for (int j = i + 1; j < 4; j++) {
            u128 x = (u128)a[i] * a[j] + t[i + j] + carry;
            t[i + j] = (uint64_t)x;
            carry = (uint64_t)(x >> 64);
        }
        t[i + 4] = carry;
    }
    uint64_t shifted = 0;
    UNROLL
    for (int i = 0; i < 8; i++) {
        uint64_t limb = t[i];
        t[i] = (limb << 1) | shifted;
        shifted = limb >> 63;
    }
    uint64_t carry = 0;
    UNROLL
    for (int i = 0; i < 4; i++) {
        u128 x = (u128)a[i] * a[i] + t[2 * i] + carry;
        t[2 * i] = (uint64_t)x;
        x = (u128)t[2 * i + 1] + (uint64_t)(x >> 64);
        t[2 * i + 1] = (uint64_t)x;
        carry = (uint64_t)(x >> 64);
    }
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

/// r = a·b/R mod n (CIOS), for a, b < n.
static inline void fn_mul(fe r, const fe a, const fe b) {
    uint64_t t[6] = {0, 0, 0, 0, 0, 0};
    UNROLL
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        UNROLL
        for (int j = 0; j < 4; j++) {
            u128 x = (u128)a[j] * b[i] + t[j] + carry;
            t[j] = (uint64_t)x;
            carry = (uint64_t)(x >> 64);
        }
        u128 x = (u128)t[4] + carry;
        t[4] = (uint64_t)x;
        t[5] = (uint64_t)(x >> 64);
        uint64_t q = t[0] * P256_N_INV;
        x = (u128)q * P256_N[0] + t[0];
        carry = (uint64_t)(x >> 64);
        UNROLL
        for (int j = 1; j < 4; j++) {
            x = (u128)q * P256_N[j] + t[j] + carry;
            t[j - 1] = (uint64_t)x;
            carry = (uint64_t)(x >> 64);
        }
        x = (u128)t[4] + carry;
        t[3] = (uint64_t)x;
        t[4] = t[5] + (uint64_t)(x >> 64);
    }
    fe_reduce_once(r, t, t[4], P256_N);
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
        for (int i = 0; i < 4; i++) fn_mul(acc, acc, acc);
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
