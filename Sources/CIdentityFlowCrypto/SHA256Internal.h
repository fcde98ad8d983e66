#ifndef CIDENTITYFLOWCRYPTO_SHA256INTERNAL_H
#define CIDENTITYFLOWCRYPTO_SHA256INTERNAL_H

#include <stddef.h>
#include <stdint.h>

/* The round constants K of FIPS 180-4 section 4.2.2. */
extern const uint32_t ifc_sha256_k[64];

/* The hardware engine for this CPU, or NULL when it has none. */
typedef void (*ifc_sha256_engine)(uint32_t state[8], const uint8_t *data, size_t blocks);
ifc_sha256_engine ifc_sha256_hardware_engine(void);

/* PBKDF2-HMAC-SHA256's iterations (ifc_pbkdf2_sha256_iterate) fused for a hardware engine: the
   chaining states and U in registers, or NULL when this CPU has none. */
typedef void (*ifc_pbkdf2_loop)(const uint32_t inner[8], const uint32_t outer[8], uint32_t u[8], uint32_t t[8], uint64_t count);
#if defined(__x86_64__) || defined(__i386__)
ifc_pbkdf2_loop ifc_pbkdf2_hardware_loop(void);
#endif

#endif
