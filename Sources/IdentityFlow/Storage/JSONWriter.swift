import Foundation

/// Writes compact JSON (RFC 8259) byte by byte, for values whose shape is known in advance.
///
/// The caller writes the structure (`{`, `,`, keys) in order; the writer only escapes strings
/// and formats numbers, so the output is valid JSON that `JSONDecoder` reads like its own.
package struct JSONWriter {
    /// The JSON written so far, UTF-8.
    package private(set) var bytes: [UInt8] = []

    /// Starts empty, with room for `capacity` bytes.
    package init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Writes a structural character such as `{`, `}`, `[`, `]` or `,`.
    package mutating func punctuation(_ character: Unicode.Scalar) { bytes.append(UInt8(ascii: character)) }

    /// Writes `"key":`.
    package mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes a string literal: `"` and `\` escaped, control characters as `\n`, `\t`, ... or
    /// `\u00XX`; runs of characters that need no escape are copied whole.
    package mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices where utf8[index] < 0x20 || utf8[index] == UInt8(ascii: "\"") || utf8[index] == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                escape(utf8[index])
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a finite number in its shortest round-tripping form (`767000000.5`, `1e-05`).
    /// - Throws: `EncodingError.invalidValue` for NaN and infinities, which JSON cannot hold.
    package mutating func number(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "JSON cannot hold \(value)."))
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Writes an array of strings.
    /// Writes `true` or `false`.
    package mutating func bool(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    package mutating func strings(_ values: [String]) {
        punctuation("[")
        for (index, value) in values.enumerated() {
            if index > 0 { punctuation(",") }
            string(value)
        }
        punctuation("]")
    }

    /// Writes an integer in decimal, as `JSONEncoder` writes `Int`.
    package mutating func integer(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    /// Writes bytes as a base64 string (RFC 4648 §4, padded), as `JSONEncoder` writes `Data`:
    /// a third of the size of an array of numbers and decoded in one call
    /// (``Swift/KeyedDecodingContainer/decodeBytes(forKey:)`` reads both).
    package mutating func base64(_ values: [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: Data(values).base64EncodedString().utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes the escape sequence of one byte that cannot stand in a JSON string as it is.
    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x00..<0x20:
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(Self.hexDigits[Int(byte >> 4)])
            bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        default:
            bytes.append(byte)  // `"` and `\`
        }
    }

    /// `0-9a-f`; the first ten double as decimal digits.
    private static let hexDigits = Array("0123456789abcdef".utf8)
}
