// Arithmetic modulo the field prime p and the group order n of a NIST curve over LIMBS 64-bit
// limbs (least significant first), for ECDSA verification on P-384 (P384.c), P-521 (P521.c) and
// P-256 (P256Verify.c).
// Each of those files defines LIMBS, BYTES, the constants listed below and, when p has a shape
// worth a reduction of its own, FIELD_REDUCE (field values are then plain, not in Montgomery
// form) or FIELD_MONTGOMERY_REDUCE (Montgomery form, reduced by p's shape), then includes this
// file and
// ECPointTemplate.h: every function here is static, so each curve gets code compiled for its size.
//
// Verification handles public values only (keys, signatures, digests): branches and table
// indices depend on those values, and nothing here claims constant time. P-256, whose private
// keys and nonces are IdentityFlow's own, has separate constant-time code (P256Field.h).
//
// Expected from the includer (felem constants, Montgomery form where it says R = 2^(64 LIMBS)):
//   FIELD_P, FIELD_P_INV (-p^-1 mod 2^64), FIELD_ONE (R mod p, or 1 without Montgomery form),
//   FIELD_RR (R^2 mod p), FIELD_B (b in the field's form), ORDER_N, ORDER_N_INV, ORDER_ONE,
//   ORDER_RR, GENERATOR_X, GENERATOR_Y (G in the field's form), P_MINUS_N (p - n),
//   ORDER_BITS (n's bit length).
#ifndef CIDENTITYFLOWCRYPTO_ECFIELDTEMPLATE_H
#define CIDENTITYFLOWCRYPTO_ECFIELDTEMPLATE_H

#include <stdint.h>
#include <string.h>

typedef unsigned __int128 u128;

// SwiftPM builds C at -O2, which leaves fixed-count loops rolled; fully unrolled limb loops are
// what makes a fixed-size field fast.
#define UNROLL _Pragma("clang loop unroll(full)")
#define LIMB_HELPER static inline __attribute__((always_inline))

// MARK: - Limbs

/// 1 when a is zero.
LIMB_HELPER int fe_is_zero(const felem a) {
    uint64_t t = 0;
    UNROLL
    for (int i = 0; i < LIMBS; i++) t |= a[i];
    return t == 0;
}

/// 1 when a == b.
LIMB_HELPER int fe_equal(const felem a, const felem b) {
    uint64_t t = 0;
    UNROLL
    for (int i = 0; i < LIMBS; i++) t |= a[i] ^ b[i];
    return t == 0;
}

/// r = a + b, returning the carry (one ADC chain, as fe_sub_raw).
LIMB_HELPER uint64_t fe_add_raw(felem r, const felem a, const felem b) {
    unsigned long long carry = 0;
    UNROLL
    for (int i = 0; i < LIMBS; i++) r[i] = __builtin_addcll(a[i], b[i], carry, &carry);
    return carry;
}

/// r = a - b, returning the borrow. (__builtin_subcll gives one SBB chain; the same on u128
/// left the borrow in SETB/MOVZX pairs and doubled the cost of a field subtraction.)
LIMB_HELPER uint64_t fe_sub_raw(felem r, const felem a, const felem b) {
    unsigned long long borrow = 0;
    UNROLL
    for (int i = 0; i < LIMBS; i++) r[i] = __builtin_subcll(a[i], b[i], borrow, &borrow);
    return borrow;
}

/// 1 when a < b.
LIMB_HELPER int fe_less_than(const felem a, const felem b) {
    felem t;
    return (int)fe_sub_raw(t, a, b);
}

/// r = mask ? a : b, limb by limb.
LIMB_HELPER void fe_select(felem r, const felem a, const felem b, uint64_t mask) {
    UNROLL
    for (int i = 0; i < LIMBS; i++) r[i] = (a[i] & mask) | (b[i] & ~mask);
}

