// P-256 points for P256.c: Jacobian coordinates (X, Y, Z) in Montgomery form, Z = 0 for the
// point at infinity. Scalars are 32 bytes big-endian in 1...n-1.
#ifndef CIDENTITYFLOWCRYPTO_P256POINT_H
#define CIDENTITYFLOWCRYPTO_P256POINT_H

#include "P256Field.h"

typedef struct { fe x, y, z; } p256_point;

#define P256_INTERNAL __attribute__((visibility("hidden")))

/// scalar·G from the precomputed table of G's multiples, in constant time.
P256_INTERNAL void p256_base_mul(p256_point *r, const uint8_t scalar[32]);

/// The same on the portable table scan whatever the CPU, for the tests that compare the scans.
P256_INTERNAL void p256_base_mul_portable(p256_point *r, const uint8_t scalar[32]);

/// 1 when `p256_base_mul` scans the table with AVX2 on this CPU.
P256_INTERNAL int p256_base_mul_uses_avx2(void);

/// scalar·point by 4-bit windows, in constant time.
P256_INTERNAL void p256_point_mul(p256_point *r, const p256_point *point, const uint8_t scalar[32]);

/// a + b for any a and b, equal, opposite or at infinity included.
P256_INTERNAL void p256_point_add(p256_point *r, const p256_point *a, const p256_point *b);

/// r = a^-1 (0 stays 0) for a field element in Montgomery form, by safegcd (P256Inverse.c), in
/// constant time; the same result as fp_inverse.
P256_INTERNAL void p256_field_invert(fe r, const fe a);

/// r = a^-1 mod n for a plain (not Montgomery) a in 0...n-1, by safegcd, in constant time.
P256_INTERNAL void p256_scalar_invert(fe r, const fe a);

/// The affine x and y (plain form, not Montgomery) of a point not at infinity.
P256_INTERNAL void p256_affine(fe x, fe y, const p256_point *point);

/// Reads an uncompressed point and checks it: coordinates below p, on the curve. 1 when valid.
P256_INTERNAL int p256_decode_point(p256_point *r, const uint8_t bytes[65]);

/// Writes the uncompressed encoding of a point not at infinity.
P256_INTERNAL void p256_encode_point(uint8_t bytes[65], const p256_point *point);

#endif
