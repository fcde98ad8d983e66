#!/usr/bin/env python3
"""Write the FileStorage directory a PIN proof v1 client left behind, for the migration test.

Usage: make_v1_profile.py   (writes storage/ next to this script)

One profile, `v1-profile`, of user alice, enrolled with PIN 24680, salt 00..0f, 16 iterations,
with biometrics registered the v1 way: the v1 key (the server's verifier) stored with the
profile. Its tokens are stale strings the reference server never issued. The JSON is what v1's
JSONEncoder wrote; the file name is FileStorage's: base64url(key) + ".value".
"""
import base64
import hashlib
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
key = hashlib.pbkdf2_hmac("sha256", b"24680", bytes(range(16)), 16, 32)
profile = {
    "tokens": {"accessToken": "at-v1-stale", "refreshToken": "rt-v1-stale", "scopes": ["openid"]},
    "profile": {"profileId": "v1-profile"},
    "biometricKey": list(key),
}
name = base64.urlsafe_b64encode(b"identityflow.profile.v1-profile").rstrip(b"=").decode() + ".value"
os.makedirs(os.path.join(here, "storage"), exist_ok=True)
with open(os.path.join(here, "storage", name), "w") as file:
    file.write(json.dumps(profile, separators=(",", ":")))
print(name)
