/* Checks CIdentityFlowCrypto's SHA-256 engines against Tests/Fixtures/crypto/hash-vectors.json,
 * as SHA256EngineTests does on x86-64: SHA-256, HMAC-SHA256 and PBKDF2-HMAC-SHA256 of every
 * message length 0...300, on the fastest engine and on the portable one. Built for aarch64 and run
 * under qemu-aarch64 by scripts/test-arm-crypto.sh, so the ARMv8 SHA2 path (SHA256Arm.c) runs.
 *
 * Input on stdin, one case a line (the script converts the JSON):
 *   data key salt iterations keyLength sha256 hmac pbkdf2      (hex; "-" for empty bytes)
 */
#include "CIdentityFlowCrypto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_BYTES = 4096 };

static size_t unhex(const char *text, uint8_t *out) {
    if (strcmp(text, "-") == 0) return 0;
    size_t n = strlen(text) / 2;
    for (size_t i = 0; i < n; i++) sscanf(text + 2 * i, "%2hhx", &out[i]);
    return n;
}

static void hex(const uint8_t *bytes, size_t n, char *out) {
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", bytes[i]);
    out[2 * n] = 0;
}

static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

typedef void (*engine)(uint32_t state[8], const uint8_t *data, size_t blocks);

/* state after absorbing `prefix_blocks` earlier blocks, then the message with FIPS 180-4 padding */
static void finish(engine compress, uint32_t state[8], const uint8_t *data, size_t n, uint64_t prefix_bytes, uint8_t digest[32]) {
    size_t whole = n / 64;
    compress(state, data, whole);
    uint8_t tail[128] = {0};
    size_t rest = n - 64 * whole;
    memcpy(tail, data + 64 * whole, rest);
    tail[rest] = 0x80;
    size_t tail_blocks = rest < 56 ? 1 : 2;
    uint64_t bits = (prefix_bytes + n) * 8;
    for (int i = 0; i < 8; i++) tail[64 * tail_blocks - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress(state, tail, tail_blocks);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(state[i] >> 24); digest[4 * i + 1] = (uint8_t)(state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(state[i] >> 8); digest[4 * i + 3] = (uint8_t)state[i];
    }
}

static void sha256(engine compress, const uint8_t *data, size_t n, uint8_t digest[32]) {
    uint32_t state[8];
    memcpy(state, initial, sizeof state);
    finish(compress, state, data, n, 0, digest);
}

/* The chaining state after one pad block: key (hashed if longer than 64) XOR pad. */
static void pad_state(engine compress, const uint8_t *key, size_t key_n, uint8_t pad, uint32_t state[8]) {
    uint8_t block[64] = {0};
    if (key_n > 64) sha256(compress, key, key_n, block); else memcpy(block, key, key_n);
    for (int i = 0; i < 64; i++) block[i] ^= pad;
    memcpy(state, initial, 32);
    compress(state, block, 1);
}

static void hmac(engine compress, const uint8_t *key, size_t key_n, const uint8_t *data, size_t n, uint8_t mac[32]) {
    uint32_t inner[8], outer[8];
    pad_state(compress, key, key_n, 0x36, inner);
    pad_state(compress, key, key_n, 0x5c, outer);
    uint8_t inner_digest[32];
    finish(compress, inner, data, n, 64, inner_digest);
    finish(compress, outer, inner_digest, 32, 64, mac);
}

static void pbkdf2(engine compress, int portable, const uint8_t *password, size_t password_n, const uint8_t *salt, size_t salt_n,
                   uint64_t iterations, uint8_t *out, size_t out_n) {
    uint32_t inner[8], outer[8];
    pad_state(compress, password, password_n, 0x36, inner);
    pad_state(compress, password, password_n, 0x5c, outer);
    uint8_t message[MAX_BYTES + 4];
    for (uint32_t block = 1; 32 * (block - 1) < out_n; block++) {
        memcpy(message, salt, salt_n);
        message[salt_n] = (uint8_t)(block >> 24); message[salt_n + 1] = (uint8_t)(block >> 16);
        message[salt_n + 2] = (uint8_t)(block >> 8); message[salt_n + 3] = (uint8_t)block;
        uint8_t first[32];
        hmac(compress, password, password_n, message, salt_n + 4, first);
        uint32_t u[8], t[8];
        for (int i = 0; i < 8; i++) u[i] = t[i] = ((uint32_t)first[4 * i] << 24) | ((uint32_t)first[4 * i + 1] << 16) | ((uint32_t)first[4 * i + 2] << 8) | first[4 * i + 3];
        ifc_pbkdf2_sha256_iterate(inner, outer, u, t, iterations - 1, portable);
        for (size_t i = 0; i < 32 && 32 * (block - 1) + i < out_n; i++) out[32 * (block - 1) + i] = (uint8_t)(t[i / 4] >> (24 - 8 * (i % 4)));
    }
}

int main(void) {
    static char data_hex[2 * MAX_BYTES + 2], key_hex[2 * MAX_BYTES + 2], salt_hex[2 * MAX_BYTES + 2];
    static char want_sha[65], want_hmac[65], want_pbkdf2[2 * MAX_BYTES + 2];
    static uint8_t data[MAX_BYTES], key[MAX_BYTES], salt[MAX_BYTES], out[MAX_BYTES];
    static char got[2 * MAX_BYTES + 2];
    unsigned long long iterations;
    size_t key_length;
    int cases = 0, failures = 0;
    printf("hardware SHA-256 engine: %s\n", ifc_sha256_has_hardware() ? "yes (ARMv8 SHA2)" : "no (portable)");
    while (scanf("%8193s %8193s %8193s %llu %zu %64s %64s %8193s", data_hex, key_hex, salt_hex, &iterations, &key_length, want_sha, want_hmac, want_pbkdf2) == 8) {
        size_t n = unhex(data_hex, data), key_n = unhex(key_hex, key), salt_n = unhex(salt_hex, salt);
        const engine engines[2] = {ifc_sha256_blocks, ifc_sha256_blocks_portable};
        for (int portable = 0; portable < 2; portable++) {
            const char *name = portable ? "portable" : "fastest";
            uint8_t digest[32];
            sha256(engines[portable], data, n, digest);
            hex(digest, 32, got);
            if (strcmp(got, want_sha)) { printf("length %zu %s: sha256 %s, want %s\n", n, name, got, want_sha); failures++; }
            hmac(engines[portable], key, key_n, data, n, digest);
            hex(digest, 32, got);
            if (strcmp(got, want_hmac)) { printf("length %zu %s: hmac %s, want %s\n", n, name, got, want_hmac); failures++; }
            pbkdf2(engines[portable], portable, data, n, salt, salt_n, iterations, out, key_length);
            hex(out, key_length, got);
            if (strcmp(got, want_pbkdf2)) { printf("length %zu %s: pbkdf2 %s, want %s\n", n, name, got, want_pbkdf2); failures++; }
        }
        cases++;
    }
    printf("%d cases, %d mismatches\n", cases, failures);
    return failures == 0 && cases > 0 && ifc_sha256_has_hardware() ? 0 : 1;
}
