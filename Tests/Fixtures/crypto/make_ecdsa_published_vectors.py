#!/usr/bin/env python3
"""Write ecdsa-published-vectors.json: published ECDSA vectors on P-384 and P-521, each checked with
Python's `cryptography` before it is written (a vector it disagrees with stops the script).

Usage: make_ecdsa_published_vectors.py TV_ECDSA_VERIFY_JS [OUTPUT.json]
       (default output: ecdsa-published-vectors.json next to this script)

Two sources:
  RFC 6979 §A.2.6 (P-384) and §A.2.7 (P-521): the key pair and the signatures of "sample" and
      "test" with SHA-256, SHA-384 and SHA-512 (deterministic nonces; a verifier needs only r and
      s). The values are written below; the public key is also derived from the private one.
  NIST CAVP SigVer (FIPS 186-3 ECDSA), as Microsoft's msrCrypto carries it in
      scripts/testVectors/tv_ecdsa.verify.js (TV_ECDSA_VERIFY_JS): the groups P-384 with SHA-384
      and SHA-512, P-521 with SHA-256 and SHA-512, 15 vectors each, valid or with the message, the
      key, r or s changed.
Each vector: {source, curve, x, y (hex, coordinate length), hash, message (hex), signature (hex,
r || s), valid}. Requires the `cryptography` package.
"""
import json
import os
import re
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

CURVES = {"P-384": (ec.SECP384R1(), 48), "P-521": (ec.SECP521R1(), 66)}
HASHES = {"sha256": hashes.SHA256, "sha384": hashes.SHA384, "sha512": hashes.SHA512}

