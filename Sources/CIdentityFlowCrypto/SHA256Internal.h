#ifndef CIDENTITYFLOWCRYPTO_SHA256INTERNAL_H
#define CIDENTITYFLOWCRYPTO_SHA256INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* The round constants K of FIPS 180-4 section 4.2.2. */
extern const uint32_t ifc_sha256_k[64];

/* The hardware engine for this CPU, or NULL when it has none. */
typedef void (*ifc_sha256_engine)(uint32_t state[8], const uint8_t *data, size_t blocks);
ifc_sha256_engine ifc_sha256_hardware_engine(void);

#endif
