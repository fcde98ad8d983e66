#include "CIdentityFlowCrypto.h"
#include "SHA256Internal.h"

#include <string.h>

#if !defined(__x86_64__) && !defined(__i386__) && !defined(__aarch64__)
ifc_sha256_engine ifc_sha256_hardware_engine(void) {
    return NULL;
}
#endif

/* Chosen once; threads that race on the first call compute and store the same answer. */
static ifc_sha256_engine selected_engine(void) {
    static ifc_sha256_engine cached = NULL;
    ifc_sha256_engine engine = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (engine == NULL) {
        engine = ifc_sha256_hardware_engine();
        if (engine == NULL) {
            engine = ifc_sha256_blocks_portable;
        }
        __atomic_store_n(&cached, engine, __ATOMIC_RELAXED);
    }
    return engine;
}

void ifc_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks) {
    selected_engine()(state, data, blocks);
}

int ifc_sha256_has_hardware(void) {
    return selected_engine() != ifc_sha256_blocks_portable;
}

static void store_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

void ifc_pbkdf2_sha256_iterate(const uint32_t inner[8], const uint32_t outer[8],
                               uint32_t u[8], uint32_t t[8], uint64_t count, int portable) {
    const ifc_sha256_engine engine = portable ? ifc_sha256_blocks_portable : selected_engine();
#if defined(__x86_64__) || defined(__i386__)
    // SHA-NI: the fused loop (SHA256X86.c), which keeps U and the states in registers. Looked up
    // once (CPUID leaves the VM on every call), as the engine is.
    if (engine != ifc_sha256_blocks_portable && count > 0) {
        static ifc_pbkdf2_loop cached = NULL;
        ifc_pbkdf2_loop loop = __atomic_load_n(&cached, __ATOMIC_RELAXED);
        if (loop == NULL) {
            loop = ifc_pbkdf2_hardware_loop();
            __atomic_store_n(&cached, loop, __ATOMIC_RELAXED);
        }
        if (loop != NULL) {
            loop(inner, outer, u, t, count);
            return;
        }
    }
#endif
    /* A 32-byte message after a 64-byte pad: the digest, 0x80, zeros, the bit length 768. */
    uint8_t block[64];
    memset(block, 0, sizeof block);
    block[32] = 0x80;
    block[62] = 0x03;
    uint32_t state[8];
    while (count--) {
        for (int i = 0; i < 8; i++) store_be32(block + 4 * i, u[i]);
        memcpy(state, inner, sizeof state);
        engine(state, block, 1);
        for (int i = 0; i < 8; i++) store_be32(block + 4 * i, state[i]);
        memcpy(state, outer, sizeof state);
        engine(state, block, 1);
        for (int i = 0; i < 8; i++) {
            u[i] = state[i];
            t[i] ^= state[i];
        }
    }
}
