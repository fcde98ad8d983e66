#include "SHA256Internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

/* Four rounds g*4...g*4+3 with the SHA-NI instructions, scheduling ahead as Intel's guide does:
   msg2 finishes W for group g+1 while msg1 starts it for group g+3. */
#define QUAD(g, cur, prev, next, last)                                                 \
    do {                                                                               \
        __m128i msg = _mm_add_epi32(cur, _mm_loadu_si128((const __m128i *)(ifc_sha256_k + 4 * (g)))); \
        state1 = _mm_sha256rnds2_epu32(state1, state0, msg);                           \
        if ((g) >= 3 && (g) <= 14) {                                                   \
            next = _mm_add_epi32(next, _mm_alignr_epi8(cur, prev, 4));                 \
            next = _mm_sha256msg2_epu32(next, cur);                                    \
        }                                                                              \
        msg = _mm_shuffle_epi32(msg, 0x0E);                                            \
        state0 = _mm_sha256rnds2_epu32(state0, state1, msg);                           \
        if ((g) >= 1 && (g) <= 12) {                                                   \
            prev = _mm_sha256msg1_epu32(prev, cur);                                    \
        }                                                                              \
    } while (0)

__attribute__((target("sha,sse4.1")))
static void sha256_blocks_shani(uint32_t state[8], const uint8_t *data, size_t blocks) {
    const __m128i mask = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1); /* CDAB */
    __m128i state1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B); /* EFGH */
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);    /* ABEF */
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);         /* CDGH */
    while (blocks--) {
        const __m128i abef = state0, cdgh = state1;
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 0)), mask);
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), mask);
        __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), mask);
        __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), mask);
        QUAD(0, m0, m3, m1, m2);
        QUAD(1, m1, m0, m2, m3);
        QUAD(2, m2, m1, m3, m0);
        QUAD(3, m3, m2, m0, m1);
        QUAD(4, m0, m3, m1, m2);
        QUAD(5, m1, m0, m2, m3);
        QUAD(6, m2, m1, m3, m0);
        QUAD(7, m3, m2, m0, m1);
        QUAD(8, m0, m3, m1, m2);
        QUAD(9, m1, m0, m2, m3);
        QUAD(10, m2, m1, m3, m0);
        QUAD(11, m3, m2, m0, m1);
        QUAD(12, m0, m3, m1, m2);
        QUAD(13, m1, m0, m2, m3);
        QUAD(14, m2, m1, m3, m0);
        QUAD(15, m3, m2, m0, m1);
        state0 = _mm_add_epi32(state0, abef);
        state1 = _mm_add_epi32(state1, cdgh);
        data += 64;
    }
    tmp = _mm_shuffle_epi32(state0, 0x1B);        /* FEBA */
    state1 = _mm_shuffle_epi32(state1, 0xB1);     /* DCHG */
    state0 = _mm_blend_epi16(tmp, state1, 0xF0);  /* DCBA */
    state1 = _mm_alignr_epi8(state1, tmp, 8);     /* ABEF */
    _mm_storeu_si128((__m128i *)&state[0], state0);
    _mm_storeu_si128((__m128i *)&state[4], state1);
}

ifc_sha256_engine ifc_sha256_hardware_engine(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
        return NULL;
    }
    const int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
        return NULL;
    }
    const int sha = (ebx >> 29) & 1;
    return (ssse3 && sse41 && sha) ? sha256_blocks_shani : NULL;
}
#endif
