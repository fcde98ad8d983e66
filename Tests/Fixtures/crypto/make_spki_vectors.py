#!/usr/bin/env python3
"""Generate SubjectPublicKeyInfo vectors for the Apple pinning path's SPKI headers.

Usage: make_spki_vectors.py [OUTPUT.json]

For each key type and size Apple's `SecKeyCopyExternalRepresentation` can hand over (RSA 2048,
3072, 4096: the PKCS #1 RSAPublicKey; EC P-256, P-384, P-521: the uncompressed X9.63 point), one
fresh key with both encodings, each made by the `cryptography` package: `spki` (DER
SubjectPublicKeyInfo, what certificate pins hash) and `raw` (Apple's external representation).
"""
import base64
import json
import sys

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

Encoding = serialization.Encoding
Format = serialization.PublicFormat


def vector(kind, bits, public):
    spki = public.public_bytes(Encoding.DER, Format.SubjectPublicKeyInfo)
    if kind == "rsa":
        raw = public.public_bytes(Encoding.DER, Format.PKCS1)
    else:
        raw = public.public_bytes(Encoding.X962, Format.UncompressedPoint)
    assert spki.endswith(raw)
    return {"kind": kind, "bits": bits, "spki": base64.b64encode(spki).decode(), "raw": base64.b64encode(raw).decode()}


vectors = [vector("rsa", bits, rsa.generate_private_key(65537, bits).public_key()) for bits in (2048, 3072, 4096)]
curves = {256: ec.SECP256R1(), 384: ec.SECP384R1(), 521: ec.SECP521R1()}
vectors += [vector("ec", bits, ec.generate_private_key(curve).public_key()) for bits, curve in curves.items()]
output = sys.argv[1] if len(sys.argv) > 1 else "spki-vectors.json"
with open(output, "w") as f:
    json.dump(vectors, f, indent=1)
    f.write("\n")
