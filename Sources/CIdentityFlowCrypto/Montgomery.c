#include "CIdentityFlowCrypto.h"
#include "MontgomeryInternal.h"

typedef unsigned __int128 ifc_u128;

void ifc_montgomery_multiply_portable(uint64_t *result, const uint64_t *a, const uint64_t *b, const uint64_t *n,
                                      uint64_t negated_inverse, size_t count, uint64_t *t) {
    for (size_t index = 0; index < count + 1; index++) {
        t[index] = 0;
    }
    for (size_t i = 0; i < count; i++) {
        /* One fused pass: t = (t + a * b[i] + m * n) / 2^64, m chosen so the low limb cancels.
           Each product plus two limbs is at most 2^128 - 1, so no step overflows. */
        const uint64_t bi = b[i];
        ifc_u128 product = (ifc_u128)a[0] * bi + t[0];
        uint64_t carry = (uint64_t)(product >> 64);
        const uint64_t low = (uint64_t)product;
        const uint64_t m = low * negated_inverse;
        ifc_u128 reduction = (ifc_u128)m * n[0] + low;
        uint64_t reductionCarry = (uint64_t)(reduction >> 64);
        for (size_t j = 1; j < count; j++) {
            product = (ifc_u128)a[j] * bi + t[j] + carry;
            carry = (uint64_t)(product >> 64);
            reduction = (ifc_u128)m * n[j] + (uint64_t)product + reductionCarry;
            reductionCarry = (uint64_t)(reduction >> 64);
            t[j - 1] = (uint64_t)reduction;
        }
        const ifc_u128 top = (ifc_u128)t[count] + carry + reductionCarry;
        t[count - 1] = (uint64_t)top;
        t[count] = (uint64_t)(top >> 64);
    }
    /* t < 2n: subtract n once if t >= n. */
    ifc_montgomery_final_subtract(result, t, t[count], n, count);
}

void ifc_montgomery_square_portable(uint64_t *result, const uint64_t *a, const uint64_t *n,
                                    uint64_t negated_inverse, size_t count, uint64_t *t) {
    for (size_t index = 0; index < 2 * count; index++) {
        t[index] = 0;
    }
    /* The cross products a[i] * a[j], i < j, once each... */
    for (size_t i = 0; i + 1 < count; i++) {
        const uint64_t ai = a[i];
        uint64_t carry = 0;
        for (size_t j = i + 1; j < count; j++) {
            const ifc_u128 product = (ifc_u128)ai * a[j] + t[i + j] + carry;
            t[i + j] = (uint64_t)product;
            carry = (uint64_t)(product >> 64);
        }
        t[i + count] = carry;
    }
    /* ...doubled (they sum to less than a^2 / 2, so no bit leaves the top)... */
    uint64_t shifted = 0;
    for (size_t index = 0; index < 2 * count; index++) {
        const uint64_t limb = t[index];
        t[index] = (limb << 1) | shifted;
        shifted = limb >> 63;
    }
    /* ...plus the squares a[i]^2 on the diagonal: t = a^2 < 2^(128 count). */
    uint64_t carry = 0;
    for (size_t i = 0; i < count; i++) {
        ifc_u128 sum = (ifc_u128)a[i] * a[i] + t[2 * i] + carry;
        t[2 * i] = (uint64_t)sum;
        sum = (ifc_u128)t[2 * i + 1] + (uint64_t)(sum >> 64);
        t[2 * i + 1] = (uint64_t)sum;
        carry = (uint64_t)(sum >> 64);
    }
    /* Montgomery reduction, one limb at a time; `extra` carries past t[i + count]. */
    uint64_t extra = 0;
    for (size_t i = 0; i < count; i++) {
        const uint64_t m = t[i] * negated_inverse;
        uint64_t reductionCarry = 0;
        for (size_t j = 0; j < count; j++) {
            const ifc_u128 sum = (ifc_u128)m * n[j] + t[i + j] + reductionCarry;
            t[i + j] = (uint64_t)sum;
            reductionCarry = (uint64_t)(sum >> 64);
        }
        const ifc_u128 top = (ifc_u128)t[i + count] + reductionCarry + extra;
        t[i + count] = (uint64_t)top;
        extra = (uint64_t)(top >> 64);
    }
    /* (a^2 + m n) / R < 2n: subtract n once if it is at least n. */
    ifc_montgomery_final_subtract(result, t + count, extra, n, count);
}

void ifc_montgomery_final_subtract(uint64_t *result, const uint64_t *limbs, uint64_t extra,
                                   const uint64_t *n, size_t count) {
    int subtract = extra != 0;
    if (!subtract) {
        subtract = 1; /* equal to n also subtracts */
        for (size_t index = count; index-- > 0;) {
            if (limbs[index] != n[index]) {
                subtract = limbs[index] > n[index];
                break;
            }
        }
    }
    uint64_t borrow = 0;
    for (size_t index = 0; index < count; index++) {
        const ifc_u128 difference = (ifc_u128)limbs[index] - (subtract ? n[index] : 0) - borrow;
        result[index] = (uint64_t)difference;
        borrow = (uint64_t)(difference >> 64) & 1;
    }
}

#if !defined(__x86_64__)
const ifc_montgomery_engine *ifc_montgomery_fast_engine(void) {
    return NULL;
}
#endif

static const ifc_montgomery_engine portable_engine = {
    ifc_montgomery_multiply_portable,
    ifc_montgomery_square_portable,
};

/* Chosen once; threads that race on the first call compute and store the same answer. */
static const ifc_montgomery_engine *selected_engine(void) {
    static const ifc_montgomery_engine *cached = NULL;
    const ifc_montgomery_engine *engine = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (engine == NULL) {
        engine = ifc_montgomery_fast_engine();
        if (engine == NULL) {
            engine = &portable_engine;
        }
        __atomic_store_n(&cached, engine, __ATOMIC_RELAXED);
    }
    return engine;
}

void ifc_montgomery_multiply(uint64_t *result, const uint64_t *a, const uint64_t *b, const uint64_t *n,
                             uint64_t negated_inverse, size_t count, uint64_t *t) {
    selected_engine()->multiply(result, a, b, n, negated_inverse, count, t);
}

void ifc_montgomery_square(uint64_t *result, const uint64_t *a, const uint64_t *n,
                           uint64_t negated_inverse, size_t count, uint64_t *t) {
    selected_engine()->square(result, a, n, negated_inverse, count, t);
}

int ifc_montgomery_has_fast_path(void) {
    return selected_engine() != &portable_engine;
}
