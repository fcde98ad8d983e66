// Points of a NIST curve y² = x³ - 3x + b and ECDSA verification (SEC 1 §4.1.4), over the
// field of ECFieldTemplate.h, for P384.c and P521.c (included after it; everything is static).
//
// u1·G + u2·Q is one pass of doublings shared by both scalars (Shamir's trick) over their
// width-w NAFs: G's odd multiples up to 63·G come from a table computed once, affine, so each
// of its additions is a mixed one; Q's odd multiples up to 15·Q are computed per verification.
// Public values only: branches on the points and digits are expected (see ECFieldTemplate.h).
#ifndef CIDENTITYFLOWCRYPTO_ECPOINTTEMPLATE_H
#define CIDENTITYFLOWCRYPTO_ECPOINTTEMPLATE_H

#include <pthread.h>

/// Jacobian coordinates (X, Y, Z) for (X/Z², Y/Z³), in the field's form; Z = 0 is infinity.
typedef struct { felem x, y, z; } jacobian_point;

/// An affine point, in the field's form; never infinity.
typedef struct { felem x, y; } affine_point;

/// G's NAF width: odd multiples 1·G ... 63·G in the table.
#define G_WINDOW 7
/// Q's NAF width: odd multiples 1·Q ... 15·Q per verification.
#define Q_WINDOW 5
/// Digits of a scalar of up to 64·LIMBS bits in width-w NAF: one more than its bits.
#define NAF_DIGITS (64 * LIMBS + 1)

// MARK: - Doubling and addition

/// r = 2p (dbl-2001-b, a = -3: 3 multiplications, 5 squarings). Infinity stays infinity; no point
/// of these curves has y = 0. r may be p.
static void point_double(jacobian_point *r, const jacobian_point *p) {
    felem delta, gamma, beta, alpha, t1, t2, x3, y3, z3;
    fp_sqr(delta, p->z);
    fp_sqr(gamma, p->y);
    fp_mul(beta, p->x, gamma);
    fp_sub(t1, p->x, delta);
    fp_add(t2, p->x, delta);
    fp_mul(alpha, t1, t2);
    fp_add(t1, alpha, alpha);
    fp_add(alpha, t1, alpha); // 3 (X - delta)(X + delta)
    fp_sqr(x3, alpha);
    fp_add(t1, beta, beta);
    fp_add(t1, t1, t1);       // 4 beta
    fp_add(t2, t1, t1);       // 8 beta
    fp_sub(x3, x3, t2);
    fp_add(t2, p->y, p->z);
    fp_sqr(z3, t2);
    fp_sub(z3, z3, gamma);
    fp_sub(z3, z3, delta);
    fp_sub(t1, t1, x3);
    fp_mul(y3, alpha, t1);
    fp_sqr(t2, gamma);
    fp_add(t2, t2, t2);
    fp_add(t2, t2, t2);
    fp_add(t2, t2, t2);       // 8 gamma²
    fp_sub(y3, y3, t2);
    memcpy(r->x, x3, sizeof(felem));
    memcpy(r->y, y3, sizeof(felem));
    memcpy(r->z, z3, sizeof(felem));
}

/// r = p + q for any p and q (add-2007-bl: 11 multiplications, 5 squarings), with the cases the
/// formula does not cover: either at infinity, p = q (a doubling), p = -q (infinity). r may be p or q.
static void point_add(jacobian_point *r, const jacobian_point *p, const jacobian_point *q) {
    if (fe_is_zero(p->z)) { *r = *q; return; }
    if (fe_is_zero(q->z)) { *r = *p; return; }
    felem z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t, x3, y3, z3;
    fp_sqr(z1z1, p->z);
    fp_sqr(z2z2, q->z);
    fp_mul(u1, p->x, z2z2);
    fp_mul(u2, q->x, z1z1);
    fp_mul(t, q->z, z2z2);
    fp_mul(s1, p->y, t);
    fp_mul(t, p->z, z1z1);
    fp_mul(s2, q->y, t);
    fp_sub(h, u2, u1);
    fp_sub(rr, s2, s1);
    if (fe_is_zero(h)) {
        if (fe_is_zero(rr)) point_double(r, p);
        else memset(r, 0, sizeof *r);
        return;
    }
    fp_add(i, h, h);
    fp_sqr(i, i);
    fp_mul(j, h, i);
    fp_add(rr, rr, rr);
    fp_mul(v, u1, i);
    fp_sqr(x3, rr);
    fp_sub(x3, x3, j);
    fp_sub(x3, x3, v);
    fp_sub(x3, x3, v);
    fp_sub(t, v, x3);
    fp_mul(y3, rr, t);
    fp_mul(t, s1, j);
    fp_add(t, t, t);
    fp_sub(y3, y3, t);
    fp_add(t, p->z, q->z);
    fp_sqr(t, t);
    fp_sub(t, t, z1z1);
    fp_sub(t, t, z2z2);
    fp_mul(z3, t, h);
    memcpy(r->x, x3, sizeof(felem));
    memcpy(r->y, y3, sizeof(felem));
    memcpy(r->z, z3, sizeof(felem));
}

