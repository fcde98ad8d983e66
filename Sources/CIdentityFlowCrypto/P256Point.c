// P-256 point arithmetic: doubling, addition, the fixed-base multiplication from a table of G's
// multiples, and the 4-bit-window multiplication of any point. Everything runs in constant time:
// table lookups read every entry and keep one by mask, additions compute every case and select,
// and the loops' shape depends on nothing but the scalar's length.
#include "P256Point.h"
#include <pthread.h>

static const fe GX = {0xF4A13945D898C296ULL, 0x77037D812DEB33A0ULL, 0xF8BCE6E563A440F2ULL, 0x6B17D1F2E12C4247ULL};
static const fe GY = {0xCBB6406837BF51F5ULL, 0x2BCE33576B315ECEULL, 0x8EE7EB4A7C0F9E16ULL, 0x4FE342E2FE1A7F9BULL};
static const fe B = {0x3BCE3C3E27D2604BULL, 0x651D06B0CC53B0F6ULL, 0xB3EBBD55769886BCULL, 0x5AC635D8AA3A93E7ULL};

/// An affine point (x, y) in Montgomery form, never infinity.
typedef struct { fe x, y; } affine_point;

static void point_select(p256_point *r, const p256_point *a, const p256_point *b, uint64_t mask) {
    fe_select(r->x, a->x, b->x, mask);
    fe_select(r->y, a->y, b->y, mask);
    fe_select(r->z, a->z, b->z, mask);
}

/// 1 when a == b, without a branch.
static uint64_t equal_digits(uint64_t a, uint64_t b) {
    uint64_t x = a ^ b;
    return 1 ^ ((x | ((uint64_t)0 - x)) >> 63);
}

/// The 4-bit digit `index` (0 is the lowest) of a big-endian scalar.
static uint64_t digit(const uint8_t scalar[32], int index) {
    return (uint64_t)(scalar[31 - index / 2] >> (4 * (index % 2))) & 15;
}

// MARK: - Doubling and addition

/// 2P with a = -3 (dbl-2001-b): 3 multiplications, 5 squarings. Infinity stays infinity.
static void point_double(p256_point *r, const p256_point *p) {
    fe delta, gamma, beta, alpha, t1, t2, x3, y3, z3;
    fp_sqr(delta, p->z);
    fp_sqr(gamma, p->y);
    fp_mul(beta, p->x, gamma);
    fp_sub(t1, p->x, delta);
    fp_add(t2, p->x, delta);
    fp_mul(alpha, t1, t2);
    fp_add(t1, alpha, alpha);
    fp_add(alpha, t1, alpha); // alpha = 3 (X - delta)(X + delta)
    fp_sqr(x3, alpha);
    fp_add(t1, beta, beta);
    fp_add(t1, t1, t1);
    fp_add(t2, t1, t1); // 8 beta
    fp_sub(x3, x3, t2);
    fp_add(t2, p->y, p->z);
    fp_sqr(z3, t2);
    fp_sub(z3, z3, gamma);
    fp_sub(z3, z3, delta);
    fp_sub(t1, t1, x3); // 4 beta - X3
    fp_mul(y3, alpha, t1);
    fp_sqr(t2, gamma);
    fp_add(t2, t2, t2);
    fp_add(t2, t2, t2);
    fp_add(t2, t2, t2); // 8 gamma^2
    fp_sub(y3, y3, t2);
    memcpy(r->x, x3, sizeof(fe));
    memcpy(r->y, y3, sizeof(fe));
    memcpy(r->z, z3, sizeof(fe));
}

