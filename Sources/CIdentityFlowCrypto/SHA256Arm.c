#include "SHA256Internal.h"

#if defined(__aarch64__)
#include <arm_neon.h>
#if defined(__linux__)
#include <sys/auxv.h>
#endif

/* The function-level feature: Clang (Apple's compilers, the Swift toolchain) takes "sha2"; GCC
 * (12) rejects that spelling and guards its SHA2 intrinsics by "+crypto".
 * scripts/test-arm-crypto.sh builds with both and runs them under qemu-aarch64. */
#if defined(__clang__)
#define IFC_TARGET_SHA2 __attribute__((target("sha2")))
#else
#define IFC_TARGET_SHA2 __attribute__((target("+crypto")))
#endif

/* Four rounds per step with the ARMv8 SHA2 instructions; su0/su1 compute W for group g + 4. */
IFC_TARGET_SHA2
static void sha256_blocks_armv8(uint32_t state[8], const uint8_t *data, size_t blocks) {
    uint32x4_t state0 = vld1q_u32(&state[0]);
    uint32x4_t state1 = vld1q_u32(&state[4]);
    while (blocks--) {
        const uint32x4_t abcd = state0, efgh = state1;
        uint32x4_t w[4];
        for (int i = 0; i < 4; i++) {
            w[i] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(data + 16 * i)));
        }
        for (int g = 0; g < 16; g++) {
            const uint32x4_t k = vaddq_u32(w[g & 3], vld1q_u32(ifc_sha256_k + 4 * g));
            if (g < 12) {
                w[g & 3] = vsha256su0q_u32(w[g & 3], w[(g + 1) & 3]);
            }
            const uint32x4_t previous = state0;
            state0 = vsha256hq_u32(state0, state1, k);
            state1 = vsha256h2q_u32(state1, previous, k);
            if (g < 12) {
                w[g & 3] = vsha256su1q_u32(w[g & 3], w[(g + 2) & 3], w[(g + 3) & 3]);
            }
        }
        state0 = vaddq_u32(state0, abcd);
        state1 = vaddq_u32(state1, efgh);
        data += 64;
    }
    vst1q_u32(&state[0], state0);
    vst1q_u32(&state[4], state1);
}

ifc_sha256_engine ifc_sha256_hardware_engine(void) {
#if defined(__APPLE__)
    return sha256_blocks_armv8; /* every Apple arm64 CPU has the SHA2 instructions */
#elif defined(__linux__)
    return (getauxval(AT_HWCAP) & (1UL << 6)) ? sha256_blocks_armv8 : NULL; /* HWCAP_SHA2 */
#else
    return NULL;
#endif
}
#endif
