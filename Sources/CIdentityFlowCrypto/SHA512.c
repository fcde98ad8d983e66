// SHA-512 and SHA-384 (FIPS 180-4 §6.4, §6.5) in C: fully unrolled rounds whose eight working
// variables rotate by renaming, a 16-word message schedule ring, and the padding done here too,
// so a short message costs one call and no allocation. The same code is compiled twice: for any
// CPU, and for x86-64 CPUs with BMI2, whose RORX rotates without a copy (16 KiB: 38 -> 31 us
// here). A third engine, for AVX-512F/VL with BMI2, computes the message schedule two words at a
// time in xmm registers (VPRORQ, VPTERNLOGQ) and stores K + W for the rounds two steps ahead, as
// OpenSSL's assembly does: 16 KiB from 1.16x OpenSSL's time to 1.00-1.01x in a C harness (min of
// 400 alternating runs, load 0.4-1.3), about 2,480 instructions a block instead of 3,400. The
// engine is chosen once at run time by CPUID (and XCR0 for AVX-512), as the SHA-256 and Montgomery
// engines are.
#include "CIdentityFlowCrypto.h"

#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#define ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define BSIG0(x) (ROTR64(x, 28) ^ ROTR64(x, 34) ^ ROTR64(x, 39))
#define BSIG1(x) (ROTR64(x, 14) ^ ROTR64(x, 18) ^ ROTR64(x, 41))
#define SSIG0(x) (ROTR64(x, 1) ^ ROTR64(x, 8) ^ ((x) >> 7))
#define SSIG1(x) (ROTR64(x, 19) ^ ROTR64(x, 61) ^ ((x) >> 6))
#define CH(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z) (((x) & (y)) | ((z) & ((x) | (y))))