/// The general sum P + Q (add-2007-bl: 11 multiplications, 5 squarings), right unless P = Q or
/// either is infinity; opposite points give Z = 0. Reports in `same` (1 or 0) whether P and Q
/// have the same x and y, where the formula fails and a doubling is needed.
static void add_formula(p256_point *r, uint64_t *same, const p256_point *p, const p256_point *q) {
    fe z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    fp_sqr(z1z1, p->z);
    fp_sqr(z2z2, q->z);
    fp_mul(u1, p->x, z2z2);
    fp_mul(u2, q->x, z1z1);
    fp_mul(t, q->z, z2z2);
    fp_mul(s1, p->y, t);
    fp_mul(t, p->z, z1z1);
    fp_mul(s2, q->y, t);
    fp_sub(h, u2, u1);
    fp_add(i, h, h);
    fp_sqr(i, i);
    fp_mul(j, h, i);
    fp_sub(rr, s2, s1);
    *same = fe_is_zero(h) & fe_is_zero(rr);
    fp_add(rr, rr, rr);
    fp_mul(v, u1, i);
    fp_sqr(r->x, rr);
    fp_sub(r->x, r->x, j);
    fp_sub(r->x, r->x, v);
    fp_sub(r->x, r->x, v);
    fp_sub(t, v, r->x);
    fp_mul(r->y, rr, t);
    fp_mul(t, s1, j);
    fp_add(t, t, t);
    fp_sub(r->y, r->y, t);
    fp_add(t, p->z, q->z);
    fp_sqr(t, t);
    fp_sub(t, t, z1z1);
    fp_sub(t, t, z2z2);
    fp_mul(r->z, t, h);
}

/// Keeps q when p is infinity and p when q is infinity; otherwise the sum already in r.
static void select_infinity_cases(p256_point *r, const p256_point *p, const p256_point *q) {
    uint64_t p_inf = fe_is_zero(p->z), q_inf = fe_is_zero(q->z);
    point_select(r, q, r, mask_if(p_inf));
    point_select(r, p, r, mask_if(q_inf & (p_inf ^ 1)));
}

/// P + Q where P ≠ Q unless both are infinity (the window loop guarantees it; see below).
static void add_distinct(p256_point *r, const p256_point *p, const p256_point *q) {
    p256_point sum;
    uint64_t same;
    add_formula(&sum, &same, p, q);
    select_infinity_cases(&sum, p, q);
    *r = sum;
}

void p256_point_add(p256_point *r, const p256_point *p, const p256_point *q) {
    p256_point sum, doubled;
    uint64_t same;
    add_formula(&sum, &same, p, q);
    point_double(&doubled, p);
    uint64_t neither_inf = (fe_is_zero(p->z) | fe_is_zero(q->z)) ^ 1;
    point_select(&sum, &doubled, &sum, mask_if(same & neither_inf));
    select_infinity_cases(&sum, p, q);
    *r = sum;
}

/// P + Q for an affine Q (madd-2007-bl: 7 multiplications, 4 squarings), right when P is not
/// infinity and P ≠ ±Q; the caller handles infinity.
static void add_affine(p256_point *r, const p256_point *p, const affine_point *q) {
    fe z1z1, u2, s2, h, hh, i, j, rr, v, t;
    fp_sqr(z1z1, p->z);
    fp_mul(u2, q->x, z1z1);
    fp_mul(t, p->z, z1z1);
    fp_mul(s2, q->y, t);
    fp_sub(h, u2, p->x);
    fp_sqr(hh, h);
    fp_add(i, hh, hh);
    fp_add(i, i, i);
    fp_mul(j, h, i);
    fp_sub(rr, s2, p->y);
    fp_add(rr, rr, rr);
    fp_mul(v, p->x, i);
    fe x3, y3, z3;
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
    memcpy(r->x, x3, sizeof(fe));
    memcpy(r->y, y3, sizeof(fe));
    memcpy(r->z, z3, sizeof(fe));
}

// MARK: - Fixed base: k·G = Σ d_i·128^i·G over the scalar's 37 signed 7-bit digits, one table row per digit

/// The width of a fixed-base digit: signed digits in -63...64 (Booth recoding), so a row holds
/// the 64 multiples 1·128^i·G ... 64·128^i·G and a digit's sign is a conditional negation. (6-bit
/// digits took 43 rows of 32: six more mixed additions for half the table, 1.17-1.24x OpenSSL
/// for k·G, whose own table has OpenSSL's 37 rows of 64.)
#define BASE_WINDOW 7
#define BASE_ROWS 37 /* ⌈256 / 7⌉ */
#define BASE_ENTRIES 64

