/// A fixed RSA-2048 public key (e = 65537) and a valid PKCS#1 v1.5 SHA-256 signature of the
/// empty message, from Tests/Fixtures/crypto/rsa-vectors.json, for the k5 row.
enum BenchRSAKey {
    static let modulus = bytes(
        "a91272efdfc1f9a1c579593f96eacc111372c797a472b804381fa75b4fd06d3b3b864a37440e69cb7b91d6c3fc90cf88",
        "afa12dc1b5386443c3c073d58e41101cf74c50d0755847839c1ee9235c524ceddcd5bb84e5f8d927b2a91f6e87600aec",
        "74136898d2cf44098f2d81031d2df88c7d79a3dd89602c62569998f8298269ec01ddb2902ff8383b090a1adecdfe8222",
        "c68fdaab5630df8df12f150009980f2f3c2852d5206749c561f44fa9c978568dd2d1af4fd3d7e0295db5d94df9fafa35",
        "977129f84e8e13bb1751f9d3827b971cbc3a698cbe022c97358d46da9ee949bd67ecdbc315a6ba4767cda92c3b2efd6c",
        "0ddfc238be40a4d96276f100a8655571")
    static let exponent: [UInt8] = [0x01, 0x00, 0x01]
    static let message: [UInt8] = []
    static let signature = bytes(
        "28f278a5ef4f9540e2472784de07a4f1265566ff67469bff8ef1ccf0e47201158f5e50ce0d4425be754e6fc78b5f4e11",
        "a007f5b852ed3842db973a2a77711873befa9c18affdf2df030dbb0932115fb34855d25c700acaa739662b01ba5f7193",
        "1a6c623bcc1ef6ed5f509ed97c991ae20f254a55986767b210d0860557baf7b20faf96a3136112998410d263e32f1d67",
        "f3c0c49660df8af9d032a5e4de28a8f7492aa8269889eddb7c844ad6a33384d6f9aa2426e9ac9a31d87f9b413dade618",
        "3f4453061405d13954acbf736b9346ae2c84114e1a470c36177ef6129eb6f6f8616e646802b19fb79ad31a3d1431402e",
        "ae517ab7648eee94f24f31b77835d30e")

    private static func bytes(_ hex: String...) -> [UInt8] {
        let text = Array(hex.joined().utf8)
        return stride(from: 0, to: text.count, by: 2).map { UInt8(String(decoding: text[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0 }
    }
}
