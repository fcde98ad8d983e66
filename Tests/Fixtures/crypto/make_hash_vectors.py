#!/usr/bin/env python3
"""Generate SHA-256 / HMAC-SHA256 / PBKDF2-HMAC-SHA256 vectors for IdentityFlow.

Usage: make_hash_vectors.py [OUTPUT.json]

One case for EVERY message length 0...300, with random (seeded) message, key and salt bytes,
so every padding position and block count is covered. Each expected value is computed by
Python's hashlib/hmac and by the `cryptography` package; the script stops if they disagree.
"""
import hashlib
import hmac
import json
import random
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives import hmac as chmac
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC


def sha256(data):
    ours = hashlib.sha256(data).digest()
    digest = hashes.Hash(hashes.SHA256())
    digest.update(data)
    assert digest.finalize() == ours
    return ours


def hmac_sha256(key, data):
    ours = hmac.new(key, data, hashlib.sha256).digest()
    mac = chmac.HMAC(key, hashes.SHA256())
    mac.update(data)
    assert mac.finalize() == ours
    return ours


def pbkdf2(password, salt, iterations, length):
    ours = hashlib.pbkdf2_hmac("sha256", password, salt, iterations, length)
    theirs = PBKDF2HMAC(algorithm=hashes.SHA256(), length=length, salt=salt, iterations=iterations).derive(password)
    assert theirs == ours
    return ours


def main():
    rng = random.Random(20261122)
    cases = []
    for length in range(301):
        data = rng.randbytes(length)
        key = rng.randbytes(rng.choice([0, 1, 32, 63, 64, 65, 100, 131, rng.randrange(0, 301)]))
        salt = rng.randbytes(rng.randrange(0, 80))
        iterations = rng.randrange(1, 6)
        key_length = rng.randrange(1, 100)
        cases.append({
            "data": data.hex(),
            "key": key.hex(),
            "salt": salt.hex(),
            "iterations": iterations,
            "keyLength": key_length,
            "sha256": sha256(data).hex(),
            "hmac": hmac_sha256(key, data).hex(),
            "pbkdf2": pbkdf2(data, salt, iterations, key_length).hex(),
        })
    text = json.dumps({"generator": "Tests/Fixtures/crypto/make_hash_vectors.py", "cases": cases}, indent=0) + "\n"
    if len(sys.argv) > 1:
        with open(sys.argv[1], "w") as out:
            out.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
