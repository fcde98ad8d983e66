// P-521 ECDSA verification for ID tokens signed ES512: the field and point templates
// (ECFieldTemplate.h, ECPointTemplate.h) compiled for 9 limbs. The constants below are the
// curve's (FIPS 186-4 D.1.2) in the forms the templates take; Tests/Fixtures/crypto/
// make_curve_constants.py derives them, and the tests check the curve through them.
#include "CIdentityFlowCrypto.h"

#include <string.h>

#define LIMBS 9
#define BYTES 66
#define ORDER_BITS 521
typedef uint64_t felem[LIMBS];

/// r = t mod p for a product t < p² < 2^1042, by p = 2^521 - 1's shape: t = low + high·2^521 and
/// 2^521 ≡ 1, so t ≡ low + high < 2^522, and the bit above 521 folds back the same way. Nine
/// shifts and two additions instead of a Montgomery reduction's 81 multiplications.
static inline __attribute__((always_inline)) void p521_reduce(felem r, const uint64_t t[18]) {
    unsigned long long carry = 0;
    _Pragma("clang loop unroll(full)")
    for (int i = 0; i < 9; i++) {
        const uint64_t low = i < 8 ? t[i] : t[8] & 0x1FF;
        const uint64_t high = (t[8 + i] >> 9) | (t[9 + i] << 55);
        r[i] = __builtin_addcll(low, high, carry, &carry);
    }
    // r < 2^522: fold bit 521 into bit 0. The result is at most p; p itself is 0.
    carry = r[8] >> 9;
    r[8] &= 0x1FF;
    _Pragma("clang loop unroll(full)")
    for (int i = 0; i < 9; i++) r[i] = __builtin_addcll(r[i], 0, carry, &carry);
    uint64_t ones = r[8] ^ 0x1FF;
    for (int i = 0; i < 8; i++) ones |= ~r[i];
    if (ones == 0) memset(r, 0, 9 * sizeof(uint64_t));
}
#define FIELD_REDUCE p521_reduce

static const felem FIELD_P = {0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0x00000000000001FFULL};
static const felem FIELD_ONE = {0x0000000000000001ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL};
static const felem FIELD_B = {0xEF451FD46B503F00ULL, 0x3573DF883D2C34F1ULL, 0x1652C0BD3BB1BF07ULL, 0x56193951EC7E937BULL, 0xB8B489918EF109E1ULL, 0xA2DA725B99B315F3ULL, 0x929A21A0B68540EEULL, 0x953EB9618E1C9A1FULL, 0x0000000000000051ULL};
static const felem ORDER_N = {0xBB6FB71E91386409ULL, 0x3BB5C9B8899C47AEULL, 0x7FCC0148F709A5D0ULL, 0x51868783BF2F966BULL, 0xFFFFFFFFFFFFFFFAULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0x00000000000001FFULL};
static const felem ORDER_ONE = {0xFB80000000000000ULL, 0x28A2482470B763CDULL, 0x17E2251B23BB31DCULL, 0xCA4019FF5B847B2DULL, 0x02D73CBC3E206834ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL};
static const felem ORDER_RR = {0x137CD04DCF15DD04ULL, 0xF707BADCE5547EA3ULL, 0x12A78D38794573FFULL, 0xD3721EF557F75E06ULL, 0xDD6E23D82E49C7DBULL, 0xCFF3D142B7756E3EULL, 0x5BCC6D61A8E567BCULL, 0x2D8E03D1492D0D45ULL, 0x000000000000003DULL};
static const uint64_t ORDER_N_INV = 0x1D2F5CCD79A995C7ULL;
static const felem GENERATOR_X = {0xF97E7E31C2E5BD66ULL, 0x3348B3C1856A429BULL, 0xFE1DC127A2FFA8DEULL, 0xA14B5E77EFE75928ULL, 0xF828AF606B4D3DBAULL, 0x9C648139053FB521ULL, 0x9E3ECB662395B442ULL, 0x858E06B70404E9CDULL, 0x00000000000000C6ULL};
static const felem GENERATOR_Y = {0x88BE94769FD16650ULL, 0x353C7086A272C240ULL, 0xC550B9013FAD0761ULL, 0x97EE72995EF42640ULL, 0x17AFBD17273E662CULL, 0x98F54449579B4468ULL, 0x5C8A5FB42C7D1BD9ULL, 0x39296A789A3BC004ULL, 0x0000000000000118ULL};
static const felem P_MINUS_N = {0x449048E16EC79BF6ULL, 0xC44A36477663B851ULL, 0x8033FEB708F65A2FULL, 0xAE79787C40D06994ULL, 0x0000000000000005ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL};

#include "ECFieldTemplate.h"
#include "ECPointTemplate.h"

/// See CIdentityFlowCrypto.h.
int ifc_p521_valid_public_key(const uint8_t x[BYTES], const uint8_t y[BYTES]) {
    jacobian_point q;
    return decode_point(&q, x, y);
}

/// See CIdentityFlowCrypto.h.
int ifc_p521_verify(const uint8_t signature[2 * BYTES], const uint8_t *digest, size_t digest_length,
                    const uint8_t x[BYTES], const uint8_t y[BYTES]) {
    return ecdsa_verify(signature, digest, digest_length, x, y);
}

/// See CIdentityFlowCrypto.h.
int ifc_p521_linear_combination(uint8_t rx[BYTES], uint8_t ry[BYTES], const uint8_t u1[BYTES], const uint8_t u2[BYTES],
                                const uint8_t qx[BYTES], const uint8_t qy[BYTES]) {
    return combination_bytes(rx, ry, u1, u2, qx, qy);
}
