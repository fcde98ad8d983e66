import CIdentityFlowCrypto
import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

@Suite("SHA-512 and SHA-384 (FIPS 180-4)")
struct SHA512Tests {
    /// FIPS 180-4's two-block example for the 1024-bit block: 896 bits.
    static let twoBlockMessage = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"

    /// The NIST examples (FIPS 180-4 / the CSRC example values): message, SHA-512, SHA-384.
    static let examples: [(message: String, sha512: String, sha384: String)] = [
        (
            "",
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
            "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b"
        ),
        (
            "abc",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
            "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
        ),
        (
            twoBlockMessage,
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
            "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039"
        ),
    ]

    @Test("NIST examples: empty, \"abc\" and the 896-bit two-block message", arguments: 0..<3)
    func examples(index: Int) {
        let example = Self.examples[index]
        let message = Array(example.message.utf8)
        #expect(SecurityTestHex.encode(Hashing.sha512(message)) == example.sha512)
        #expect(SecurityTestHex.encode(Hashing.sha384(message)) == example.sha384)
        // The pure-Swift engine directly too, since Apple platforms use CryptoKit above.
        #expect(SecurityTestHex.encode(SHA512.hash(message)) == example.sha512)
        #expect(SecurityTestHex.encode(SHA512.hash(message, variant: .sha384)) == example.sha384)
    }

    /// Made with `python3 -c 'import hashlib; [print(n, hashlib.sha512(b"a"*n).hexdigest(), hashlib.sha384(b"a"*n).hexdigest()) for n in (111, 112, 113, 127, 128, 129, 239, 240)]'`.
    /// 111 bytes is the longest tail padded in one block, 112 the shortest in two; 128 and 240 whole-block and two-block neighbours.
    @Test(
        "Padding boundaries: 111, 112, 113, 127, 128, 129, 239 and 240 bytes of 'a'",
        arguments: [
            (
                111, "fa9121c7b32b9e01733d034cfc78cbf67f926c7ed83e82200ef86818196921760b4beff48404df811b953828274461673c68d04e297b0eb7b2b4d60fc6b566a2",
                "3c37955051cb5c3026f94d551d5b5e2ac38d572ae4e07172085fed81f8466b8f90dc23a8ffcdea0b8d8e58e8fdacc80a"
            ),
            (
                112, "c01d080efd492776a1c43bd23dd99d0a2e626d481e16782e75d54c2503b5dc32bd05f0f1ba33e568b88fd2d970929b719ecbb152f58f130a407c8830604b70ca",
                "187d4e07cb306103c69967bf544d0dfbe9042577599c73c330abc0cb64c61236d5ed565ee19119d8c31779a38f791fcd"
            ),
            (
                113, "55ddd8ac210a6e18ba1ee055af84c966e0dbff091c43580ae1be703bdb85da31acf6948cf5bd90c55a20e5450f22fb89bd8d0085e39f85a86cc46abbca75e24d",
                "1d6bed01626682961b50da078a6b1da707c1da0c8a0a3226f159235bd45ed724a0622fa6f39fd70007a6c72a5cda43ae"
            ),
            (
                127, "828613968b501dc00a97e08c73b118aa8876c26b8aac93df128502ab360f91bab50a51e088769a5c1eff4782ace147dce3642554199876374291f5d921629502",
                "9bd06b1763c2cf7aef40e795dc65bc96d59c41b537f3ad72ebdefd485476b5717c1aeb37c327fe9c1831b12b9efd08ae"
            ),
            (
                128, "b73d1929aa615934e61a871596b3f3b33359f42b8175602e89f7e06e5f658a243667807ed300314b95cacdd579f3e33abdfbe351909519a846d465c59582f321",
                "edb12730a366098b3b2beac75a3bef1b0969b15c48e2163c23d96994f8d1bef760c7e27f3c464d3829f56c0d53808b0b"
            ),
            (
                129, "4f681e0bd53cda4b5a2041cc8a06f2eabde44fb16c951fbd5b87702f07aeab611565b19c47fde30587177ebb852e3971bbd8d3fd30da18d71037dfbd98420429",
                "39b6f5a7b0e781dbc419f72e49b30eaac10f2c98c4403bc610da31067fd1b48f324138c8615d2b496d08d73d5e865326"
            ),
            (
                239, "52c853cb8d907f3d4d6b889beb027985d7c273486d75f8baf26f80d24e90c74c6c3de3e22131582380a7d14d43f2941a31385439cd6ddc469f628015e50bf286",
                "e247c35f4bc1aa38026f8880c8c97305545d00d3f859e00c57d1c1f0a176b3c6b749c4eb081f08bd0fba500969cd056a"
            ),
            (
                240, "4c296d90c61052a62ffb1dd196f1b7b09373b1f93e71836baebf89690546b7595684dbe9467a8e484fa0d1094272b4344a7c24f5fee8daedeb0bf549c985ab5f",
                "4d86957beab348a29180f02d02564ac1d32f5b4c217ece2b038f7c184f0cafc8c8e438eb82aa03796170e0a7ce8c0675"
            ),
        ])
    func boundaries(length: Int, sha512: String, sha384: String) {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(SecurityTestHex.encode(SHA512.hash(message)) == sha512)
        #expect(SecurityTestHex.encode(SHA512.hash(message, variant: .sha384)) == sha384)
    }

