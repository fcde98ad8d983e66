#include "MontgomeryInternal.h"

#if defined(__x86_64__)
#include <cpuid.h>

typedef unsigned __int128 ifc_u128;

/* t[0..len-1] += x * v[0..len-1] for len >= 1; returns the word that belongs at t[len] (the sum
   fits in len + 1 words). MULX leaves the flags alone, so the low halves ride the CF chain (ADCX)
   and the high halves the OF chain (ADOX) side by side; the loops count with LEA and JRCXZ, which
   leave both chains intact. A few single limbs first, then four at a time. */
__attribute__((target("bmi2,adx"))) static inline uint64_t
row_multiply_add(uint64_t *t, const uint64_t *v, uint64_t x, size_t len) {
    uint64_t carry = 0, lo, hi;
    const size_t singles = len & 3, quads = len >> 2;
    __asm__ volatile(
        "xorl %k[lo], %k[lo]\n\t" /* CF = OF = 0 */
        "movq %[singles], %%rcx\n\t"
        "jrcxz 2f\n"
        "1:\n\t"
        "mulxq (%[v]), %[lo], %[hi]\n\t"
        "adoxq %[carry], %[lo]\n\t"
        "adcxq (%[t]), %[lo]\n\t"
        "movq %[lo], (%[t])\n\t"
        "movq %[hi], %[carry]\n\t"
        "leaq 8(%[v]), %[v]\n\t"
        "leaq 8(%[t]), %[t]\n\t"
        "leaq -1(%%rcx), %%rcx\n\t"
        "jrcxz 2f\n\t"
        "jmp 1b\n"
        "2:\n\t"
        "movq %[quads], %%rcx\n\t"
        "jrcxz 4f\n"
        "3:\n\t"
        "mulxq (%[v]), %[lo], %[hi]\n\t"
        "adoxq %[carry], %[lo]\n\t"
        "adcxq (%[t]), %[lo]\n\t"
        "movq %[lo], (%[t])\n\t"
        "mulxq 8(%[v]), %[lo], %[carry]\n\t"
        "adoxq %[hi], %[lo]\n\t"
        "adcxq 8(%[t]), %[lo]\n\t"
        "movq %[lo], 8(%[t])\n\t"
        "mulxq 16(%[v]), %[lo], %[hi]\n\t"
        "adoxq %[carry], %[lo]\n\t"
        "adcxq 16(%[t]), %[lo]\n\t"
        "movq %[lo], 16(%[t])\n\t"
        "mulxq 24(%[v]), %[lo], %[carry]\n\t"
        "adoxq %[hi], %[lo]\n\t"
        "adcxq 24(%[t]), %[lo]\n\t"
        "movq %[lo], 24(%[t])\n\t"
        "leaq 32(%[v]), %[v]\n\t"
        "leaq 32(%[t]), %[t]\n\t"
        "leaq -1(%%rcx), %%rcx\n\t"
        "jrcxz 4f\n\t"
        "jmp 3b\n"
        "4:\n\t"
        "movl $0, %k[lo]\n\t" /* MOV keeps the flags: fold both chains into the top word */
        "adoxq %[lo], %[carry]\n\t"
        "adcxq %[lo], %[carry]\n\t"
        : [t] "+r"(t), [v] "+r"(v), [carry] "+&r"(carry), [lo] "=&r"(lo), [hi] "=&r"(hi)
        : "d"(x), [singles] "r"(singles), [quads] "r"(quads)
        : "rcx", "cc", "memory");
    return carry;
}

/* Montgomery reduction of the 2 * count limbs of t (t < n * 2^(64 count)) into result, one
   row m * n per limb, then one conditional subtraction: (t + M n) / R < 2n. */
__attribute__((target("bmi2,adx"))) static void
reduce(uint64_t *result, uint64_t *t, const uint64_t *n, uint64_t negated_inverse, size_t count) {
    uint64_t extra = 0;
    for (size_t i = 0; i < count; i++) {
        const uint64_t m = t[i] * negated_inverse;
        const uint64_t carry = row_multiply_add(t + i, n, m, count);
        const ifc_u128 top = (ifc_u128)t[i + count] + carry + extra;
        t[i + count] = (uint64_t)top;
        extra = (uint64_t)(top >> 64);
    }
    ifc_montgomery_final_subtract(result, t + count, extra, n, count);
}

/* ifc_montgomery_multiply on MULX/ADX: the full product a * b by rows (separated operand
   scanning), then the reduction. */
__attribute__((target("bmi2,adx"))) static void
multiply_adx(uint64_t *result, const uint64_t *a, const uint64_t *b, const uint64_t *n,
             uint64_t negated_inverse, size_t count, uint64_t *t) {
    for (size_t index = 0; index < count; index++) {
        t[index] = 0;
    }
    /* Row i adds into t[i...i + count - 1] and is the first to write t[i + count]. */
    for (size_t i = 0; i < count; i++) {
        t[i + count] = row_multiply_add(t + i, a, b[i], count);
    }
    reduce(result, t, n, negated_inverse, count);
}

/* ifc_montgomery_square on MULX/ADX: the cross products a[i] * a[j], i < j, by rows, doubled
   and added to the squares on the diagonal in one pass, then the reduction. */
__attribute__((target("bmi2,adx"))) static void
square_adx(uint64_t *result, const uint64_t *a, const uint64_t *n,
           uint64_t negated_inverse, size_t count, uint64_t *t) {
    for (size_t index = 0; index < 2 * count; index++) {
        t[index] = 0;
    }
    for (size_t i = 0; i + 1 < count; i++) {
        t[i + count] = row_multiply_add(t + 2 * i + 1, a + i + 1, a[i], count - 1 - i);
    }
    /* t = 2 * cross + diagonal = a^2 < 2^(128 count); the doubling never loses a bit. */
    uint64_t shifted = 0, carry = 0;
    for (size_t i = 0; i < count; i++) {
        const uint64_t low = t[2 * i], high = t[2 * i + 1];
        const ifc_u128 square = (ifc_u128)a[i] * a[i];
        ifc_u128 sum = (ifc_u128)((low << 1) | shifted) + (uint64_t)square + carry;
        t[2 * i] = (uint64_t)sum;
        sum = (ifc_u128)((high << 1) | (low >> 63)) + (uint64_t)(square >> 64) + (uint64_t)(sum >> 64);
        t[2 * i + 1] = (uint64_t)sum;
        carry = (uint64_t)(sum >> 64);
        shifted = high >> 63;
    }
    reduce(result, t, n, negated_inverse, count);
}

static const ifc_montgomery_engine adx_engine = {multiply_adx, square_adx};

const ifc_montgomery_engine *ifc_montgomery_fast_engine(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
        return NULL;
    }
    const int bmi2 = (ebx >> 8) & 1, adx = (ebx >> 19) & 1;
    return (bmi2 && adx) ? &adx_engine : NULL;
}
#endif
