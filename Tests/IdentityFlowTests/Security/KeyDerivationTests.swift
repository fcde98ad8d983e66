import Testing
@_spi(Integrator) @testable import IdentityFlow

@Suite("PBKDF2-HMAC-SHA256 (RFC 8018)")
struct KeyDerivationTests {
    @Test("RFC 7914 §11: P=\"passwd\", S=\"salt\", c=1, dkLen=64")
    func oneIteration() throws {
        let key = try KeyDerivation.pbkdf2SHA256(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, keyLength: 64)
        #expect(
            SecurityTestHex.encode(key)
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
    }

    @Test("RFC 7914 §11: P=\"Password\", S=\"NaCl\", c=80000, dkLen=64")
    func eightyThousandIterations() throws {
        let key = try KeyDerivation.pbkdf2SHA256(password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80_000, keyLength: 64)
        #expect(
            SecurityTestHex.encode(key)
                == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
    }

    @Test("The first iteration is HMAC(P, S || INT(1)), and shorter keys are prefixes")
    func structure() throws {
        let password = Array("pw".utf8), salt = Array("NaCl".utf8)
        let u1 = Hashing.hmacSHA256(key: password, message: salt + [0, 0, 0, 1])
        #expect(try KeyDerivation.pbkdf2SHA256(password: password, salt: salt, iterations: 1, keyLength: 32) == u1)
        let long = try KeyDerivation.pbkdf2SHA256(password: password, salt: salt, iterations: 3, keyLength: 70)
        let short = try KeyDerivation.pbkdf2SHA256(password: password, salt: salt, iterations: 3, keyLength: 5)
        #expect(long.count == 70)
        #expect(Array(long.prefix(5)) == short)
    }

    @Test("Iterations below 1 and key lengths below 1 throw invalidArgument", arguments: [(0, 32), (-1, 32), (1, 0), (1, -5), (Int.min, Int.min)])
    func invalidArguments(iterations: Int, keyLength: Int) {
        let error = #expect(throws: CryptoError.self) {
            try KeyDerivation.pbkdf2SHA256(password: [1], salt: [2], iterations: iterations, keyLength: keyLength)
        }
        #expect(error?.code == .invalidArgument)
    }
}