/// r = p + q for an affine q (madd-2007-bl: 7 multiplications, 4 squarings), every case
/// included. r may be p.
static void point_add_affine(jacobian_point *r, const jacobian_point *p, const affine_point *q) {
    if (fe_is_zero(p->z)) {
        memcpy(r->x, q->x, sizeof(felem));
        memcpy(r->y, q->y, sizeof(felem));
        memcpy(r->z, FIELD_ONE, sizeof(felem));
        return;
    }
    felem z1z1, u2, s2, h, hh, i, j, rr, v, t, x3, y3, z3;
    fp_sqr(z1z1, p->z);
    fp_mul(u2, q->x, z1z1);
    fp_mul(t, p->z, z1z1);
    fp_mul(s2, q->y, t);
    fp_sub(h, u2, p->x);
    fp_sub(rr, s2, p->y);
    if (fe_is_zero(h)) {
        if (fe_is_zero(rr)) point_double(r, p);
        else memset(r, 0, sizeof *r);
        return;
    }
    fp_sqr(hh, h);
    fp_add(i, hh, hh);
    fp_add(i, i, i);
    fp_mul(j, h, i);
    fp_add(rr, rr, rr);
    fp_mul(v, p->x, i);
    fp_sqr(x3, rr);
    fp_sub(x3, x3, j);
    fp_sub(x3, x3, v);
    fp_sub(x3, x3, v);
    fp_sub(t, v, x3);
    fp_mul(y3, rr, t);
    fp_mul(t, p->y, j);
    fp_add(t, t, t);
    fp_sub(y3, y3, t);
    fp_add(t, p->z, h);
    fp_sqr(t, t);
    fp_sub(t, t, z1z1);
    fp_sub(z3, t, hh);
    memcpy(r->x, x3, sizeof(felem));
    memcpy(r->y, y3, sizeof(felem));
    memcpy(r->z, z3, sizeof(felem));
}

/// -p's y in the field's form: p - y (y is never 0 on these curves).
LIMB_HELPER void negate_y(felem r, const felem y) {
    static const felem zero = {0};
    fp_sub(r, zero, y);
}

// MARK: - Width-w NAF

/// The width-w NAF of the scalar (limbs, below 2^(64·LIMBS)): digits[i] is 0 or odd in
/// -(2^(w-1) - 1)...2^(w-1) - 1, and Σ digits[i]·2^i is the scalar. Returns the number of digits
/// up to the highest nonzero one (0 for 0).
static int naf(int8_t digits[NAF_DIGITS], const felem scalar, int w) {
    memset(digits, 0, NAF_DIGITS);
    int bit = 0, carry = 0, length = 0;
    const int total = 64 * LIMBS;
    while (bit < total) {
        if ((int)((scalar[bit / 64] >> (bit % 64)) & 1) == carry) {
            bit++;
            continue;
        }
        int width = w < total - bit ? w : total - bit;
        // The window's bits (may straddle two limbs), plus the carry from the last digit.
        uint64_t word = scalar[bit / 64] >> (bit % 64);
        if (bit % 64 + width > 64 && bit / 64 + 1 < LIMBS) word |= scalar[bit / 64 + 1] << (64 - bit % 64);
        int value = (int)(word & ((1u << width) - 1)) + carry;
        carry = (value >> (w - 1)) & 1;
        value -= carry << w;
        digits[bit] = (int8_t)value;
        length = bit + 1;
        bit += width;
    }
    if (carry) {
        digits[total] = 1;
        length = total + 1;
    }
    return length;
}

