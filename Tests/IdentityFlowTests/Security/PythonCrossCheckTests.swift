import Testing
@_spi(Integrator) @testable import IdentityFlow

@Suite(
    "Cross-checks against Python's hashlib, hmac and integers",
    .enabled(if: SecurityTestPython.isAvailable, "python3 not found (set IDENTITYFLOW_PYTHON or put python3 on PATH)")
)
struct PythonCrossCheckTests {
    @Test("SHA-256, HMAC-SHA256 and PBKDF2-HMAC-SHA256 agree with Python on random inputs")
    func hashes() throws {
        struct Case {
            let data: [UInt8], key: [UInt8], salt: [UInt8], iterations: Int, keyLength: Int
        }
        let boundaryLengths = [0, 1, 55, 56, 63, 64, 65, 119, 120, 127, 128, 129]
        let cases = (0..<50).map { index in
            let dataLength = index < boundaryLengths.count ? boundaryLengths[index] : Int.random(in: 0...300)
            return Case(
                data: SecurityTestRandom.bytes(dataLength),
                key: SecurityTestRandom.bytes(Int.random(in: 0...300)),
                salt: SecurityTestRandom.bytes(Int.random(in: 0...300)),
                iterations: Int.random(in: 1...40),
                keyLength: Int.random(in: 1...100)
            )
        }
        let script = """
            import hashlib, hmac, sys
            for line in sys.stdin.read().splitlines():
                data, key, salt, iterations, length = line.split(" ")
                data, key, salt = bytes.fromhex(data), bytes.fromhex(key), bytes.fromhex(salt)
                print(hashlib.sha256(data).hexdigest(), hmac.new(key, data, hashlib.sha256).hexdigest(),
                      hashlib.pbkdf2_hmac("sha256", data, salt, int(iterations), int(length)).hex())
            """
        let input =
            cases.map {
                [
                    SecurityTestHex.encode($0.data), SecurityTestHex.encode($0.key), SecurityTestHex.encode($0.salt),
                    String($0.iterations), String($0.keyLength),
                ].joined(separator: " ")
            }.joined(separator: "\n") + "\n"
        let lines = try SecurityTestPython.lines(ofScript: script, input: input)
        try #require(lines.count == cases.count)
        for (testCase, line) in zip(cases, lines) {
            let expected = line.split(separator: " ").map(String.init)
            try #require(expected.count == 3)
            let context = Comment(rawValue: "data \(SecurityTestHex.encode(testCase.data))")
            #expect(SecurityTestHex.encode(Hashing.sha256(testCase.data)) == expected[0], context)
            #expect(SecurityTestHex.encode(SHA256.hash(testCase.data)) == expected[0], context)
            #expect(SecurityTestHex.encode(Hashing.hmacSHA256(key: testCase.key, message: testCase.data)) == expected[1], context)
            let derived = try KeyDerivation.pbkdf2SHA256(
                password: testCase.data, salt: testCase.salt, iterations: testCase.iterations, keyLength: testCase.keyLength)
            #expect(SecurityTestHex.encode(derived) == expected[2], context)
        }
    }

    @Test("Big-integer multiply, remainder and Montgomery modular power agree with Python on edge-shaped operands")
    func bigIntegers() throws {
        // Limbs from a small set of edge values make Knuth's quotient estimate and add-back steps likely.
        func operand(limbs: Int) -> [UInt8] {
            let edges: [UInt32] = [0, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_fffe, 0xffff_ffff]
            var bytes: [UInt8] = []
            for _ in 0..<limbs {
                let limb = Bool.random() ? edges.randomElement() ?? 0 : UInt32.random(in: .min ... .max)
                withUnsafeBytes(of: limb.bigEndian) { bytes.append(contentsOf: $0) }
            }
            let trim = Int.random(in: 0...3)
            return Array(bytes.dropFirst(min(trim, bytes.count)))
        }
        var triples: [(a: [UInt8], b: [UInt8], m: [UInt8])] = []
        for index in 0..<300 {
            let mLimbs = Int.random(in: 1...12)
            // Every other modulus is made odd so Montgomery arithmetic gets as many cases.
            let modulus = operand(limbs: mLimbs)
            let m = index.isMultiple(of: 2) && !modulus.isEmpty ? modulus.dropLast() + [modulus[modulus.count - 1] | 1] : modulus
            triples.append((operand(limbs: Int.random(in: 0...2 * mLimbs + 1)), operand(limbs: Int.random(in: 1...4)), m))
        }
        triples = triples.filter { BigUInt(bigEndianBytes: $0.m) > BigUInt(1) }
        let script = """
            import sys
            for line in sys.stdin.read().splitlines():
                a, b, m = (int(x, 16) if x else 0 for x in line.split(" "))
                print(format(a * b, "x"), format(a % m, "x"), format(pow(a, b, m), "x"))
            """
        let input =
            triples.map { "\(SecurityTestHex.encode($0.a)) \(SecurityTestHex.encode($0.b)) \(SecurityTestHex.encode($0.m))" }
            .joined(separator: "\n") + "\n"
        let lines = try SecurityTestPython.lines(ofScript: script, input: input)
        try #require(lines.count == triples.count)
        func hex(_ value: BigUInt) -> String {
            let bytes = value.bigEndianBytes(count: (value.bitWidth + 7) / 8) ?? []
            let text = String(SecurityTestHex.encode(bytes).drop { $0 == "0" })
            return text.isEmpty ? "0" : text
        }
        for (triple, line) in zip(triples, lines) {
            let expected = line.split(separator: " ").map(String.init)
            try #require(expected.count == 3)
            let a = BigUInt(bigEndianBytes: triple.a), b = BigUInt(bigEndianBytes: triple.b), m = BigUInt(bigEndianBytes: triple.m)
            let context = Comment(rawValue: "a=\(SecurityTestHex.encode(triple.a)) b=\(SecurityTestHex.encode(triple.b)) m=\(SecurityTestHex.encode(triple.m))")
            #expect(hex(a * b) == expected[0], context)
            #expect(hex(a.remainder(dividingBy: m)) == expected[1], context)
            if let montgomery = MontgomeryModulus(m) {
                #expect(hex(montgomery.power(a, b)) == expected[2], context)
            } else {
                #expect(m.isEven, context)
            }
        }
    }
}
