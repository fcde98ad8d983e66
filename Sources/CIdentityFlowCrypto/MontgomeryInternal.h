#ifndef CIDENTITYFLOWCRYPTO_MONTGOMERYINTERNAL_H
#define CIDENTITYFLOWCRYPTO_MONTGOMERYINTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* A Montgomery multiplication and squaring pair with the signatures of ifc_montgomery_multiply
   and ifc_montgomery_square (scratch t of 2 * count limbs for both). */
typedef struct {
    void (*multiply)(uint64_t *result, const uint64_t *a, const uint64_t *b, const uint64_t *n,
                     uint64_t negated_inverse, size_t count, uint64_t *t);
    void (*square)(uint64_t *result, const uint64_t *a, const uint64_t *n,
                   uint64_t negated_inverse, size_t count, uint64_t *t);
} ifc_montgomery_engine;

/* result = value - n when value >= n, else value, for value = extra * 2^(64 count) + limbs < 2n:
   the last step of every Montgomery product. `limbs` may alias `result`. */
void ifc_montgomery_final_subtract(uint64_t *result, const uint64_t *limbs, uint64_t extra,
                                   const uint64_t *n, size_t count);

/* The engine with this CPU's multiply-accumulate instructions (x86-64 BMI2 + ADX), or NULL. */
const ifc_montgomery_engine *ifc_montgomery_fast_engine(void);

#endif