/// r = a + b mod m for a, b < m: the sum and the sum minus m, one kept by mask (no branch, which
/// a compiler turns into better code than a data-dependent copy).
LIMB_HELPER void mod_add(felem r, const felem a, const felem b, const felem m) {
    felem sum, reduced;
    uint64_t carry = fe_add_raw(sum, a, b);
    uint64_t borrow = fe_sub_raw(reduced, sum, m);
    // Keep the sum only when it was below m: no carry out and the subtraction borrowed.
    fe_select(r, sum, reduced, (uint64_t)0 - (borrow & (carry ^ 1)));
}

/// r = a - b mod m for a, b < m.
LIMB_HELPER void mod_sub(felem r, const felem a, const felem b, const felem m) {
    felem difference, fixed;
    uint64_t borrow = fe_sub_raw(difference, a, b);
    fe_add_raw(fixed, difference, m);
    fe_select(r, fixed, difference, (uint64_t)0 - borrow);
}

/// t[0...count] += x·v[0...count-1], returning the carry out of t[count]: the low halves of the
/// products on one ADC chain, the high halves on another (__builtin_addcll; the u128 idiom left
/// carries in SETB/MOVZX pairs).
LIMB_HELPER uint64_t row_multiply_add(uint64_t *t, const uint64_t *v, uint64_t x, int count) {
    uint64_t lo[LIMBS], hi[LIMBS];
    UNROLL
    for (int j = 0; j < count; j++) {
        const u128 p = (u128)v[j] * x;
        lo[j] = (uint64_t)p;
        hi[j] = (uint64_t)(p >> 64);
    }
    unsigned long long c = 0, d = 0;
    UNROLL
    for (int j = 0; j < count; j++) t[j] = __builtin_addcll(t[j], lo[j], c, &c);
    t[count] = __builtin_addcll(t[count], 0, c, &c);
    UNROLL
    for (int j = 0; j < count; j++) t[j + 1] = __builtin_addcll(t[j + 1], hi[j], d, &d);
    return c + d;
}

/// t = a·b, all 2·LIMBS limbs (operand scanning: a row of products per limb of b).
LIMB_HELPER void fe_multiply_wide(uint64_t t[2 * LIMBS], const felem a, const felem b) {
    memset(t, 0, 2 * LIMBS * sizeof(uint64_t));
    // Row i adds below t[i + LIMBS + 1]; the partial product a·b[0...i] fits in i + LIMBS + 1
    // limbs, so no carry leaves t[i + LIMBS].
    UNROLL
    for (int i = 0; i < LIMBS; i++) (void)row_multiply_add(t + i, a, b[i], LIMBS);
}

/// t = a², all 2·LIMBS limbs: the cross products once, doubled, plus the squares on the diagonal.
LIMB_HELPER void fe_square_wide(uint64_t t[2 * LIMBS], const felem a) {
    memset(t, 0, 2 * LIMBS * sizeof(uint64_t));
    UNROLL
    for (int i = 0; i < LIMBS - 1; i++) (void)row_multiply_add(t + 2 * i + 1, a + i + 1, a[i], LIMBS - 1 - i);
    uint64_t shifted = 0;
    UNROLL
    for (int i = 0; i < 2 * LIMBS; i++) {
        const uint64_t limb = t[i];
        t[i] = (limb << 1) | shifted;
        shifted = limb >> 63;
    }
    unsigned long long c = 0;
    UNROLL
    for (int i = 0; i < LIMBS; i++) {
        const u128 square = (u128)a[i] * a[i];
        t[2 * i] = __builtin_addcll(t[2 * i], (uint64_t)square, c, &c);
        t[2 * i + 1] = __builtin_addcll(t[2 * i + 1], (uint64_t)(square >> 64), c, &c);
    }
}

/// The big-endian `length` bytes (at most 8·LIMBS) as limbs.
static void fe_from_bytes(felem r, const uint8_t *bytes, int length) {
    memset(r, 0, sizeof(felem));
    for (int i = 0; i < length; i++) {
        const int position = length - 1 - i; // the byte's place from the least significant end
        r[position / 8] |= (uint64_t)bytes[i] << (8 * (position % 8));
    }
}