// MARK: - G's table

/// g_table[k] = (2k + 1)·G, affine, computed once.
static affine_point g_table[1 << (G_WINDOW - 2)];
static pthread_once_t g_table_once = PTHREAD_ONCE_INIT;

/// Fills g_table: the odd multiples by additions of 2G, then each made affine (a one-time cost).
static void compute_g_table(void) {
    jacobian_point g, twice, multiple;
    memcpy(g.x, GENERATOR_X, sizeof(felem));
    memcpy(g.y, GENERATOR_Y, sizeof(felem));
    memcpy(g.z, FIELD_ONE, sizeof(felem));
    point_double(&twice, &g);
    multiple = g;
    for (int k = 0; k < (1 << (G_WINDOW - 2)); k++) {
        felem zi, zi2, zi3;
        fp_inverse(zi, multiple.z);
        fp_sqr(zi2, zi);
        fp_mul(zi3, zi2, zi);
        fp_mul(g_table[k].x, multiple.x, zi2);
        fp_mul(g_table[k].y, multiple.y, zi3);
        point_add(&multiple, &multiple, &twice);
    }
}

// MARK: - u1·G + u2·Q

/// r = u1·G + u2·Q for plain scalars below 2^(64·LIMBS) (not reduced mod n) and a point Q on
/// the curve; r may be infinity.
static void linear_combination(jacobian_point *r, const felem u1, const felem u2, const jacobian_point *q) {
    pthread_once(&g_table_once, compute_g_table);
    int8_t d1[NAF_DIGITS], d2[NAF_DIGITS];
    const int length1 = naf(d1, u1, G_WINDOW), length2 = naf(d2, u2, Q_WINDOW);
    jacobian_point q_table[1 << (Q_WINDOW - 2)], twice;
    q_table[0] = *q;
    point_double(&twice, q);
    for (int k = 1; k < (1 << (Q_WINDOW - 2)); k++) point_add(&q_table[k], &q_table[k - 1], &twice);

    jacobian_point acc;
    memset(&acc, 0, sizeof acc);
    for (int i = (length1 > length2 ? length1 : length2) - 1; i >= 0; i--) {
        if (!fe_is_zero(acc.z)) point_double(&acc, &acc);
        if (d1[i] > 0) {
            point_add_affine(&acc, &acc, &g_table[d1[i] / 2]);
        } else if (d1[i] < 0) {
            affine_point negated;
            memcpy(negated.x, g_table[-d1[i] / 2].x, sizeof(felem));
            negate_y(negated.y, g_table[-d1[i] / 2].y);
            point_add_affine(&acc, &acc, &negated);
        }
        if (d2[i] > 0) {
            point_add(&acc, &acc, &q_table[d2[i] / 2]);
        } else if (d2[i] < 0) {
            jacobian_point negated = q_table[-d2[i] / 2];
            negate_y(negated.y, negated.y);
            point_add(&acc, &acc, &negated);
        }
    }
    *r = acc;
}

// MARK: - Keys and verification

/// Reads a public key: both coordinates BYTES long and below p, y² = x³ - 3x + b. 1 when valid.
/// (0, 0), which some encodings use for infinity, is not on the curve (b ≠ 0); with cofactor 1,
/// every point on the curve is in the group (SEC 1 §3.2.2.1).
static int decode_point(jacobian_point *r, const uint8_t *x_bytes, const uint8_t *y_bytes) {
    felem x, y, lhs, rhs, t;
    fe_from_bytes(x, x_bytes, BYTES);
    fe_from_bytes(y, y_bytes, BYTES);
    if (!fe_less_than(x, FIELD_P) || !fe_less_than(y, FIELD_P)) return 0;
    fp_enter(r->x, x);
    fp_enter(r->y, y);
    memcpy(r->z, FIELD_ONE, sizeof(felem));
    fp_sqr(lhs, r->y);
    fp_sqr(t, r->x);
    fp_mul(rhs, t, r->x);
    fp_sub(rhs, rhs, r->x);
    fp_sub(rhs, rhs, r->x);
    fp_sub(rhs, rhs, r->x);
    fp_add(rhs, rhs, FIELD_B);
    return fe_equal(lhs, rhs);
}