/* K0...K79 of FIPS 180-4 §4.2.3. */
static const uint64_t K[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

/* H0...H7 of FIPS 180-4 §5.3.5 (SHA-512) and §5.3.4 (SHA-384). */
static const uint64_t INITIAL_512[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};
static const uint64_t INITIAL_384[8] = {
    0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
    0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL, 0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL,
};

/// The big-endian 64-bit word at p.
static inline uint64_t load_be64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

/// Stores v big-endian at p.
static inline void store_be64(uint8_t *p, uint64_t v) {
    v = __builtin_bswap64(v);
    memcpy(p, &v, 8);
}

/* One round; the working variables rotate by renaming, so nothing moves. Maj(a, b, c) is
   b ^ ((a ^ b) & (b ^ c)), and this round's b ^ c is the last round's a ^ b: `ab` and `bc` take
   turns holding them. */
#define ROUND(a, b, c, d, e, f, g, h, i, ab, bc)                           \
    do {                                                                   \
        uint64_t t1 = h + BSIG1(e) + CH(e, f, g) + K[i] + w[(i) & 15];     \
        d += t1;                                                           \
        ab = a ^ b;                                                        \
        h = t1 + BSIG0(a) + (b ^ (ab & bc));                               \
    } while (0)

/* w[i] = s1(w[i-2]) + w[i-7] + s0(w[i-15]) + w[i-16], in the ring. */
#define EXPAND(i) (w[(i) & 15] += SSIG1(w[((i) - 2) & 15]) + w[((i) - 7) & 15] + SSIG0(w[((i) - 15) & 15]))

#define EIGHT(i)                                   \
    ROUND(a, b, c, d, e, f, g, h, (i) + 0, x, y);        \
    ROUND(h, a, b, c, d, e, f, g, (i) + 1, y, x);        \
    ROUND(g, h, a, b, c, d, e, f, (i) + 2, x, y);        \
    ROUND(f, g, h, a, b, c, d, e, (i) + 3, y, x);        \
    ROUND(e, f, g, h, a, b, c, d, (i) + 4, x, y);        \
    ROUND(d, e, f, g, h, a, b, c, (i) + 5, y, x);        \
    ROUND(c, d, e, f, g, h, a, b, (i) + 6, x, y);        \
    ROUND(b, c, d, e, f, g, h, a, (i) + 7, y, x)

/* Expansion and rounds interleaved by eights, so a word is used right after it is made. */
#define EXPAND_EIGHT(i)                                                                  \
    EXPAND((i) + 0); ROUND(a, b, c, d, e, f, g, h, (i) + 0, x, y);                             \
    EXPAND((i) + 1); ROUND(h, a, b, c, d, e, f, g, (i) + 1, y, x);                             \
    EXPAND((i) + 2); ROUND(g, h, a, b, c, d, e, f, (i) + 2, x, y);                             \
    EXPAND((i) + 3); ROUND(f, g, h, a, b, c, d, e, (i) + 3, y, x);                             \
    EXPAND((i) + 4); ROUND(e, f, g, h, a, b, c, d, (i) + 4, x, y);                             \
    EXPAND((i) + 5); ROUND(d, e, f, g, h, a, b, c, (i) + 5, y, x);                             \
    EXPAND((i) + 6); ROUND(c, d, e, f, g, h, a, b, (i) + 6, x, y);                             \
    EXPAND((i) + 7); ROUND(b, c, d, e, f, g, h, a, (i) + 7, y, x)

/// Compresses `blocks` 128-byte blocks into the eight chaining words (FIPS 180-4 §6.4.2); inlined
/// into each engine below, which the compiler builds for its own instruction set.
static inline __attribute__((always_inline)) void compress_blocks(uint64_t state[8], const uint8_t *data, size_t blocks) {
    uint64_t w[16];
    while (blocks--) {
        uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
        uint64_t x, y = b ^ c;
        for (int i = 0; i < 16; i++) w[i] = load_be64(data + 8 * i);
        EIGHT(0);
        EIGHT(8);
        EXPAND_EIGHT(16); EXPAND_EIGHT(24); EXPAND_EIGHT(32); EXPAND_EIGHT(40);
        EXPAND_EIGHT(48); EXPAND_EIGHT(56); EXPAND_EIGHT(64); EXPAND_EIGHT(72);
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
        data += 128;
    }
}

/// The engine for any CPU.
static void compress_portable(uint64_t state[8], const uint8_t *data, size_t blocks) {
    compress_blocks(state, data, blocks);
}

/// A compression engine: portable, or compiled for BMI2.
typedef void (*compress_engine)(uint64_t state[8], const uint8_t *data, size_t blocks);

#if defined(__x86_64__)
/// The engine for x86-64 CPUs with BMI2 (RORX).
__attribute__((target("bmi2"))) static void compress_bmi2(uint64_t state[8], const uint8_t *data, size_t blocks) {
    compress_blocks(state, data, blocks);
}

/* The AVX-512 engine: the message schedule runs two words at a time in xmm registers (VPRORQ
   rotates in one instruction, VPTERNLOGQ XORs three values in one), adds K and stores K + W to
   the stack, two steps ahead of the scalar rounds that consume it with one add, as OpenSSL's
   assembly does. The rounds are the BMI2 engine's, minus the schedule and the K load. */
#define VSSIG0(v) _mm_ternarylogic_epi64(_mm_ror_epi64(v, 1), _mm_ror_epi64(v, 8), _mm_srli_epi64(v, 7), 0x96)
#define VSSIG1(v) _mm_ternarylogic_epi64(_mm_ror_epi64(v, 19), _mm_ror_epi64(v, 61), _mm_srli_epi64(v, 6), 0x96)

/* W[t], W[t+1] (t = 2j + 16 mod the ring) from the ring of eight xmm pairs; K + W to kw. */
#define VEXPAND(j, t)                                                                        \
    do {                                                                                     \
        __asm__("" : "+x"(X[(j) & 7]), "+r"(y));                                             \
        __m128i w15 = _mm_alignr_epi8(X[((j) + 1) & 7], X[(j) & 7], 8);                      \
        __m128i w7 = _mm_alignr_epi8(X[((j) + 5) & 7], X[((j) + 4) & 7], 8);                 \
        X[(j) & 7] = _mm_add_epi64(_mm_add_epi64(X[(j) & 7], VSSIG0(w15)),                   \
                                   _mm_add_epi64(w7, VSSIG1(X[((j) + 7) & 7])));             \
        _mm_store_si128((__m128i *)&kw[t],                                                   \
                        _mm_add_epi64(X[(j) & 7], _mm_loadu_si128((const __m128i *)&K[t]))); \
    } while (0)

#define KROUND(a, b, c, d, e, f, g, h, i, ab, bc)                          \
    do {                                                                   \
        uint64_t t1 = h + BSIG1(e) + CH(e, f, g) + kw[i];                  \
        d += t1;                                                           \
        ab = a ^ b;                                                        \
        h = t1 + BSIG0(a) + (b ^ (ab & bc));                               \
    } while (0)

/* Eight rounds from i, with four schedule steps for the words 16 ahead when `expand`. */
#define KEIGHT(i, expand)                                                         \
    KROUND(a, b, c, d, e, f, g, h, (i) + 0, x, y);                                \
    KROUND(h, a, b, c, d, e, f, g, (i) + 1, y, x);                                \
    if (expand) VEXPAND(((i) >> 1) + 0, (i) + 16);                                \
    KROUND(g, h, a, b, c, d, e, f, (i) + 2, x, y);                                \
    KROUND(f, g, h, a, b, c, d, e, (i) + 3, y, x);                                \
    if (expand) VEXPAND(((i) >> 1) + 1, (i) + 18);                                \
    KROUND(e, f, g, h, a, b, c, d, (i) + 4, x, y);                                \
    KROUND(d, e, f, g, h, a, b, c, (i) + 5, y, x);                                \
    if (expand) VEXPAND(((i) >> 1) + 2, (i) + 20);                                \
    KROUND(c, d, e, f, g, h, a, b, (i) + 6, x, y);                                \
    KROUND(b, c, d, e, f, g, h, a, (i) + 7, y, x);                                \
    if (expand) VEXPAND(((i) >> 1) + 3, (i) + 22)

/// The engine for x86-64 CPUs with AVX-512F, AVX-512VL and BMI2.
__attribute__((target("avx512f,avx512vl,bmi2"))) static void compress_avx512(uint64_t state[8], const uint8_t *data, size_t blocks) {
    __attribute__((aligned(16))) uint64_t kw_buffer[80];
    // The rounds read K + W through a pointer the compiler cannot see through, so it keeps the
    // vector stores and scalar loads instead of moving each word across with VPEXTRQ.
    uint64_t *kw = kw_buffer;
    __asm__("" : "+r"(kw));
    const __m128i swap = _mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    while (blocks--) {
        __m128i X[8];
        for (int j = 0; j < 8; j++) {
            X[j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * j)), swap);
            _mm_store_si128((__m128i *)&kw[2 * j], _mm_add_epi64(X[j], _mm_loadu_si128((const __m128i *)&K[2 * j])));
        }
        uint64_t a = state[0], b = state[1], c = state[2], d = state[3];
        uint64_t e = state[4], f = state[5], g = state[6], h = state[7];
        uint64_t x, y = b ^ c;
        KEIGHT(0, 1); KEIGHT(8, 1); KEIGHT(16, 1); KEIGHT(24, 1);
        KEIGHT(32, 1); KEIGHT(40, 1); KEIGHT(48, 1); KEIGHT(56, 1);
        KEIGHT(64, 0); KEIGHT(72, 0);
        state[0] += a; state[1] += b; state[2] += c; state[3] += d;
        state[4] += e; state[5] += f; state[6] += g; state[7] += h;
        data += 128;
    }
}

