// P-256 ECDSA verification, variable time: verification handles public values only (the key,
// the signature, the digest), so it runs on the field and point templates that P-384 and P-521
// use (ECFieldTemplate.h, ECPointTemplate.h: Shamir's trick over width-7/5 NAFs with a table of
// G, no inversion at the end) instead of P256.c's constant-time code, which signing and key
// generation keep. The reduction is P-256's own (see p256_montgomery_reduce).
#include "CIdentityFlowCrypto.h"
#include "P256Verify.h"

#define LIMBS 4
#define BYTES 32
#define ORDER_BITS 256
typedef uint64_t felem[LIMBS];

/// Montgomery reduction of the 512-bit t (t < p·2^256) by p's shape: -p^-1 mod 2^64 is 1, so
/// each step's multiple of p is q = t[i], and q·p adds q·2^96 and q·p[3]·2^192 after the low
/// limb cancels: four multiplications instead of sixteen (as P256Field.h's fp_reduce).
/// (The reduction described above, for the template's FIELD_MONTGOMERY_REDUCE.)
static inline __attribute__((always_inline)) void p256_montgomery_reduce(felem r, uint64_t t[8]) {
    static const uint64_t p3 = 0xFFFFFFFF00000001ULL;
    unsigned long long top = 0;
    _Pragma("clang loop unroll(full)")
    for (int i = 0; i < 4; i++) {
        const uint64_t q = t[i];
        const unsigned __int128 m = (unsigned __int128)q * p3;
        unsigned long long c = 0;
        t[i + 1] = __builtin_addcll(t[i + 1], q << 32, c, &c);
        t[i + 2] = __builtin_addcll(t[i + 2], q >> 32, c, &c);
        t[i + 3] = __builtin_addcll(t[i + 3], (uint64_t)m, c, &c);
        t[i + 4] = __builtin_addcll(t[i + 4], (uint64_t)(m >> 64), c, &c);
        _Pragma("clang loop unroll(full)")
        for (int j = i + 5; j < 8; j++) t[j] = __builtin_addcll(t[j], 0, c, &c);
        top += c;
    }
    // t[4..7] + top·2^256 < 2p: subtract p once when it is not below p.
    static const uint64_t p[4] = {0xFFFFFFFFFFFFFFFFULL, 0x00000000FFFFFFFFULL, 0, 0xFFFFFFFF00000001ULL};
    uint64_t reduced[4];
    unsigned long long borrow = 0;
    _Pragma("clang loop unroll(full)")
    for (int i = 0; i < 4; i++) reduced[i] = __builtin_subcll(t[4 + i], p[i], borrow, &borrow);
    const uint64_t keep = (uint64_t)0 - (borrow & (top ^ 1));
    _Pragma("clang loop unroll(full)")
    for (int i = 0; i < 4; i++) r[i] = (t[4 + i] & keep) | (reduced[i] & ~keep);
}
#define FIELD_MONTGOMERY_REDUCE p256_montgomery_reduce

static const felem FIELD_P = {0xFFFFFFFFFFFFFFFFULL, 0x00000000FFFFFFFFULL, 0x0000000000000000ULL, 0xFFFFFFFF00000001ULL};
static const felem FIELD_ONE = {0x0000000000000001ULL, 0xFFFFFFFF00000000ULL, 0xFFFFFFFFFFFFFFFFULL, 0x00000000FFFFFFFEULL};
static const felem FIELD_RR = {0x0000000000000003ULL, 0xFFFFFFFBFFFFFFFFULL, 0xFFFFFFFFFFFFFFFEULL, 0x00000004FFFFFFFDULL};
static const felem FIELD_B = {0xD89CDF6229C4BDDFULL, 0xACF005CD78843090ULL, 0xE5A220ABF7212ED6ULL, 0xDC30061D04874834ULL};
static const felem ORDER_N = {0xF3B9CAC2FC632551ULL, 0xBCE6FAADA7179E84ULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFF00000000ULL};
static const felem ORDER_ONE = {0x0C46353D039CDAAFULL, 0x4319055258E8617BULL, 0x0000000000000000ULL, 0x00000000FFFFFFFFULL};
static const felem ORDER_RR = {0x83244C95BE79EEA2ULL, 0x4699799C49BD6FA6ULL, 0x2845B2392B6BEC59ULL, 0x66E12D94F3D95620ULL};
static const uint64_t ORDER_N_INV = 0xCCD1C8AAEE00BC4FULL;
static const felem GENERATOR_X = {0x79E730D418A9143CULL, 0x75BA95FC5FEDB601ULL, 0x79FB732B77622510ULL, 0x18905F76A53755C6ULL};
static const felem GENERATOR_Y = {0xDDF25357CE95560AULL, 0x8B4AB8E4BA19E45CULL, 0xD2E88688DD21F325ULL, 0x8571FF1825885D85ULL};
static const felem P_MINUS_N = {0x0C46353D039CDAAEULL, 0x4319055358E8617BULL, 0x0000000000000000ULL, 0x0000000000000000ULL};

#include "ECFieldTemplate.h"
#include "ECPointTemplate.h"

/// See P256Verify.h.
int p256_verify_public(const uint8_t signature[64], const uint8_t digest[32], const uint8_t public_key[65]) {
    if (public_key[0] != 0x04) return 0;
    return ecdsa_verify(signature, digest, 32, public_key + 1, public_key + 33);
}