/// base_table[i][d - 1] = d·128^i·G, affine, for d in 1...64: 148 KiB, computed once, the first
/// time a key is made or a signature computed (about a millisecond), so that a binary that never
/// does carries no table.
static affine_point base_table[BASE_ROWS][BASE_ENTRIES] __attribute__((aligned(64)));
static pthread_once_t base_table_once = PTHREAD_ONCE_INIT;

/// G in Jacobian, Montgomery form.
static void generator(p256_point *g) {
    fp_to_mont(g->x, GX);
    fp_to_mont(g->y, GY);
    memcpy(g->z, P256_ONE, sizeof(fe));
}

/// Each row: the 64 multiples in Jacobian form, then one inversion for all 64 Z (Montgomery's
/// trick) to make them affine. None is infinity: d·128^i < n for every row and digit but the
/// last row's, where d·2^252 ≤ 64·2^252 is not a multiple of the prime n either.
static void compute_base_table(void) {
    p256_point base, row[BASE_ENTRIES];
    generator(&base);
    for (int i = 0; i < BASE_ROWS; i++) {
        row[0] = base;
        point_double(&row[1], &base);
        for (int d = 2; d < BASE_ENTRIES; d++) add_distinct(&row[d], &row[d - 1], &base);
        fe prefix[BASE_ENTRIES], inverse, zi, zi2;
        memcpy(prefix[0], row[0].z, sizeof(fe));
        for (int d = 1; d < BASE_ENTRIES; d++) fp_mul(prefix[d], prefix[d - 1], row[d].z);
        fp_inverse(inverse, prefix[BASE_ENTRIES - 1]);
        for (int d = BASE_ENTRIES - 1; d >= 0; d--) {
            if (d > 0) {
                fp_mul(zi, inverse, prefix[d - 1]);
                fp_mul(inverse, inverse, row[d].z);
            } else {
                memcpy(zi, inverse, sizeof(fe));
            }
            fp_sqr(zi2, zi);
            fp_mul(base_table[i][d].x, row[d].x, zi2);
            fp_mul(zi2, zi2, zi);
            fp_mul(base_table[i][d].y, row[d].y, zi2);
        }
        // 128^(i+1)·G = 2·(64·128^i·G).
        point_double(&base, &row[BASE_ENTRIES - 1]);
    }
}

/// The scalar's 37 signed digits: d_i in -63...64 with Σ d_i·128^i = scalar, by Booth recoding
/// in constant time (a window of 7 bits plus the last carry; above 64 it becomes negative and
/// carries 1 into the next window). The top window has 4 bits (252...255), so its digit is at
/// most 16 and carries nothing out.
static void recode_base_digits(int32_t digits[BASE_ROWS], const uint8_t scalar[32]) {
    uint32_t carry = 0;
    for (int i = 0; i < BASE_ROWS; i++) {
        // Bits 7i...7i+6 of the big-endian scalar: within two bytes.
        const int bit = BASE_WINDOW * i;
        uint32_t window = scalar[31 - bit / 8] >> (bit % 8);
        if (bit / 8 + 1 < 32) window |= (uint32_t)scalar[31 - bit / 8 - 1] << (8 - bit % 8);
        window = (window & 127) + carry;
        carry = (uint32_t)(64 - (int32_t)window) >> 31; // 1 when window > 64
        digits[i] = (int32_t)window - (int32_t)(carry << BASE_WINDOW);
    }
}

/// Keeps the entry `magnitude` (1...64) of a row in `entry`, all zero for 0, reading every entry
/// and keeping one by mask: the memory accessed does not depend on the digit.
typedef void (*row_select)(affine_point *entry, const affine_point row[BASE_ENTRIES], uint64_t magnitude);

