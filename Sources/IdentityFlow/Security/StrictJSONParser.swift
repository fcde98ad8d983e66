/// Parses RFC 8259 JSON into a ``JSONValue``, refusing what other parsers read differently.
///
/// Tokens and server answers are parsed here rather than by `JSONDecoder`, which keeps the first
/// of two members with the same name where other parsers keep the last: an object with a repeated
/// member name is refused, so no two readers of one answer can disagree about it. Also refused:
/// invalid UTF-8, lone surrogate escapes, numbers outside `Double`'s range, trailing text, and
/// nesting deeper than ``maximumDepth`` (which keeps the recursion's stack bounded).
struct StrictJSONParser {
    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The value `bytes` hold, or `nil` when they are not exactly one JSON value.
    /// - Parameter bytes: UTF-8 JSON text, optionally after a byte order mark.
    static func parse(_ bytes: some Sequence<UInt8>) -> JSONValue? {
        var parser = StrictJSONParser(Array(bytes))
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        guard let value = parser.value(depth: 0) else { return nil }
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { return nil }
        return value
    }

    private mutating func value(depth: Int) -> JSONValue? {
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { return nil }
            return bytes[index] == UInt8(ascii: "{") ? object(depth: depth + 1) : array(depth: depth + 1)
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func object(depth: Int) -> JSONValue? {
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if take(UInt8(ascii: "}")) { return .object(members) }
        repeat {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let name = string() else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")), let member = value(depth: depth) else { return nil }
            guard members.updateValue(member, forKey: name) == nil else { return nil }
            skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        return .object(members)
    }

    private mutating func array(depth: Int) -> JSONValue? {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if take(UInt8(ascii: "]")) { return .array(elements) }
        repeat {
            guard let element = value(depth: depth) else { return nil }
            elements.append(element)
            skipSpace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { return nil }
        return .array(elements)
    }

    private mutating func string() -> String? {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                guard let run = StrictUTF8.decode(bytes[runStart..<index]) else { return nil }
                index += 1
                // Most strings have no escape: the run is the string, with no scalar-by-scalar copy.
                if byte == UInt8(ascii: "\""), !escaped { return run }
                scalars.append(contentsOf: run.unicodeScalars)
                if byte == UInt8(ascii: "\"") { return String(scalars) }
                escaped = true
                guard let escaped = escape() else { return nil }
                scalars.append(escaped)
                runStart = index
            } else if byte < 0x20 {
                return nil
            } else {
                index += 1
            }
        }
        return nil
    }

    /// The character an escape sequence stands for; `index` is just past the backslash.
    private mutating func escape() -> Unicode.Scalar? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hexUnit() else { return nil }
            switch unit {
            case 0xD800...0xDBFF:
                guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hexUnit(), (0xDC00...0xDFFF).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            case 0xDC00...0xDFFF: return nil
            default: return Unicode.Scalar(unit)
            }
        default: return nil
        }
    }

    private mutating func hexUnit() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            guard let digit = URLQuery.hexValue(byte).map(UInt32.init) else { return nil }
            unit = unit << 4 | digit
        }
        index += 4
        return unit
    }

    /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, finite as a `Double`.
    private mutating func number() -> JSONValue? {
        let start = index
        _ = take(UInt8(ascii: "-"))
        if !take(UInt8(ascii: "0")) {
            guard index < bytes.count, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            skipDigits()
        }
        if take(UInt8(ascii: ".")) {
            guard skipDigits() else { return nil }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard skipDigits() else { return nil }
        }
        guard let text = StrictUTF8.decode(bytes[start..<index]), let number = Double(text), number.isFinite else { return nil }
        return .number(number)
    }

    /// Skips decimal digits; whether there was at least one.
    @discardableResult
    private mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes[index...].starts(with: text) else { return nil }
        index += text.count
        return value
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
}
