#!/usr/bin/env python3
"""Print the constants block of Sources/CIdentityFlowCrypto/P256Verify.c, P384.c or P521.c.

Usage: make_curve_constants.py P-256|P-384|P-521

p from its definition, n and G from the `cryptography` package, b from G (a = -3); then the forms
ECFieldTemplate.h takes: 64-bit limbs least significant first, Montgomery form with
R = 2^(64 LIMBS) for field values (R mod p is 1 in it), -p^-1 and -n^-1 mod 2^64, R^2 mod p and n.
P-521's field values are plain (P521.c reduces by p = 2^521 - 1's shape): its field "R" is 1.
"""
import sys

from cryptography.hazmat.primitives.asymmetric import ec

CURVES = {"P-256": (ec.SECP256R1(), 2**256 - 2**224 + 2**192 + 2**96 - 1, 4),
          "P-384": (ec.SECP384R1(), 2**384 - 2**128 - 2**96 + 2**32 - 1, 6),
          "P-521": (ec.SECP521R1(), 2**521 - 1, 9)}


def felem(name, value, limbs):
    words = ", ".join("0x%016XULL" % ((value >> (64 * i)) & (2**64 - 1)) for i in range(limbs))
    return f"static const felem {name} = {{{words}}};"


def main():
    curve, p, limbs = CURVES[sys.argv[1]]
    n = curve.group_order
    g = ec.derive_private_key(1, curve).public_key().public_numbers()
    b = (g.y * g.y - g.x ** 3 + 3 * g.x) % p
    r = 2 ** (64 * limbs)
    field_r = 1 if sys.argv[1] == "P-521" else r
    print(felem("FIELD_P", p, limbs))
    print(felem("FIELD_ONE", field_r % p, limbs))
    if field_r != 1:
        print(felem("FIELD_RR", r * r % p, limbs))
    if field_r != 1 and sys.argv[1] != "P-256":  # P-256 reduces by its shape, where -p^-1 is 1
        print("static const uint64_t FIELD_P_INV = 0x%016XULL;" % (-pow(p, -1, 2**64) % 2**64))
    print(felem("FIELD_B", b * field_r % p, limbs))
    print(felem("ORDER_N", n, limbs))
    print(felem("ORDER_ONE", r % n, limbs))
    print(felem("ORDER_RR", r * r % n, limbs))
    print("static const uint64_t ORDER_N_INV = 0x%016XULL;" % (-pow(n, -1, 2**64) % 2**64))
    print(felem("GENERATOR_X", g.x * field_r % p, limbs))
    print(felem("GENERATOR_Y", g.y * field_r % p, limbs))
    print(felem("P_MINUS_N", p - n, limbs))


if __name__ == "__main__":
    main()
