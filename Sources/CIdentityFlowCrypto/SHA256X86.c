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

/* PBKDF2's iterations on SHA-NI without leaving the registers. Each iteration hashes a 32-byte
   U after a 64-byte pad, twice (inner, then outer pad), from midstates computed once: one block
   whose words 8...15 are fixed (0x80000000, zeros, the bit length 768). The generic loop wrote U
   big-endian to memory, reloaded and byte-swapped it, and converted the chaining state between
   memory order and the ABEF/CDGH order of SHA256RNDS2 four times per iteration; here U and the
   digest stay as message words and only the digest's conversion to words remains. */

/* One compression of the block (m0, m1, m2, m3), message words already in order, from the state
   (abef, cdgh): all 16 groups as in sha256_blocks_shani. */
#define COMPRESS_WORDS(abef, cdgh, w0, w1, w2, w3)                         \
    do {                                                                   \
        __m128i m0 = (w0), m1 = (w1), m2 = (w2), m3 = (w3);                \
        state0 = (abef);                                                   \
        state1 = (cdgh);                                                   \
        QUAD(0, m0, m3, m1, m2);                                           \
        QUAD(1, m1, m0, m2, m3);                                           \
        QUAD(2, m2, m1, m3, m0);                                           \
        QUAD(3, m3, m2, m0, m1);                                           \
        QUAD(4, m0, m3, m1, m2);                                           \
        QUAD(5, m1, m0, m2, m3);                                           \
        QUAD(6, m2, m1, m3, m0);                                           \
        QUAD(7, m3, m2, m0, m1);                                           \
        QUAD(8, m0, m3, m1, m2);                                           \
        QUAD(9, m1, m0, m2, m3);                                           \
        QUAD(10, m2, m1, m3, m0);                                          \
        QUAD(11, m3, m2, m0, m1);                                          \
        QUAD(12, m0, m3, m1, m2);                                          \
        QUAD(13, m1, m0, m2, m3);                                          \
        QUAD(14, m2, m1, m3, m0);                                          \
        QUAD(15, m3, m2, m0, m1);                                          \
        state0 = _mm_add_epi32(state0, (abef));                            \
        state1 = _mm_add_epi32(state1, (cdgh));                            \
    } while (0)

/* (ABEF, CDGH) from eight chaining words in memory order, and back to words as message vectors
   (A B C D and E F G H, the first word in the lowest lane). */
__attribute__((target("sha,sse4.1"))) static inline void to_state(__m128i *abef, __m128i *cdgh, const uint32_t words[8]) {
    const __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&words[0]), 0xB1); /* CDAB */
    const __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&words[4]), 0x1B); /* EFGH */
    *abef = _mm_alignr_epi8(tmp, efgh, 8);
    *cdgh = _mm_blend_epi16(efgh, tmp, 0xF0);
}

__attribute__((target("sha,sse4.1"))) static void pbkdf2_iterate_shani(const uint32_t inner[8], const uint32_t outer[8], uint32_t u[8], uint32_t t[8], uint64_t count) {
    __m128i inner0, inner1, outer0, outer1, state0, state1;
    to_state(&inner0, &inner1, inner);
    to_state(&outer0, &outer1, outer);
    const __m128i pad0 = _mm_set_epi32(0, 0, 0, (int)0x80000000u), pad1 = _mm_set_epi32(768, 0, 0, 0);
    __m128i u0 = _mm_loadu_si128((const __m128i *)&u[0]), u1 = _mm_loadu_si128((const __m128i *)&u[4]);
    __m128i t0 = _mm_loadu_si128((const __m128i *)&t[0]), t1 = _mm_loadu_si128((const __m128i *)&t[4]);
    while (count--) {
        COMPRESS_WORDS(inner0, inner1, u0, u1, pad0, pad1);
        __m128i feba = _mm_shuffle_epi32(state0, 0x1B), dchg = _mm_shuffle_epi32(state1, 0xB1);
        const __m128i x0 = _mm_blend_epi16(feba, dchg, 0xF0), x1 = _mm_alignr_epi8(dchg, feba, 8);
        COMPRESS_WORDS(outer0, outer1, x0, x1, pad0, pad1);
        feba = _mm_shuffle_epi32(state0, 0x1B);
        dchg = _mm_shuffle_epi32(state1, 0xB1);
        u0 = _mm_blend_epi16(feba, dchg, 0xF0);
        u1 = _mm_alignr_epi8(dchg, feba, 8);
        t0 = _mm_xor_si128(t0, u0);
        t1 = _mm_xor_si128(t1, u1);
    }
    _mm_storeu_si128((__m128i *)&u[0], u0);
    _mm_storeu_si128((__m128i *)&u[4], u1);
    _mm_storeu_si128((__m128i *)&t[0], t0);
    _mm_storeu_si128((__m128i *)&t[4], t1);
}

ifc_pbkdf2_loop ifc_pbkdf2_hardware_loop(void) {
    return ifc_sha256_hardware_engine() != NULL ? pbkdf2_iterate_shani : NULL;
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