/// The low BYTES bytes of a, big-endian.
static void fe_to_bytes(uint8_t *bytes, const felem a) {
    for (int i = 0; i < BYTES; i++) {
        const int position = BYTES - 1 - i;
        bytes[i] = (uint8_t)(a[position / 8] >> (8 * (position % 8)));
    }
}

// MARK: - The field

/// Montgomery reduction of the 2·LIMBS limbs of t (t < m·R) into r = t/R mod m: a row q·m per
/// limb, then one subtraction at most.
LIMB_HELPER void montgomery_reduce(felem r, uint64_t t[2 * LIMBS], const felem m, uint64_t m_inv) {
    uint64_t extra = 0;
    UNROLL
    for (int i = 0; i < LIMBS; i++) {
        const uint64_t q = t[i] * m_inv;
        // The row's carry out of t[i + LIMBS] goes on up: into t[i + LIMBS + 1], or above t.
        uint64_t carry = row_multiply_add(t + i, m, q, LIMBS);
        UNROLL
        for (int j = i + LIMBS + 1; j < 2 * LIMBS; j++) {
            unsigned long long c;
            t[j] = __builtin_addcll(t[j], carry, 0, &c);
            carry = c;
        }
        extra += carry;
    }
    felem reduced;
    uint64_t borrow = fe_sub_raw(reduced, t + LIMBS, m);
    fe_select(r, t + LIMBS, reduced, (uint64_t)0 - (borrow & (extra ^ 1)));
}

/// r = a·b/R mod m for a, b < m: the full product, then the reduction.
LIMB_HELPER void montgomery_multiply(felem r, const felem a, const felem b, const felem m, uint64_t m_inv) {
    uint64_t t[2 * LIMBS];
    fe_multiply_wide(t, a, b);
    montgomery_reduce(r, t, m, m_inv);
}

#if !defined(FIELD_REDUCE)
#if defined(FIELD_MONTGOMERY_REDUCE)
// The includer's FIELD_MONTGOMERY_REDUCE(r, t) takes a full product t < p·R to t/R mod p by p's
// shape (P-256: -p^-1 mod 2^64 is 1 and p has two nonzero limbs besides the low one).
/// r = a·b in the field's (Montgomery) form.
static void fp_mul(felem r, const felem a, const felem b) {
    uint64_t t[2 * LIMBS];
    fe_multiply_wide(t, a, b);
    FIELD_MONTGOMERY_REDUCE(r, t);
}
/// r = a² in the field's (Montgomery) form.
static void fp_sqr(felem r, const felem a) {
    uint64_t t[2 * LIMBS];
    fe_square_wide(t, a);
    FIELD_MONTGOMERY_REDUCE(r, t);
}
#else
/// r = a·b in the field's (Montgomery) form.
static void fp_mul(felem r, const felem a, const felem b) { montgomery_multiply(r, a, b, FIELD_P, FIELD_P_INV); }
/// r = a² in the field's form.
static void fp_sqr(felem r, const felem a) {
    uint64_t t[2 * LIMBS];
    fe_square_wide(t, a);
    montgomery_reduce(r, t, FIELD_P, FIELD_P_INV);
}
#endif
/// A plain value below p into the field's form.
static void fp_enter(felem r, const felem a) { fp_mul(r, a, FIELD_RR); }
/// A value in the field's form back to plain.
static void fp_leave(felem r, const felem a) {
    static const felem one = {1};
    fp_mul(r, a, one);
}
#else
// The includer's FIELD_REDUCE(r, t) takes a full product t < p² to r = t mod p, canonical; field
// values are then plain integers below p.
/// r = a·b mod p (plain values).
static void fp_mul(felem r, const felem a, const felem b) {
    uint64_t t[2 * LIMBS];
    fe_multiply_wide(t, a, b);
    FIELD_REDUCE(r, t);
}
/// r = a² mod p (plain values).
static void fp_sqr(felem r, const felem a) {
    uint64_t t[2 * LIMBS];
    fe_square_wide(t, a);
    FIELD_REDUCE(r, t);
}
/// Plain values are the field's form here: a copy.
static void fp_enter(felem r, const felem a) { memcpy(r, a, sizeof(felem)); }
/// Plain values are the field's form here: a copy.
static void fp_leave(felem r, const felem a) { memcpy(r, a, sizeof(felem)); }
#endif

