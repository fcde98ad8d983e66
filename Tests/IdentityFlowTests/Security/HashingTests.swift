import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

@Suite("SHA-256 (FIPS 180-4)")
struct SHA256Tests {
    @Test("FIPS 180-4 example: \"abc\"")
    func oneBlock() {
        #expect(SecurityTestHex.encode(Hashing.sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("FIPS 180-4 example: the 448-bit two-block message")
    func twoBlocks() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(SecurityTestHex.encode(Hashing.sha256(message)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("FIPS 180-4 example: one million 'a'")
    func millionA() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SecurityTestHex.encode(Hashing.sha256(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("Empty input")
    func empty() {
        let expected = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        #expect(SecurityTestHex.encode(Hashing.sha256([UInt8]())) == expected)
        #expect(SecurityTestHex.encode(Hashing.sha256("")) == expected)
        #expect(SecurityTestHex.encode(Hashing.sha256(Data())) == expected)
    }

    @Test(
        "Padding boundaries: 55, 56, 63, 64 and 65 bytes of 'a'",
        arguments: [
            (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
            (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
            (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        ])
    func boundaries(length: Int, expected: String) {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(SecurityTestHex.encode(Hashing.sha256(message)) == expected)
        // The pure-Swift engine is checked directly too, since Apple platforms use CryptoKit above.
        #expect(SecurityTestHex.encode(SHA256.hash(message)) == expected)
    }

    @Test("Data, String, Array and non-contiguous collections hash alike")
    func overloads() {
        let text = "IdentityFlow \u{1F511} é"
        let bytes = Array(text.utf8)
        let expected = Hashing.sha256(bytes)
        #expect(Hashing.sha256(text) == expected)
        #expect(Hashing.sha256(Data(bytes)) == expected)
        #expect(Hashing.sha256(bytes[...]) == expected)
        #expect(Hashing.sha256(text.utf8) == expected)
        #expect(SHA256.hash(text.utf8) == expected)
        #expect(expected.count == 32)
    }
}

@Suite("HMAC-SHA256 (RFC 4231)")
struct HMACSHA256Tests {
    static let cases: [(name: String, key: [UInt8], data: [UInt8], mac: String)] = [
        (
            "1", [UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        (
            "2", Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        (
            "3", [UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
            "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        (
            "4", Array(1...25), [UInt8](repeating: 0xcd, count: 50),
            "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        (
            "5 (truncated to 128 bits)", [UInt8](repeating: 0x0c, count: 20), Array("Test With Truncation".utf8),
            "a3b6167473100ee06e0c796c2955552b"
        ),
        (
            "6", [UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        (
            "7", [UInt8](repeating: 0xaa, count: 131),
            Array(
                "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
                    .utf8),
            "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ]

    @Test("RFC 4231 test cases 1-7", arguments: 0..<7)
    func rfc4231(index: Int) {
        let testCase = Self.cases[index]
        let expectedCount = testCase.mac.count / 2
        let mac = Hashing.hmacSHA256(key: testCase.key, message: testCase.data)
        #expect(mac.count == 32)
        #expect(SecurityTestHex.encode(mac.prefix(expectedCount)) == testCase.mac, "case \(testCase.name)")
        let ownMAC = HMACSHA256(key: testCase.key).authenticationCode(for: testCase.data)
        #expect(SecurityTestHex.encode(ownMAC.prefix(expectedCount)) == testCase.mac, "pure-Swift, case \(testCase.name)")
    }

    @Test("A key of exactly one block is used as is, one byte more is hashed first")
    func blockSizedKeys() {
        let message = Array("message".utf8)
        let key64 = [UInt8](repeating: 0x42, count: 64)
        let key65 = [UInt8](repeating: 0x42, count: 65)
        #expect(Hashing.hmacSHA256(key: key65, message: message) == Hashing.hmacSHA256(key: Hashing.sha256(key65), message: message))
        #expect(Hashing.hmacSHA256(key: key64, message: message) != Hashing.hmacSHA256(key: Hashing.sha256(key64), message: message))
    }
}