/// Two words per vector (SSE2 on x86-64, NEON on arm64: the baseline of both), so a 64-byte
/// entry is four AND/OR pairs.
static void select_row_portable(affine_point *entry, const affine_point row[BASE_ENTRIES], uint64_t magnitude) {
    typedef uint64_t words2 __attribute__((vector_size(16)));
    words2 acc[4] = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    for (uint64_t candidate = 1; candidate <= BASE_ENTRIES; candidate++) {
        const uint64_t bit = mask_if(equal_digits(candidate, magnitude));
        const words2 mask = {bit, bit};
        words2 source[4];
        memcpy(source, &row[candidate - 1], sizeof source);
        for (int w = 0; w < 4; w++) acc[w] |= source[w] & mask;
    }
    memcpy(entry, acc, sizeof acc);
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/// AVX2: an entry is two 32-byte loads, the mask one VPCMPEQQ of a running index against the
/// digit; half the instructions of the portable scan, which was about a sixth of k·G.
__attribute__((target("avx2"))) static void select_row_avx2(affine_point *entry, const affine_point row[BASE_ENTRIES], uint64_t magnitude) {
    const __m256i want = _mm256_set1_epi64x((long long)magnitude), one = _mm256_set1_epi64x(1);
    __m256i index = one, low = _mm256_setzero_si256(), high = _mm256_setzero_si256();
    for (int candidate = 0; candidate < BASE_ENTRIES; candidate++) {
        const __m256i mask = _mm256_cmpeq_epi64(index, want);
        const __m256i *source = (const __m256i *)&row[candidate];
        low = _mm256_or_si256(low, _mm256_and_si256(_mm256_load_si256(source), mask));
        high = _mm256_or_si256(high, _mm256_and_si256(_mm256_load_si256(source + 1), mask));
        index = _mm256_add_epi64(index, one);
    }
    _mm256_storeu_si256((__m256i *)entry, low);
    _mm256_storeu_si256((__m256i *)entry + 1, high);
}

/// AVX2's scan when CPUID reports AVX2 and the OS saves the YMM registers (XCR0), else the portable one.
static row_select detect_row_select(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !((ecx >> 27) & 1) || !((ecx >> 28) & 1)) return select_row_portable;
    unsigned int xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6) != 6) return select_row_portable;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) || !((ebx >> 5) & 1)) return select_row_portable;
    return select_row_avx2;
}
#else
/// The portable scan: no other on this architecture.
static row_select detect_row_select(void) { return select_row_portable; }
#endif

/// The scan, chosen with the table (under base_table_once).
static row_select base_row_select = select_row_portable;

static void prepare_fixed_base(void) {
    base_row_select = detect_row_select();
    compute_base_table();
}

/// See P256Point.h.
int p256_base_mul_uses_avx2(void) {
    pthread_once(&base_table_once, prepare_fixed_base);
#if defined(__x86_64__)
    return base_row_select == select_row_avx2;
#else
    return 0;
#endif
}

/// See P256Point.h: Σ d_i·128^i·G over the signed digits, one masked row scan and one mixed
/// addition per digit.
static void base_mul_with(p256_point *r, const uint8_t scalar[32], row_select select) {
    int32_t digits[BASE_ROWS];
    recode_base_digits(digits, scalar);
    p256_point acc, sum, lifted;
    memset(&acc, 0, sizeof acc); // infinity
    memcpy(lifted.z, P256_ONE, sizeof(fe));
    for (int i = 0; i < BASE_ROWS; i++) {
        const uint32_t sign = (uint32_t)digits[i] >> 31;
        const uint64_t magnitude = (uint64_t)(uint32_t)((digits[i] ^ -(int32_t)sign) + (int32_t)sign);
        affine_point entry;
        select(&entry, base_table[i], magnitude);
        fe negated;
        fp_sub(negated, (fe){0, 0, 0, 0}, entry.y);
        fe_select(entry.y, negated, entry.y, mask_if(sign));
        // acc = a·G with |a| < 128^i (the digits below i), entry = d·128^i·G with d ≠ 0 when it
        // counts: a ≠ ±d·128^i as integers, and below the top row their sum and difference stay
        // below n in size (at most 65·2^245), so acc is neither the entry nor its opposite. In
        // the top row (d ≤ 16) acc = ±entry would need a scalar of 0, n or above n. So the affine
        // formula holds unless acc is infinity.
        add_affine(&sum, &acc, &entry);
        memcpy(lifted.x, entry.x, sizeof(fe));
        memcpy(lifted.y, entry.y, sizeof(fe));
        point_select(&sum, &lifted, &sum, mask_if(fe_is_zero(acc.z)));
        point_select(&acc, &acc, &sum, mask_if(equal_digits((uint64_t)(uint32_t)digits[i], 0)));
    }
    memset(digits, 0, sizeof digits);
    *r = acc;
}

