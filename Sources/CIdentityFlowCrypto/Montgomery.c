#include "CIdentityFlowCrypto.h"

typedef unsigned __int128 ifc_u128;

void ifc_montgomery_multiply(uint64_t *result, const uint64_t *a, const uint64_t *b, const uint64_t *n,
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
    int subtract = t[count] != 0;
    if (!subtract) {
        subtract = 1;
        for (size_t index = count; index-- > 0;) {
            if (t[index] != n[index]) {
                subtract = t[index] > n[index];
                break;
            }
        }
    }
    if (subtract) {
        uint64_t borrow = 0;
        for (size_t index = 0; index < count; index++) {
            const ifc_u128 difference = (ifc_u128)t[index] - n[index] - borrow;
            t[index] = (uint64_t)difference;
            borrow = (uint64_t)(difference >> 64) & 1;
        }
    }
    for (size_t index = 0; index < count; index++) {
        result[index] = t[index];
    }
}
