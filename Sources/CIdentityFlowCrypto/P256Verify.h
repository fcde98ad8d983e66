// The variable-time P-256 verifier of P256Verify.c, for P256.c's ifc_p256_verify.
#ifndef CIDENTITYFLOWCRYPTO_P256VERIFY_H
#define CIDENTITYFLOWCRYPTO_P256VERIFY_H

#include <stdint.h>

/// ECDSA verification of a SHA-256 digest under a SEC1 uncompressed key, on public values only:
/// not constant time. 1 when valid (high s accepted), 0 otherwise, a malformed key included.
__attribute__((visibility("hidden"))) int p256_verify_public(const uint8_t signature[64], const uint8_t digest[32],
                                                             const uint8_t public_key[65]);

#endif
