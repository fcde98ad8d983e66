import Foundation

/// Writes compact JSON (RFC 8259) byte by byte, for values whose shape is known in advance.
///
/// The caller writes the structure (`{`, `,`, keys) in order; the writer only escapes strings
/// and formats numbers, so the output is valid JSON that `JSONDecoder` reads like its own.
struct JSONWriter {
    /// The JSON written so far, UTF-8.
    private(set) var bytes: [UInt8] = []

    /// Starts empty, with room for `capacity` bytes.
    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Writes a structural character such as `{`, `}`, `[`, `]` or `,`.
    mutating func punctuation(_ character: Unicode.Scalar) { bytes.append(UInt8(ascii: character)) }

    /// Writes `"key":`.
    mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes a string literal: `"` and `\` escaped, control characters as `\n`, `\t`, ... or `\u00XX`.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x0A: escape(UInt8(ascii: "n"))
            case 0x0D: escape(UInt8(ascii: "r"))
            case 0x09: escape(UInt8(ascii: "t"))
            case 0x08: escape(UInt8(ascii: "b"))
            case 0x0C: escape(UInt8(ascii: "f"))
            case 0x00..<0x20:
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a finite number in its shortest round-tripping form (`767000000.5`, `1e-05`).
    /// - Throws: `EncodingError.invalidValue` for NaN and infinities, which JSON cannot hold.
    mutating func number(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "JSON cannot hold \(value)."))
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Writes an array of strings.
    mutating func strings(_ values: [String]) {
        punctuation("[")
        for (index, value) in values.enumerated() {
            if index > 0 { punctuation(",") }
            string(value)
        }
        punctuation("]")
    }

    /// Writes an array of bytes as numbers, as `JSONEncoder` writes `[UInt8]`.
    mutating func byteArray(_ values: [UInt8]) {
        punctuation("[")
        for (index, value) in values.enumerated() {
            if index > 0 { punctuation(",") }
            if value >= 100 { bytes.append(Self.hexDigits[Int(value / 100)]) }
            if value >= 10 { bytes.append(Self.hexDigits[Int(value / 10 % 10)]) }
            bytes.append(Self.hexDigits[Int(value % 10)])
        }
        punctuation("]")
    }

    private mutating func escape(_ letter: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        bytes.append(letter)
    }

    /// `0-9a-f`; the first ten double as decimal digits.
    private static let hexDigits = Array("0123456789abcdef".utf8)
}
