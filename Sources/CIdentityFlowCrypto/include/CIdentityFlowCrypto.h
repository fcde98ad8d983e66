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

/// Montgomery multiplication (fused CIOS, 64-bit limbs, least significant first):
/// `result = a * b / 2^(64 * count) mod n` for `a, b < n`, `n` odd. `result` may alias `a` or `b`;
/// `t` is scratch of `count + 1` limbs. Only public values come here: not constant time.
void ifc_montgomery_multiply(uint64_t *result, const uint64_t *a, const uint64_t *b, const uint64_t *n,
                             uint64_t negated_inverse, size_t count, uint64_t *t);

/// Montgomery squaring: `result = a * a / 2^(64 * count) mod n`, the cross products computed once
/// (about 3/4 of a multiplication). `result` may alias `a`; `t` is scratch of `2 * count` limbs.
void ifc_montgomery_square(uint64_t *result, const uint64_t *a, const uint64_t *n,
                           uint64_t negated_inverse, size_t count, uint64_t *t);

#endif