/// r = a + b mod p.
LIMB_HELPER void fp_add(felem r, const felem a, const felem b) { mod_add(r, a, b, FIELD_P); }
/// r = a - b mod p.
LIMB_HELPER void fp_sub(felem r, const felem a, const felem b) { mod_sub(r, a, b, FIELD_P); }

/// r = a^e (the field's form) for a public exponent, by 4-bit windows from the top.
static void fp_power(felem r, const felem a, const felem e) {
    felem table[16], acc;
    memcpy(table[0], FIELD_ONE, sizeof(felem));
    memcpy(table[1], a, sizeof(felem));
    for (int i = 2; i < 16; i++) fp_mul(table[i], table[i - 1], a);
    memcpy(acc, FIELD_ONE, sizeof(felem));
    for (int window = 16 * LIMBS - 1; window >= 0; window--) {
        for (int i = 0; i < 4; i++) fp_sqr(acc, acc);
        const unsigned digit = (unsigned)(e[window / 16] >> (4 * (window % 16))) & 15;
        if (digit) fp_mul(acc, acc, table[digit]);
    }
    memcpy(r, acc, sizeof(felem));
}

/// r = a^-1 = a^(p-2) in the field's form (0 stays 0).
static void fp_inverse(felem r, const felem a) {
    static const felem two = {2};
    felem e;
    fe_sub_raw(e, FIELD_P, two);
    fp_power(r, a, e);
}

// MARK: - Scalars mod n, in Montgomery form

/// r = a·b/R mod n (Montgomery form).
static void fn_mul(felem r, const felem a, const felem b) { montgomery_multiply(r, a, b, ORDER_N, ORDER_N_INV); }
/// r = a² mod n, Montgomery form: the cross products once, then the reduction.
static void fn_sqr(felem r, const felem a) {
    uint64_t t[2 * LIMBS];
    fe_square_wide(t, a);
    montgomery_reduce(r, t, ORDER_N, ORDER_N_INV);
}
/// A plain value below n into Montgomery form.
static void fn_enter(felem r, const felem a) { fn_mul(r, a, ORDER_RR); }
/// A value in Montgomery form mod n back to plain.
static void fn_leave(felem r, const felem a) {
    static const felem one = {1};
    fn_mul(r, a, one);
}

/// r = a^-1 = a^(n-2) mod n, Montgomery form in and out, by 4-bit windows over the public exponent.
static void fn_inverse(felem r, const felem a) {
    static const felem two = {2};
    felem e, table[16], acc;
    fe_sub_raw(e, ORDER_N, two);
    memcpy(table[0], ORDER_ONE, sizeof(felem));
    memcpy(table[1], a, sizeof(felem));
    for (int i = 2; i < 16; i++) fn_mul(table[i], table[i - 1], a);
    int window = 16 * LIMBS - 1;
    while (window > 0 && ((e[window / 16] >> (4 * (window % 16))) & 15) == 0) window--;
    memcpy(acc, ORDER_ONE, sizeof(felem));
    for (; window >= 0; window--) {
        for (int i = 0; i < 4; i++) fn_sqr(acc, acc);
        const unsigned digit = (unsigned)(e[window / 16] >> (4 * (window % 16))) & 15;
        if (digit) fn_mul(acc, acc, table[digit]);
    }
    memcpy(r, acc, sizeof(felem));
}

#endif
