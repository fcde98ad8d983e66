#!/usr/bin/env python3
"""Generate RSASSA-PSS test vectors (RFC 8017 §8.1.2, §9.1.2) as JWS PS256 / PS384 / PS512 use it
(RFC 7518 §3.5: MGF1 with the message's hash, salt as long as the hash) for IdentityFlow.

Usage: make_rsa_pss_vectors.py [OUTPUT.json]   (default: rsa-pss-vectors.json next to this script)

Writes JSON with:
  keys        RSA public keys as JWK-style base64url "n" and "e", e = 65537, of 2048, 2049, 2050,
              3072 and 4096 bits. emBits = modBits - 1 decides the encoding's shape: 2048, 3072 and
              4096 bits leave one unused high bit in EM's first octet, 2050 bits seven, and 2049
              bits none, EM then being one octet shorter than the signature. OpenSSL makes a
              2048-bit modulus when asked for 2049 bits, so that key is built here from two primes.
  signatures  {key, hash, message (hex), signature (hex), valid, comment}: signatures by
              `cryptography` (valid ones with salt length = hash length, invalid ones with other
              salt lengths or MGF1 hashes, PKCS#1 v1.5, tampered, out of range, wrong length), and
              raw RSA operations on encodings made here, each breaking one step of EMSA-PSS-VERIFY.
The keys are random: every run changes every vector, not what it means.
Requires the `cryptography` package.
"""
import hashlib
import json
import os
import secrets
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from make_rsa_vectors import b64url, int_bytes, raw_sign

HASHES = {"sha256": (hashes.SHA256, hashlib.sha256), "sha384": (hashes.SHA384, hashlib.sha384),
          "sha512": (hashes.SHA512, hashlib.sha512)}


