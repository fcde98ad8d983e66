import Testing
import IdentityFlow

/// The UTF-8 check that iOS 16-17 and macOS 13-14 use (no `String(validating:as:)` there) agrees
/// with the standard library's own validation, which Linux and newer systems use.
@Suite("Strict UTF-8 on systems without String(validating:)")
struct StrictUTF8Tests {
    @Test(
        "Ill-formed sequences are rejected by the fallback as by String(validating:)",
        arguments: [
            [0xC0, 0xAF],  // overlong "/"
            [0xE0, 0x80, 0xAF],  // overlong, three bytes
            [0xED, 0xA0, 0x80],  // UTF-16 surrogate D800
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xF5, 0x80, 0x80, 0x80],  // lead byte never used
            [0x80],  // stray continuation byte
            [0x61, 0xE2, 0x82],  // truncated at the end
            [0xFF],
        ] as [[UInt8]])
    func illFormed(bytes: [UInt8]) {
        #expect(String(validating: bytes, as: UTF8.self) == nil)
        #expect(StrictUTF8.decodeWithScalarDecoder(bytes) == nil)
        #expect(StrictUTF8.decode(bytes) == nil)
    }

    @Test(
        "Well-formed text decodes to the same string",
        arguments: ["", "plain", "é", "€ 10", "𝄞 clef", "\u{10FFFF}", "nul\u{0}inside"])
    func wellFormed(text: String) {
        let bytes = Array(text.utf8)
        #expect(StrictUTF8.decodeWithScalarDecoder(bytes) == text)
        #expect(StrictUTF8.decodeWithScalarDecoder(bytes[...]) == text)
        #expect(StrictUTF8.decode(bytes) == text)
    }

    @Test("Random byte strings: the fallback and String(validating:) agree on each")
    func randomAgreement() {
        var generator = SplitMix(seed: 0x5EED_0035)
        for _ in 0..<5000 {
            let count = Int(generator.next() % 8)
            // Uniform bytes: ASCII, continuation and lead bytes alike, short enough to mix well-formed and ill-formed runs.
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(StrictUTF8.decodeWithScalarDecoder(bytes) == String(validating: bytes, as: UTF8.self), "\(bytes)")
        }
    }
}

/// A small seeded generator, so a failure names a reproducible input.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