/// A signature half (BYTES big-endian) as a scalar in 1...n-1; 0 when out of that range.
static int decode_scalar(felem r, const uint8_t *bytes) {
    fe_from_bytes(r, bytes, BYTES);
    return !fe_is_zero(r) && fe_less_than(r, ORDER_N);
}

/// The digest's leftmost ORDER_BITS bits as an integer, reduced mod n (SEC 1 §4.1.4 step 3; a
/// shorter digest is taken whole, not shifted left).
static void digest_scalar(felem e, const uint8_t *digest, size_t length) {
    const size_t keep = (ORDER_BITS + 7) / 8 < length ? (ORDER_BITS + 7) / 8 : length;
    fe_from_bytes(e, digest, (int)keep);
    const int excess = (int)(8 * keep) - ORDER_BITS;
    if (excess > 0) {
        for (int i = 0; i < LIMBS; i++) e[i] = (e[i] >> excess) | (i + 1 < LIMBS ? e[i + 1] << (64 - excess) : 0);
    }
    // Below 2^ORDER_BITS < 2n: one subtraction at most.
    if (!fe_less_than(e, ORDER_N)) fe_sub_raw(e, e, ORDER_N);
}

/// ECDSA verification (SEC 1 §4.1.4) of `signature` = r ‖ s (BYTES each) for a digest of any
/// length, under the public key (x, y). 1 when valid; high s is accepted.
static int ecdsa_verify(const uint8_t *signature, const uint8_t *digest, size_t digest_length,
                        const uint8_t *x_bytes, const uint8_t *y_bytes) {
    felem r, s, e;
    jacobian_point q;
    if (!decode_scalar(r, signature) || !decode_scalar(s, signature + BYTES)) return 0;
    if (!decode_point(&q, x_bytes, y_bytes)) return 0;
    digest_scalar(e, digest, digest_length);
    // w = s^-1, u1 = e·w, u2 = r·w mod n.
    felem w, u1, u2, t;
    fn_enter(t, s);
    fn_inverse(w, t);
    fn_enter(t, e);
    fn_mul(u1, t, w);
    fn_leave(u1, u1);
    fn_enter(t, r);
    fn_mul(u2, t, w);
    fn_leave(u2, u2);
    jacobian_point sum;
    linear_combination(&sum, u1, u2, &q);
    if (fe_is_zero(sum.z)) return 0;
    // x_R mod n = r, without an inversion: X = r·Z² in the field, or X = (r + n)·Z² when r + n < p
    // (x_R may lie in n...p-1).
    felem z2, candidate, expected;
    fp_sqr(z2, sum.z);
    fp_enter(candidate, r);
    fp_mul(expected, candidate, z2);
    if (fe_equal(expected, sum.x)) return 1;
    if (!fe_less_than(r, P_MINUS_N)) return 0;
    fe_add_raw(candidate, r, ORDER_N);
    fp_enter(candidate, candidate);
    fp_mul(expected, candidate, z2);
    return fe_equal(expected, sum.x);
}

/// u1·G + u2·Q, affine, for plain scalars of BYTES big-endian bytes (any value, not reduced):
/// an independent entry to the arithmetic for tests. 0 when Q is not on the curve or the sum is
/// infinity. (P-256 leaves it unused: its tests use ifc_p256_multiply.)
__attribute__((unused)) static int combination_bytes(uint8_t *rx, uint8_t *ry, const uint8_t *u1_bytes, const uint8_t *u2_bytes,
                             const uint8_t *qx, const uint8_t *qy) {
    jacobian_point q, sum;
    if (!decode_point(&q, qx, qy)) return 0;
    felem u1, u2;
    fe_from_bytes(u1, u1_bytes, BYTES);
    fe_from_bytes(u2, u2_bytes, BYTES);
    linear_combination(&sum, u1, u2, &q);
    if (fe_is_zero(sum.z)) return 0;
    felem zi, zi2, x, y;
    fp_inverse(zi, sum.z);
    fp_sqr(zi2, zi);
    fp_mul(x, sum.x, zi2);
    fp_mul(zi2, zi2, zi);
    fp_mul(y, sum.y, zi2);
    fp_leave(x, x);
    fp_leave(y, y);
    fe_to_bytes(rx, x);
    fe_to_bytes(ry, y);
    return 1;
}

#endif