    @Test("Hashing.Function hashes with the function it names; Data, arrays and slices hash alike")
    func functions() {
        let bytes = Array("IdentityFlow \u{1F511} é".utf8)
        #expect(Hashing.Function.sha256.hash(bytes) == Hashing.sha256(bytes))
        #expect(Hashing.Function.sha384.hash(bytes) == Hashing.sha384(bytes))
        #expect(Hashing.Function.sha512.hash(bytes) == Hashing.sha512(bytes))
        #expect([Hashing.Function.sha256, .sha384, .sha512].map { $0.hash(bytes).count } == [32, 48, 64])
        #expect(Hashing.sha512(Data(bytes)) == Hashing.sha512(bytes))
        #expect(Hashing.sha384(bytes[...]) == Hashing.sha384(bytes))
    }

    /// The JSON written by Tests/Fixtures/crypto/make_sha512_vectors.py: hashlib and `cryptography`
    /// digests of random messages of every length 0...300 and of long patterned ones.
    struct VectorDocument: Decodable {
        struct Case: Decodable { let message: String, sha384: String, sha512: String }
        struct Patterned: Decodable { let length: Int, sha384: String, sha512: String }
        let cases: [Case]
        let patterned: [Patterned]

        static func load() throws -> VectorDocument {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/crypto/sha512-vectors.json")
            return try JSONDecoder().decode(VectorDocument.self, from: Data(contentsOf: url))
        }
    }

    @Test("The C engine against Python's hashlib and cryptography: every length 0...300, and 1 KiB to 64 KiB patterned messages")
    func pythonVectors() throws {
        let document = try VectorDocument.load()
        #expect(document.cases.count == 301)
        for (length, testCase) in document.cases.enumerated() {
            let message = try #require(SecurityTestHex.decode(testCase.message))
            try #require(message.count == length)
            #expect(SecurityTestHex.encode(SHA512.hash(message)) == testCase.sha512, "length \(length)")
            #expect(SecurityTestHex.encode(SHA512.hash(message, variant: .sha384)) == testCase.sha384, "length \(length)")
            #expect(SecurityTestHex.encode(SHA512.hash(message[...].lazy.map { $0 })) == testCase.sha512, "length \(length), non-contiguous")
        }
        for testCase in document.patterned {
            let message = (0..<testCase.length).map { UInt8(truncatingIfNeeded: 31 * $0 + 7) }
            #expect(SecurityTestHex.encode(SHA512.hash(message)) == testCase.sha512, "length \(testCase.length)")
            #expect(SecurityTestHex.encode(SHA512.hash(message, variant: .sha384)) == testCase.sha384, "length \(testCase.length)")
        }
    }

    @Test(
        "The AVX-512 engine (schedule in vector registers) and the portable one agree: random messages of every length 0...300 and of 1 KiB to 64 KiB",
        .enabled(if: ifc_sha512_has_vector_schedule() == 1, "this CPU or OS has no AVX-512F/VL with BMI2, so ifc_sha512 runs a scalar engine")
    )
    func vectorScheduleAgreesWithPortable() {
        var generator = SystemRandomNumberGenerator()
        let lengths = Array(0...300) + [1024, 4096 + 17, 16384, 65536 + 111]
        for length in lengths {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for digestLength in [48, 64] {
                var chosen = [UInt8](repeating: 0, count: digestLength), portable = chosen
                #expect(ifc_sha512(&chosen, digestLength, message, length) == 1)
                #expect(ifc_sha512_portable(&portable, digestLength, message, length) == 1)
                #expect(chosen == portable, "length \(length), digest \(digestLength) bytes")
            }
        }
    }
}
