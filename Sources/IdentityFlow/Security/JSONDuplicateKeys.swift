/// Finds an object member name that appears twice in one JSON object.
///
/// `JSONDecoder` keeps one of the values of a duplicated name and other parsers keep another, so a
/// token or server answer with duplicates can mean different things to different readers (RFC 8259
/// §4, RFC 7515 §5.2): IdentityFlow refuses them. Names compare after unescaping, as bytes. The
/// scan is iterative over nesting up to ``maximumDepth`` and never traps; malformed JSON is left to
/// the decoder to refuse.
enum JSONDuplicateKeys {
    /// Nesting deeper than this is reported as malformed (answers and tokens are shallow).
    static let maximumDepth = 256

    /// What the scan found.
    enum Finding: Equatable {
        /// Every object's names are distinct.
        case none
        /// This name appears twice in one object.
        case duplicate(String)
        /// Not JSON the scan could read (or nested too deeply).
        case malformed
    }

    /// Scans `bytes`.
    static func find(in bytes: some Collection<UInt8>) -> Finding {
        var scanner = Scanner(bytes: Array(bytes))
        return scanner.scanDocument()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        /// For each open container: the names seen so far (`nil` for an array).
        var stack: [Set<[UInt8]>?] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func scanDocument() -> Finding {
            // Values are read in a loop; `stack` holds the open containers.
            var expectingValue = true
            while true {
                skipWhitespace()
                if expectingValue {
                    guard index < bytes.count else { return .malformed }
                    switch bytes[index] {
                    case UInt8(ascii: "{"):
                        index += 1
                        guard stack.count < JSONDuplicateKeys.maximumDepth else { return .malformed }
                        stack.append([])
                        skipWhitespace()
                        if peek(UInt8(ascii: "}")) { index += 1; stack.removeLast(); expectingValue = false; continue }
                        if let finding = readMemberName() { return finding }
                        continue
                    case UInt8(ascii: "["):
                        index += 1
                        guard stack.count < JSONDuplicateKeys.maximumDepth else { return .malformed }
                        stack.append(nil)
                        skipWhitespace()
                        if peek(UInt8(ascii: "]")) { index += 1; stack.removeLast(); expectingValue = false }
                        continue
                    case UInt8(ascii: "\""):
                        guard readString() != nil else { return .malformed }
                    default:
                        guard readLiteral() else { return .malformed }
                    }
                    expectingValue = false
                    continue
                }
                // After a value: the document ends, or the open container goes on or closes.
                guard let open = stack.last else { return index == bytes.count ? .none : .malformed }
                guard index < bytes.count else { return .malformed }
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: ",") {
                    if open == nil { expectingValue = true; continue }
                    skipWhitespace()
                    if let finding = readMemberName() { return finding }
                    expectingValue = true
                } else if byte == (open == nil ? UInt8(ascii: "]") : UInt8(ascii: "}")) {
                    stack.removeLast()
                } else {
                    return .malformed
                }
            }
        }

        /// Reads `"name" :` inside the innermost object; a finding ends the scan.
        private mutating func readMemberName() -> Finding? {
            guard peek(UInt8(ascii: "\"")), let name = readString() else { return .malformed }
            guard stack[stack.count - 1]?.insert(name).inserted == true else {
                return .duplicate(String(decoding: name, as: UTF8.self))
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { return .malformed }
            index += 1
            return nil
        }

        private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

        private mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// A number, `true`, `false` or `null`: the bytes up to the next delimiter.
        private mutating func readLiteral() -> Bool {
            let start = index
            while index < bytes.count, !",]} \t\r\n:".utf8.contains(bytes[index]) { index += 1 }
            return index > start
        }

        /// The unescaped UTF-8 of the string starting at `index` (an opening quote), or `nil`.
        private mutating func readString() -> [UInt8]? {
            index += 1
            var result: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return result
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): result.append(escape)
                    case UInt8(ascii: "b"): result.append(0x08)
                    case UInt8(ascii: "f"): result.append(0x0C)
                    case UInt8(ascii: "n"): result.append(0x0A)
                    case UInt8(ascii: "r"): result.append(0x0D)
                    case UInt8(ascii: "t"): result.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = readUnicodeEscape() else { return nil }
                        result.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default: return nil
                    }
                default:
                    result.append(byte)
                }
            }
            return nil
        }

        /// The scalar of `XXXX` (after `\u`), joining a surrogate pair; a lone surrogate reads as U+FFFD.
        private mutating func readUnicodeEscape() -> Unicode.Scalar? {
            guard let high = readHex4() else { return nil }
            if (0xD800...0xDBFF).contains(high), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                let save = index
                index += 2
                if let low = readHex4(), (0xDC00...0xDFFF).contains(low) {
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                }
                index = save
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        }

        private mutating func readHex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for byte in bytes[index..<(index + 4)] {
                guard let digit = URLQuery.hexValue(byte) else { return nil }
                value = value << 4 | UInt32(digit)
            }
            index += 4
            return value
        }
    }
}
