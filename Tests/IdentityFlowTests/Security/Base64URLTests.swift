import Foundation
import Testing
@_spi(Integrator) import IdentityFlow

@Suite("Base64URL (RFC 4648 §5)")
struct Base64URLTests {
    @Test(
        "RFC 4648 §10 vectors, unpadded",
        arguments: [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
        ])
    func vectors(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(encoded) == Array(plain.utf8))
    }

    @Test("Slices and non-contiguous collections encode like the same bytes in an array")
    func collections() {
        let bytes = SecurityTestRandom.bytes(100)
        #expect(Base64URL.encode(bytes[3..<50]) == Base64URL.encode(Array(bytes[3..<50])))
        #expect(Base64URL.encode(bytes.reversed()) == Base64URL.encode(Array(bytes.reversed())))
        #expect(Base64URL.encode(bytes.lazy.map { $0 ^ 0x5A }) == Base64URL.encode(bytes.map { $0 ^ 0x5A }))
    }

    @Test("Uses - and _ where base64 uses + and /")
    func urlAlphabet() {
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.encode([0xfb, 0xef, 0xbe]) == "----")
        #expect(Base64URL.encode([0xff, 0xff, 0xff]) == "____")
        #expect(Base64URL.decode("-_8") == [0xfb, 0xff])
    }

    @Test("Padded input is accepted")
    func padding() {
        #expect(Base64URL.decode("Zg==") == Array("f".utf8))
        #expect(Base64URL.decode("Zm8=") == Array("fo".utf8))
        #expect(Base64URL.decode("Zm9v") == Array("foo".utf8))
    }

    @Test("Random round trips, 0-300 bytes, match Foundation's base64 after the alphabet swap")
    func roundTrips() {
        for length in Array(0...70) + (0..<30).map({ _ in Int.random(in: 71...300) }) {
            let bytes = SecurityTestRandom.bytes(length)
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("="))
            #expect(encoded.count == (length * 4 + 2) / 3)
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(encoded == foundation, "length \(length)")
            #expect(Base64URL.decode(encoded) == bytes, "length \(length)")
        }
    }

    @Test(
        "Invalid input is rejected",
        arguments: [
            "Zm9v+g", "Zm9v/g", "Zm 9v", "Zm9v\n", "Zm9v!", "Zg=", "Zg===", "Z===", "=Zg=", "Zg=a", "Zm8==", "Zm9vY",
            "Zh", "Zm9", "é", "Zm9vYmFy=", "====",
        ])
    func rejects(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }
}

@Suite("SecureRandom")
struct SecureRandomTests {
    @Test("Returns the requested number of bytes, and two large draws differ")
    func bytes() throws {
        for count in [0, 1, 7, 8, 9, 33, 1000] {
            #expect(try SecureRandom.bytes(count: count).count == count)
        }
        // 256 bits colliding by chance is impossible in practice; a constant generator fails here.
        #expect(try SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
    }

    @Test("Every byte of the buffer is filled, also past the 256 bytes one system call hands out", arguments: [1, 8, 31, 255, 256, 257, 1000])
    func fillsWholeBuffer(count: Int) throws {
        let draws = try (0..<24).map { _ in try SecureRandom.bytes(count: count) }
        // A position left unwritten reads the same in every draw; random bytes repeat 24 times with probability 2^-184.
        for position in 0..<count {
            #expect(Set(draws.map { $0[position] }).count > 1, "byte \(position) of \(count) never changed")
        }
    }

    @Test("Bytes cover the whole byte range over a large sample")
    func distribution() throws {
        let sample = try SecureRandom.bytes(count: 65_536)
        // Each value is missing from 65,536 uniform draws with probability about e^-256.
        #expect(Set(sample).count == 256)
    }

    @Test("Tokens are unpadded base64url of the requested entropy")
    func tokens() throws {
        let token = try SecureRandom.token()
        #expect(token.count == 43)
        #expect(Base64URL.decode(token)?.count == 32)
        #expect(try SecureRandom.token(byteCount: 16).count == 22)
        #expect(try SecureRandom.token(byteCount: 1).count == 2)
        #expect(try SecureRandom.token() != SecureRandom.token())
    }

    @Test("Negative counts and empty tokens throw invalidArgument")
    func invalidArguments() {
        #expect(throws: CryptoError(.invalidArgument, reason: "random byte count must not be negative, got -1")) {
            try SecureRandom.bytes(count: -1)
        }
        let error = #expect(throws: CryptoError.self) { try SecureRandom.token(byteCount: 0) }
        #expect(error?.code == .invalidArgument)
    }
}
