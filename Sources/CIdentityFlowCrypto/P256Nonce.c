// RFC 6979 §3.2 deterministic nonces for P-256 with SHA-256 (qlen = hlen = 256), and the signature
// that takes the first of them that signs: an HMAC-DRBG seeded with the private key and the
// digest, its HMAC-SHA256 on the SHA-256 engine of SHA256Dispatch.c with the key's pad states
// computed once per key, no allocation. SHA-256 has no data-dependent branch or table index, so
// the nonce's derivation is as constant time as the signature.
#include "CIdentityFlowCrypto.h"

#include <string.h>

static const uint8_t P256_ORDER[32] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
};

static const uint32_t SHA256_INITIAL[8] = {
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

/// An HMAC-SHA256 key of 32 bytes as its two pad states (the first block of each hash).
typedef struct { uint32_t inner[8], outer[8]; } hmac_key;

/// Computes the two pad states of a 32-byte key.
static void hmac_set_key(hmac_key *k, const uint8_t key[32]) {
    uint8_t block[64];
    memset(block, 0x36, sizeof block);
    for (int i = 0; i < 32; i++) block[i] ^= key[i];
    memcpy(k->inner, SHA256_INITIAL, sizeof k->inner);
    ifc_sha256_blocks(k->inner, block, 1);
    memset(block, 0x5c, sizeof block);
    for (int i = 0; i < 32; i++) block[i] ^= key[i];
    memcpy(k->outer, SHA256_INITIAL, sizeof k->outer);
    ifc_sha256_blocks(k->outer, block, 1);
    memset(block, 0, sizeof block);
}

/// The SHA-256 digest of a message after one 64-byte block already in `state`: the message's
/// whole blocks, then the padding (a message of at most 183 bytes here: three blocks at most).
static void sha256_finish(uint8_t digest[32], const uint32_t start[8], const uint8_t *message, size_t length) {
    uint32_t state[8];
    memcpy(state, start, sizeof state);
    const size_t whole = length / 64;
    ifc_sha256_blocks(state, message, whole);
    uint8_t tail[128];
    const size_t rest = length - whole * 64;
    memset(tail, 0, sizeof tail);
    memcpy(tail, message + whole * 64, rest);
    tail[rest] = 0x80;
    const size_t tail_length = rest < 56 ? 64 : 128;
    const uint64_t bits = (uint64_t)(64 + length) * 8;
    for (int i = 0; i < 8; i++) tail[tail_length - 1 - i] = (uint8_t)(bits >> (8 * i));
    ifc_sha256_blocks(state, tail, tail_length / 64);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (uint8_t)(state[i] >> 24);
        digest[4 * i + 1] = (uint8_t)(state[i] >> 16);
        digest[4 * i + 2] = (uint8_t)(state[i] >> 8);
        digest[4 * i + 3] = (uint8_t)state[i];
    }
}

/// out = HMAC_k(message) for a message of at most 119 bytes.
static void hmac(uint8_t out[32], const hmac_key *k, const uint8_t *message, size_t length) {
    uint8_t inner[32];
    sha256_finish(inner, k->inner, message, length);
    sha256_finish(out, k->outer, inner, 32);
}

/// The HMAC-DRBG of RFC 6979 §3.2: K and V, and the key's pad states.
typedef struct { uint8_t v[32]; hmac_key key; } drbg;

/// Steps b-g: seeds with x (the private key) and bits2octets(h1) (the digest mod n).
static void drbg_seed(drbg *d, const uint8_t scalar[32], const uint8_t digest[32]) {
    // bits2octets: the digest is below 2^256 < 2n, so one conditional subtraction reduces it.
    uint8_t reduced[32], difference[32];
    int borrow = 0;
    for (int i = 31; i >= 0; i--) {
        const int value = (int)digest[i] - (int)P256_ORDER[i] - borrow;
        difference[i] = (uint8_t)value;
        borrow = value < 0;
    }
    const uint8_t keep = (uint8_t)(0 - (uint8_t)borrow); // digest < n: keep it
    for (int i = 0; i < 32; i++) reduced[i] = (uint8_t)((digest[i] & keep) | (difference[i] & ~keep));
    uint8_t k[32], message[97];
    memset(d->v, 0x01, 32);
    memset(k, 0x00, 32);
    for (uint8_t round = 0; round < 2; round++) {
        hmac_set_key(&d->key, k);
        memcpy(message, d->v, 32);
        message[32] = round;
        memcpy(message + 33, scalar, 32);
        memcpy(message + 65, reduced, 32);
        hmac(k, &d->key, message, sizeof message);
        hmac_set_key(&d->key, k);
        hmac(d->v, &d->key, d->v, 32);
    }
    memset(k, 0, sizeof k);
    memset(message, 0, sizeof message);
}

/// Step h: the next candidate (after the first, K and V move on by K = HMAC_K(V ‖ 0x00), V = HMAC_K(V)).
static void drbg_next(drbg *d, uint8_t nonce[32], int first) {
    if (!first) {
        uint8_t message[33], k[32];
        memcpy(message, d->v, 32);
        message[32] = 0x00;
        hmac(k, &d->key, message, sizeof message);
        hmac_set_key(&d->key, k);
        hmac(d->v, &d->key, d->v, 32);
        memset(k, 0, sizeof k);
    }
    hmac(d->v, &d->key, d->v, 32);
    memcpy(nonce, d->v, 32);
}

/// See CIdentityFlowCrypto.h.
int ifc_p256_rfc6979_nonce(uint8_t nonce[32], const uint8_t digest[32], const uint8_t scalar[32]) {
    drbg d;
    drbg_seed(&d, scalar, digest);
    drbg_next(&d, nonce, 1);
    memset(&d, 0, sizeof d);
    return 1;
}

/// See CIdentityFlowCrypto.h.
int ifc_p256_sign_deterministic(uint8_t signature[64], const uint8_t digest[32], const uint8_t scalar[32]) {
    if (!ifc_p256_valid_scalar(scalar)) return 0;
    drbg d;
    uint8_t nonce[32];
    drbg_seed(&d, scalar, digest);
    // A candidate out of 1...n-1, or one that gives r or s = 0, is passed over (probability
    // below 2^-32 each); the loop ends with overwhelming probability on the first.
    int signed_ = 0;
    for (int first = 1; !signed_; first = 0) {
        drbg_next(&d, nonce, first);
        signed_ = ifc_p256_sign(signature, digest, scalar, nonce);
    }
    memset(&d, 0, sizeof d);
    memset(nonce, 0, sizeof nonce);
    return 1;
}
