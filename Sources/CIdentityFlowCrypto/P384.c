// P-384 ECDSA verification for ID tokens signed ES384: the field and point templates
// (ECFieldTemplate.h, ECPointTemplate.h) compiled for 6 limbs. The constants below are the
// curve's (FIPS 186-4 D.1.2) in the forms the templates take; Tests/Fixtures/crypto/
// make_curve_constants.py derives them, and the tests check the curve through them.
#include "CIdentityFlowCrypto.h"

#define LIMBS 6
#define BYTES 48
#define ORDER_BITS 384
typedef uint64_t felem[LIMBS];

static const felem FIELD_P = {0x00000000FFFFFFFFULL, 0xFFFFFFFF00000000ULL, 0xFFFFFFFFFFFFFFFEULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL};
static const felem FIELD_ONE = {0xFFFFFFFF00000001ULL, 0x00000000FFFFFFFFULL, 0x0000000000000001ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL};
static const felem FIELD_RR = {0xFFFFFFFE00000001ULL, 0x0000000200000000ULL, 0xFFFFFFFE00000000ULL, 0x0000000200000000ULL, 0x0000000000000001ULL, 0x0000000000000000ULL};
static const uint64_t FIELD_P_INV = 0x0000000100000001ULL;
static const felem FIELD_B = {0x081188719D412DCCULL, 0xF729ADD87A4C32ECULL, 0x77F2209B1920022EULL, 0xE3374BEE94938AE2ULL, 0xB62B21F41F022094ULL, 0xCD08114B604FBFF9ULL};
static const felem ORDER_N = {0xECEC196ACCC52973ULL, 0x581A0DB248B0A77AULL, 0xC7634D81F4372DDFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL, 0xFFFFFFFFFFFFFFFFULL};
static const felem ORDER_ONE = {0x1313E695333AD68DULL, 0xA7E5F24DB74F5885ULL, 0x389CB27E0BC8D220ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL};
static const felem ORDER_RR = {0x2D319B2419B409A9ULL, 0xFF3D81E5DF1AA419ULL, 0xBC3E483AFCB82947ULL, 0xD40D49174AAB1CC5ULL, 0x3FB05B7A28266895ULL, 0x0C84EE012B39BF21ULL};
static const uint64_t ORDER_N_INV = 0x6ED46089E88FDC45ULL;
static const felem GENERATOR_X = {0x3DD0756649C0B528ULL, 0x20E378E2A0D6CE38ULL, 0x879C3AFC541B4D6EULL, 0x6454868459A30EFFULL, 0x812FF723614EDE2BULL, 0x4D3AADC2299E1513ULL};
static const felem GENERATOR_Y = {0x23043DAD4B03A4FEULL, 0xA1BFA8BF7BB4A9ACULL, 0x8BADE7562E83B050ULL, 0xC6C3521968F4FFD9ULL, 0xDD8002263969A840ULL, 0x2B78ABC25A15C5E9ULL};
static const felem P_MINUS_N = {0x1313E696333AD68CULL, 0xA7E5F24CB74F5885ULL, 0x389CB27E0BC8D21FULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL};

#include "ECFieldTemplate.h"
#include "ECPointTemplate.h"

/// See CIdentityFlowCrypto.h.
int ifc_p384_valid_public_key(const uint8_t x[BYTES], const uint8_t y[BYTES]) {
    jacobian_point q;
    return decode_point(&q, x, y);
}

/// See CIdentityFlowCrypto.h.
int ifc_p384_verify(const uint8_t signature[2 * BYTES], const uint8_t *digest, size_t digest_length,
                    const uint8_t x[BYTES], const uint8_t y[BYTES]) {
    return ecdsa_verify(signature, digest, digest_length, x, y);
}

/// See CIdentityFlowCrypto.h.
int ifc_p384_linear_combination(uint8_t rx[BYTES], uint8_t ry[BYTES], const uint8_t u1[BYTES], const uint8_t u2[BYTES],
                                const uint8_t qx[BYTES], const uint8_t qy[BYTES]) {
    return combination_bytes(rx, ry, u1, u2, qx, qy);
}