# RFC 6979 A.2.6 and A.2.7: private key x, public key U = xG, and (r, s) by message and hash.
RFC6979 = {
    "P-384": {
        "x": 0x6B9D3DAD2E1B8C1C05B19875B6659F4DE23C3B667BF297BA9AA47740787137D896D5724E4C70A825F872C9EA60D2EDF5,
        "ux": 0xEC3A4E415B4E19A4568618029F427FA5DA9A8BC4AE92E02E06AAE5286B300C64DEF8F0EA9055866064A254515480BC13,
        "uy": 0x8015D9B72D7D57244EA8EF9AC0C621896708A59367F9DFB9F54CA84B3F1C9DB1288B231C3AE0D4FE7344FD2533264720,
        "signatures": [
            ("sample", "sha256", 0x21B13D1E013C7FA1392D03C5F99AF8B30C570C6F98D4EA8E354B63A21D3DAA33BDE1E888E63355D92FA2B3C36D8FB2CD,
             0xF3AA443FB107745BF4BD77CB3891674632068A10CA67E3D45DB2266FA7D1FEEBEFDC63ECCD1AC42EC0CB8668A4FA0AB0),
            ("sample", "sha384", 0x94EDBB92A5ECB8AAD4736E56C691916B3F88140666CE9FA73D64C4EA95AD133C81A648152E44ACF96E36DD1E80FABE46,
             0x99EF4AEB15F178CEA1FE40DB2603138F130E740A19624526203B6351D0A3A94FA329C145786E679E7B82C71A38628AC8),
            ("sample", "sha512", 0xED0959D5880AB2D869AE7F6C2915C6D60F96507F9CB3E047C0046861DA4A799CFE30F35CC900056D7C99CD7882433709,
             0x512C8CCEEE3890A84058CE1E22DBC2198F42323CE8ACA9135329F03C068E5112DC7CC3EF3446DEFCEB01A45C2667FDD5),
            ("test", "sha256", 0x6D6DEFAC9AB64DABAFE36C6BF510352A4CC27001263638E5B16D9BB51D451559F918EEDAF2293BE5B475CC8F0188636B,
             0x2D46F3BECBCC523D5F1A1256BF0C9B024D879BA9E838144C8BA6BAEB4B53B47D51AB373F9845C0514EEFB14024787265),
            ("test", "sha384", 0x8203B63D3C853E8D77227FB377BCF7B7B772E97892A80F36AB775D509D7A5FEB0542A7F0812998DA8F1DD3CA3CF023DB,
             0xDDD0760448D42D8A43AF45AF836FCE4DE8BE06B485E9B61B827C2F13173923E06A739F040649A667BF3B828246BAA5A5),
            ("test", "sha512", 0xA0D5D090C9980FAF3C2CE57B7AE951D31977DD11C775D314AF55F76C676447D06FB6495CD21B4B6E340FC236584FB277,
             0x976984E59B4C77B0E8E4460DCA3D9F20E07B9BB1F63BEEFAF576F6B2E8B224634A2092CD3792E0159AD9CEE37659C736),
        ],
    },
    "P-521": {
        "x": 0x0FAD06DAA62BA3B25D2FB40133DA757205DE67F5BB0018FEE8C86E1B68C7E75CAA896EB32F1F47C70855836A6D16FCC1466F6D8FBEC67DB89EC0C08B0E996B83538,
        "ux": 0x1894550D0785932E00EAA23B694F213F8C3121F86DC97A04E5A7167DB4E5BCD371123D46E45DB6B5D5370A7F20FB633155D38FFA16D2BD761DCAC474B9A2F5023A4,
        "uy": 0x0493101C962CD4D2FDDF782285E64584139C2F91B47F87FF82354D6630F746A28A0DB25741B5B34A828008B22ACC23F924FAAFBD4D33F81EA66956DFEAA2BFDFCF5,
        "signatures": [
            ("sample", "sha256", 0x1511BB4D675114FE266FC4372B87682BAECC01D3CC62CF2303C92B3526012659D16876E25C7C1E57648F23B73564D67F61C6F14D527D54972810421E7D87589E1A7,
             0x04A171143A83163D6DF460AAF61522695F207A58B95C0644D87E52AA1A347916E4F7A72930B1BC06DBE22CE3F58264AFD23704CBB63B29B931F7DE6C9D949A7ECFC),
            ("sample", "sha384", 0x1EA842A0E17D2DE4F92C15315C63DDF72685C18195C2BB95E572B9C5136CA4B4B576AD712A52BE9730627D16054BA40CC0B8D3FF035B12AE75168397F5D50C67451,
             0x1F21A3CEE066E1961025FB048BD5FE2B7924D0CD797BABE0A83B66F1E35EEAF5FDE143FA85DC394A7DEE766523393784484BDF3E00114A1C857CDE1AA203DB65D61),
            ("sample", "sha512", 0x0C328FAFCBD79DD77850370C46325D987CB525569FB63C5D3BC53950E6D4C5F174E25A1EE9017B5D450606ADD152B534931D7D4E8455CC91F9B15BF05EC36E377FA,
             0x0617CCE7CF5064806C467F678D3B4080D6F1CC50AF26CA209417308281B68AF282623EAA63E5B5C0723D8B8C37FF0777B1A20F8CCB1DCCC43997F1EE0E44DA4A67A),
            ("test", "sha256", 0x00E871C4A14F993C6C7369501900C4BC1E9C7B0B4BA44E04868B30B41D8071042EB28C4C250411D0CE08CD197E4188EA4876F279F90B3D8D74A3C76E6F1E4656AA8,
             0x0CD52DBAA33B063C3A6CD8058A1FB0A46A4754B034FCC644766CA14DA8CA5CA9FDE00E88C1AD60CCBA759025299079D7A427EC3CC5B619BFBC828E7769BCD694E86),
            ("test", "sha384", 0x14BEE21A18B6D8B3C93FAB08D43E739707953244FDBE924FA926D76669E7AC8C89DF62ED8975C2D8397A65A49DCC09F6B0AC62272741924D479354D74FF6075578C,
             0x133330865C067A0EAF72362A65E2D7BC4E461E8C8995C3B6226A21BD1AA78F0ED94FE536A0DCA35534F0CD1510C41525D163FE9D74D134881E35141ED5E8E95B979),
            ("test", "sha512", 0x13E99020ABF5CEE7525D16B69B229652AB6BDF2AFFCAEF38773B4B7D08725F10CDB93482FDCC54EDCEE91ECA4166B2A7C6265EF0CE2BD7051B7CEF945BABD47EE6D,
             0x1FBD0013C674AA79CB39849527916CE301C66EA7CE8B80682786AD60F98F7E78A19CA69EFF5C57400E3B3A0AD66CE0978214D13BAF4E9AC60752F7B155E2DE4DCE3),
        ],
    },
}