void p256_base_mul(p256_point *r, const uint8_t scalar[32]) {
    pthread_once(&base_table_once, prepare_fixed_base);
    base_mul_with(r, scalar, base_row_select);
}

/// See P256Point.h.
void p256_base_mul_portable(p256_point *r, const uint8_t scalar[32]) {
    pthread_once(&base_table_once, prepare_fixed_base);
    base_mul_with(r, scalar, select_row_portable);
}

// MARK: - Any base: 4-bit windows from the top

void p256_point_mul(p256_point *r, const p256_point *point, const uint8_t scalar[32]) {
    p256_point table[16], acc, entry;
    memset(&table[0], 0, sizeof table[0]); // infinity
    table[1] = *point;
    point_double(&table[2], point);
    for (int d = 3; d < 16; d++) add_distinct(&table[d], &table[d - 1], point);
    memset(&acc, 0, sizeof acc);
    for (int i = 63; i >= 0; i--) {
        for (int k = 0; k < 4; k++) point_double(&acc, &acc);
        uint64_t d = digit(scalar, i);
        memset(&entry, 0, sizeof entry);
        for (uint64_t candidate = 1; candidate < 16; candidate++)
            point_select(&entry, &table[candidate], &entry, mask_if(equal_digits(candidate, d)));
        // acc = 16·a·P with a = the digits above i, and 16·a + d ≤ scalar < n: acc equals the
        // entry d·P, or is its opposite, only when both are infinity.
        add_distinct(&acc, &acc, &entry);
    }
    *r = acc;
}

// MARK: - Conversions

void p256_affine(fe x, fe y, const p256_point *p) {
    fe zi, zi2, zi3;
    p256_field_invert(zi, p->z);
    fp_sqr(zi2, zi);
    fp_mul(zi3, zi2, zi);
    fp_mul(x, p->x, zi2);
    fp_mul(y, p->y, zi3);
    fp_from_mont(x, x);
    fp_from_mont(y, y);
}

int p256_decode_point(p256_point *r, const uint8_t bytes[65]) {
    if (bytes[0] != 0x04) return 0;
    fe x, y;
    fe_from_bytes(x, bytes + 1);
    fe_from_bytes(y, bytes + 33);
    if (!fe_less_than(x, P256_P) || !fe_less_than(y, P256_P)) return 0;
    // y² = x³ - 3x + b
    fe mx, my, lhs, rhs, t, mb, difference;
    fp_to_mont(mx, x);
    fp_to_mont(my, y);
    fp_sqr(lhs, my);
    fp_sqr(t, mx);
    fp_mul(rhs, t, mx);
    fp_sub(rhs, rhs, mx);
    fp_sub(rhs, rhs, mx);
    fp_sub(rhs, rhs, mx);
    fp_to_mont(mb, B);
    fp_add(rhs, rhs, mb);
    fe_sub_raw(difference, lhs, rhs);
    if (!fe_is_zero(difference)) return 0;
    memcpy(r->x, mx, sizeof(fe));
    memcpy(r->y, my, sizeof(fe));
    memcpy(r->z, P256_ONE, sizeof(fe));
    return 1;
}

void p256_encode_point(uint8_t bytes[65], const p256_point *point) {
    fe x, y;
    p256_affine(x, y, point);
    bytes[0] = 0x04;
    fe_to_bytes(bytes + 1, x);
    fe_to_bytes(bytes + 33, y);
}