def is_probable_prime(n, rounds=40):
    """Miller-Rabin with random bases."""
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for _ in range(rounds):
        x = pow(secrets.randbelow(n - 3) + 2, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def prime(bits, e):
    """A prime of exactly `bits` bits with its two top bits set, p - 1 prime to e."""
    while True:
        candidate = secrets.randbits(bits) | (3 << (bits - 2)) | 1
        if (candidate - 1) % e and is_probable_prime(candidate):
            return candidate


def key_of_bits(bits, e=65537):
    """A key whose modulus has exactly `bits` bits, for any `bits` (OpenSSL rounds odd sizes down)."""
    key = rsa.generate_private_key(public_exponent=e, key_size=bits)
    if key.key_size == bits:
        return key
    p, q = prime(bits - bits // 2, e), prime(bits // 2, e)
    assert (p * q).bit_length() == bits
    d = pow(e, -1, (p - 1) * (q - 1))
    numbers = rsa.RSAPrivateNumbers(p, q, d, rsa.rsa_crt_dmp1(d, p), rsa.rsa_crt_dmq1(d, q), rsa.rsa_crt_iqmp(p, q),
                                    rsa.RSAPublicNumbers(e, p * q))
    return numbers.private_key()


def mgf1(seed, length, hash_name, start=0):
    function = HASHES[hash_name][1]
    mask = b""
    counter = start
    while len(mask) < length:
        mask += function(seed + counter.to_bytes(4, "big")).digest()
        counter += 1
    return mask[:length]


def pss_encode(message, em_bits, hash_name, salt=None, breaks=()):
    """EMSA-PSS-ENCODE (RFC 8017 §9.1.1) with salt length hLen; each item of `breaks` spoils one step."""
    function = HASHES[hash_name][1]
    h_len = function().digest_size
    salt = secrets.token_bytes(h_len) if salt is None else salt
    em_len = (em_bits + 7) // 8
    m_prime = (b"" if "no M' zeros" in breaks else b"\x00" * 8) + function(message).digest() + salt
    h = function(m_prime).digest()
    zero_count = em_len - len(salt) - h_len - 2
    separator = {"separator 00": b"\x00", "separator 02": b"\x02"}
    padding_string = bytearray(zero_count)
    if "first padding octet 01" in breaks:
        padding_string[0] = 0x01
    if "last padding octet 01" in breaks:
        padding_string[-1] = 0x01
    sep = next((value for name, value in separator.items() if name in breaks), b"\x01")
    db = bytes(padding_string) + sep + salt
    if "salt changed" in breaks:
        db = db[:-1] + bytes([db[-1] ^ 1])
    masked = bytearray(a ^ b for a, b in zip(db, mgf1(h, len(db), hash_name)))
    unused = 8 * em_len - em_bits
    masked[0] &= 0xFF >> unused
    if "lowest unused bit set" in breaks:
        masked[0] |= 0x80 >> (unused - 1)
    trailer = b"\xbd" if "trailer bd" in breaks else b"\xbc"
    return bytes(masked) + h + trailer


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "rsa-pss-vectors.json")
    sizes = [2048, 2049, 2050, 3072, 4096]
    private = {f"rsa{bits}": key_of_bits(bits) for bits in sizes}
    keys = []
    for name, key in private.items():
        numbers = key.public_key().public_numbers()
        assert numbers.n.bit_length() == int(name[3:])
        keys.append({"name": name, "bits": numbers.n.bit_length(), "n": b64url(int_bytes(numbers.n)), "e": b64url(int_bytes(numbers.e))})

    signatures = []

    def add(name, hash_name, message, signature, valid, comment):
        public = private[name].public_key()
        scheme = padding.PSS(mgf=padding.MGF1(HASHES[hash_name][0]()), salt_length=HASHES[hash_name][0].digest_size)
        try:
            public.verify(signature, message, scheme, HASHES[hash_name][0]())
            accepted = True
        except (InvalidSignature, ValueError):
            accepted = False
        assert accepted == valid, f"{name} {hash_name} {comment}: cryptography says {accepted}"
        signatures.append({"key": name, "hash": hash_name, "message": message.hex(), "signature": signature.hex(),
                           "valid": valid, "comment": comment})

    def sign(name, hash_name, message, salt_length=None, mgf_hash=None):
        algorithm = HASHES[hash_name][0]
        salt = algorithm.digest_size if salt_length is None else salt_length
        mgf = padding.MGF1((mgf_hash or algorithm)())
        return private[name].sign(message, padding.PSS(mgf=mgf, salt_length=salt), algorithm())

    def raw(name, hash_name, message, breaks=()):
        """A raw RSA signature on an encoding made here, retried (new salt) until it is below n."""
        n = private[name].public_key().public_numbers().n
        while True:
            encoded = pss_encode(message, n.bit_length() - 1, hash_name, breaks=breaks)
            if int.from_bytes(encoded, "big") < n:
                return raw_sign(private[name], encoded)

    for name in private:
        for hash_name in HASHES:
            for message in (b"abc", f"eyJhbGciOiJQUzI1NiJ9.{name}.{hash_name}".encode()):
                add(name, hash_name, message, sign(name, hash_name, message), True, "valid, salt length = hash length")
    add("rsa2048", "sha256", b"", sign("rsa2048", "sha256", b""), True, "valid, empty message")

    message = b"eyJhbGciOiJQUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9"
    for name in ("rsa2048", "rsa2049"):
        for hash_name in HASHES:
            add(name, hash_name, message, sign(name, hash_name, message, salt_length=0), False, "salt length 0")
            add(name, hash_name, message, sign(name, hash_name, message, salt_length=padding.PSS.MAX_LENGTH), False, "maximal salt length")
            h_len = HASHES[hash_name][0].digest_size
            add(name, hash_name, message, sign(name, hash_name, message, salt_length=h_len + 1), False, "salt length hLen + 1")
            add(name, hash_name, message, sign(name, hash_name, message, salt_length=h_len - 1), False, "salt length hLen - 1")
    add("rsa2048", "sha256", message, sign("rsa2048", "sha256", message, mgf_hash=hashes.SHA512), False, "MGF1 with SHA-512")
    add("rsa2048", "sha512", message, sign("rsa2048", "sha512", message, mgf_hash=hashes.SHA256), False, "MGF1 with SHA-256")
    add("rsa2048", "sha384", message, sign("rsa2048", "sha384", message, salt_length=32), False, "salt as long as SHA-256")

    for name in private:
        n = private[name].public_key().public_numbers().n
        k = (n.bit_length() + 7) // 8
        good = sign(name, "sha256", message)
        add(name, "sha256", message + b"x", good, False, "tampered message")
        flipped = bytearray(good)
        flipped[k // 2] ^= 0x01
        add(name, "sha256", message, bytes(flipped), False, "signature bit flip")
        add(name, "sha256", message, good[:-1], False, "signature one byte short")
        add(name, "sha256", message, b"\x00" + good, False, "signature one byte long (leading zero)")
        add(name, "sha256", message, int_bytes(n, k), False, "s = n")
        add(name, "sha256", message, private[name].sign(message, padding.PKCS1v15(), hashes.SHA256()), False, "PKCS#1 v1.5 signature")
        add(name, "sha256", message, raw(name, "sha256", message), True, "raw RSA on the encoding made here")

    # One step of EMSA-PSS-VERIFY (RFC 8017 §9.1.2) broken each.
    broken = [("trailer bd", "step 4: trailer octet bd, not bc"),
              ("first padding octet 01", "step 10: first octet of the zero padding is 01"),
              ("last padding octet 01", "step 10: last octet of the zero padding is 01"),
              ("separator 00", "step 10: separator 00, not 01"),
              ("separator 02", "step 10: separator 02, not 01"),
              ("salt changed", "step 14: salt changed after H was computed"),
              ("no M' zeros", "step 12: H over mHash and salt without the eight zero octets")]
    for name, hash_name in (("rsa2048", "sha256"), ("rsa2048", "sha512"), ("rsa2049", "sha384"), ("rsa2050", "sha256")):
        for spoil, comment in broken:
            add(name, hash_name, message, raw(name, hash_name, message, breaks=(spoil,)), False, comment)
    # Step 6: an unused high bit of EM set; it is cleared in DB at step 9, so only step 6 refuses it.
    # Only the lowest unused bit can be set with EM still below n: for 2050 bits it is 0x02, not 0x80.
    for name in ("rsa2048", "rsa2050", "rsa3072"):
        for hash_name in HASHES:
            add(name, hash_name, message, raw(name, hash_name, message, breaks=("lowest unused bit set",)), False,
                "step 6: the lowest unused bit of EM's first octet set")
    # §8.1.2 step 2c: for 2049 bits EM has 256 octets; m = 2^2048 + EM needs 257 and is refused.
    n2049 = private["rsa2049"].public_key().public_numbers().n
    while True:
        encoded = pss_encode(message, 2048, "sha256")
        m = (1 << 2048) + int.from_bytes(encoded, "big")
        if m < n2049:
            add("rsa2049", "sha256", message, raw_sign(private["rsa2049"], int_bytes(m, 257)), False,
                "step 2c: m needs 257 octets, emLen is 256")
            break

    document = {"generator": "Tests/Fixtures/crypto/make_rsa_pss_vectors.py", "keys": keys, "signatures": signatures}
    with open(out, "w") as handle:
        json.dump(document, handle, indent=0)
        handle.write("\n")


if __name__ == "__main__":
    main()