CAVP_GROUPS = [("P-384", "sha384"), ("P-384", "sha512"), ("P-521", "sha256"), ("P-521", "sha512")]


def cryptography_accepts(curve, x, y, hash_name, message, r, s):
    try:
        key = ec.EllipticCurvePublicNumbers(x, y, CURVES[curve][0]).public_key()
    except ValueError:
        return False  # not a point of the curve
    try:
        key.verify(encode_dss_signature(r, s), message, ec.ECDSA(HASHES[hash_name]()))
        return True
    except InvalidSignature:
        return False


def cavp_vectors(path):
    """The SigVer groups of CAVP_GROUPS from msrCrypto's tv_ecdsa.verify.js, a JavaScript object
    literal: curve names, then {"hashName": "SHA-384", "vectors": [{data, qx, qy, r, s, result}]}."""
    text = open(path).read()
    curves = {m.group(1): m.start() for m in re.finditer(r'"(P-\d+)": \[', text)}
    vectors = []
    for curve, hash_name in CAVP_GROUPS:
        start = curves[curve]
        ends = sorted(v for v in curves.values() if v > start)
        section = text[start:ends[0] if ends else len(text)]
        groups = re.split(r'"hashName": ', section)
        group = next(g for g in groups if g.startswith('"SHA-%s"' % hash_name[3:]))
        for body in re.findall(r"\{(.*?)\}", group, re.S):
            fields = dict(re.findall(r'"(\w+)"\s*(?:/\*[^*]*\*/)?\s*:\s*"?(\w+)"?', body))
            reason = re.search(r"/\*([^*]*)\*/", body)
            fields["reason"] = reason.group(1) if reason else "valid"
            vectors.append((curve, hash_name, fields))
    return vectors


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "ecdsa-published-vectors.json")
    vectors = []

    def add(source, curve, x, y, hash_name, message, r, s, valid):
        size = CURVES[curve][1]
        accepted = cryptography_accepts(curve, x, y, hash_name, message, r, s)
        assert accepted == valid, f"{source}: cryptography says {accepted}"
        vectors.append({"source": source, "curve": curve, "x": x.to_bytes(size, "big").hex(), "y": y.to_bytes(size, "big").hex(),
                        "hash": hash_name, "message": message.hex(),
                        "signature": (r.to_bytes(size, "big") + s.to_bytes(size, "big")).hex(), "valid": valid})

    for curve, values in RFC6979.items():
        derived = ec.derive_private_key(values["x"], CURVES[curve][0]).public_key().public_numbers()
        assert (derived.x, derived.y) == (values["ux"], values["uy"]), f"RFC 6979 {curve}: U is not xG"
        section = "A.2.6" if curve == "P-384" else "A.2.7"
        for message, hash_name, r, s in values["signatures"]:
            add(f"RFC 6979 {section}, {hash_name}, \"{message}\"", curve, values["ux"], values["uy"], hash_name, message.encode(), r, s, True)

    for index, (curve, hash_name, fields) in enumerate(cavp_vectors(sys.argv[1])):
        valid = fields["result"] == "true"
        add(f"NIST CAVP SigVer [{curve},SHA-{hash_name[3:]}] #{index % 15 + 1} ({fields['reason']})", curve, int(fields["qx"], 16), int(fields["qy"], 16),
            hash_name, bytes.fromhex(fields["data"]), int(fields["r"], 16), int(fields["s"], 16), valid)

    document = {"generator": "Tests/Fixtures/crypto/make_ecdsa_published_vectors.py", "vectors": vectors}
    with open(out, "w") as handle:
        json.dump(document, handle, indent=0)
        handle.write("\n")


if __name__ == "__main__":
    main()
