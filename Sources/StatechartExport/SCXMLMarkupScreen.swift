/// Refuses the XML constructs an SCXML chart never needs and that the platform parser handles
/// unsafely, before the parser sees the document.
///
/// FoundationXML traps or crashes on some of them (a processing instruction with no data, an
/// external-entity DOCTYPE followed by a parse error), and entities can expand without bound. The
/// exporter writes none of them, so the reader refuses every `<!` that does not open a comment or
/// a CDATA section, and every `<?` but a leading `<?xml ...?>` declaration. The scan does not skip
/// comments or CDATA: a parser recovering from an unterminated one would read what it hides.
enum SCXMLMarkupScreen {
    /// Throws ``SCXMLReadError/unsupportedMarkup(kind:line:)`` for the first refused construct.
    /// - Parameter bytes: The document's UTF-8 bytes.
    static func check(_ bytes: [UInt8]) throws(SCXMLReadError) {
        var index = 0
        if bytes.starts(with: "<?xml".utf8), bytes.count > 5, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[5]) {
            guard let end = declarationEnd(in: bytes) else {
                throw .unsupportedMarkup(kind: "unterminated XML declaration", line: 1)
            }
            index = end
        }
        var line = 1 + bytes[..<index].count { $0 == 0x0A }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0A { line += 1 }
            guard byte == UInt8(ascii: "<"), index < bytes.count else { continue }
            let rest = bytes[index...]
            if rest.first == UInt8(ascii: "?") {
                throw .unsupportedMarkup(kind: "processing instruction", line: line)
            }
            if rest.first == UInt8(ascii: "!"), !rest.starts(with: "!--".utf8), !rest.starts(with: "![CDATA[".utf8) {
                throw .unsupportedMarkup(kind: "DOCTYPE or entity declaration", line: line)
            }
        }
    }

    /// The index just past the `?>` closing a leading XML declaration, when no `<` or `>` comes before it.
    private static func declarationEnd(in bytes: [UInt8]) -> Int? {
        var index = 5
        while index + 1 < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "?") where bytes[index + 1] == UInt8(ascii: ">"): return index + 2
            case UInt8(ascii: "<"), UInt8(ascii: ">"): return nil
            default: index += 1
            }
        }
        return nil
    }
}