/// 1 when CPUID reports AVX-512F, AVX-512VL and BMI2 and the OS saves the XMM, YMM, opmask and
/// ZMM state (XCR0 bits 1, 2, 5, 6, 7).
static int has_avx512_engine(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !((ecx >> 27) & 1)) return 0;
    unsigned int xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 0xE6) != 0xE6) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return ((ebx >> 16) & 1) && ((ebx >> 31) & 1) && ((ebx >> 8) & 1);
}

/// AVX-512's engine when the CPU and OS allow it, else BMI2's when CPUID leaf 7 reports BMI2,
/// else the portable one.
static compress_engine detect_engine(void) {
    if (has_avx512_engine()) return compress_avx512;
    unsigned int eax, ebx, ecx, edx;
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && ((ebx >> 8) & 1)) return compress_bmi2;
    return compress_portable;
}
#else
/// The portable engine: no other on this architecture.
static compress_engine detect_engine(void) { return compress_portable; }
#endif

/// The engine, chosen once; threads that race on the first call store the same answer.
static compress_engine selected_engine(void) {
    static compress_engine cached = NULL;
    compress_engine engine = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (engine == NULL) {
        engine = detect_engine();
        __atomic_store_n(&cached, engine, __ATOMIC_RELAXED);
    }
    return engine;
}

/// `ifc_sha512` with the given engine.
static int sha512_with(compress_engine compress, uint8_t *digest, size_t digest_length, const uint8_t *data, size_t length) {
    if (digest_length != 48 && digest_length != 64) return 0;
    uint64_t state[8];
    memcpy(state, digest_length == 64 ? INITIAL_512 : INITIAL_384, sizeof state);
    const size_t whole = length / 128;
    compress(state, data, whole);
    // Padding: the rest, 0x80, zeros and the 128-bit bit length (its high half is the top three
    // bits of a size_t byte count), in one block or, past 111 bytes, two.
    uint8_t tail[256];
    const size_t rest = length - whole * 128;
    memset(tail, 0, sizeof tail);
    if (rest) memcpy(tail, data + whole * 128, rest);
    tail[rest] = 0x80;
    const size_t tail_length = rest < 112 ? 128 : 256;
    store_be64(tail + tail_length - 16, (uint64_t)length >> 61);
    store_be64(tail + tail_length - 8, (uint64_t)length << 3);
    compress(state, tail, tail_length / 128);
    for (size_t i = 0; i < digest_length / 8; i++) store_be64(digest + 8 * i, state[i]);
    return 1;
}

/// See CIdentityFlowCrypto.h.
int ifc_sha512(uint8_t *digest, size_t digest_length, const uint8_t *data, size_t length) {
    return sha512_with(selected_engine(), digest, digest_length, data, length);
}

/// See CIdentityFlowCrypto.h.
int ifc_sha512_portable(uint8_t *digest, size_t digest_length, const uint8_t *data, size_t length) {
    return sha512_with(compress_portable, digest, digest_length, data, length);
}

/// See CIdentityFlowCrypto.h.
int ifc_sha512_has_vector_schedule(void) {
#if defined(__x86_64__)
    return selected_engine() == compress_avx512;
#else
    return 0;
#endif
}
