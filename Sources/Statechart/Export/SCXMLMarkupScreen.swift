/// Refuses the XML constructs an SCXML chart never needs and that the platform parser handles
/// unsafely, before the parser sees the document.
///
/// FoundationXML traps or crashes on some of them (a processing instruction with no data, an
/// external-entity DOCTYPE followed by a parse error), and entities can expand without bound. The
/// exporter writes none of them, so the reader refuses every DOCTYPE, entity declaration and
/// processing instruction other than a leading `<?xml ...?>` declaration. Comments and CDATA
/// sections are skipped whole, so their text never counts as markup.
enum SCXMLMarkupScreen {
    /// Throws ``SCXMLReadError/unsupportedMarkup(kind:line:)`` for the first refused construct.
    /// - Parameter bytes: The document's UTF-8 bytes.
    static func check(_ bytes: [UInt8]) throws(SCXMLReadError) {
        var index = 0
        var line = 1
        if bytes.starts(with: Array("<?xml".utf8)), bytes.count > 5, isSpace(bytes[5]) {
            guard let end = find(Array("?>".utf8), in: bytes, from: 5, line: &line), !bytes[5..<end].contains(UInt8(ascii: "<")) else {
                throw .unsupportedMarkup(kind: "unterminated XML declaration", line: 1)
            }
            index = end
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A { line += 1 }
            guard byte == UInt8(ascii: "<"), index + 1 < bytes.count else {
                index += 1
                continue
            }
            let rest = bytes[(index + 1)...]
            if rest.starts(with: "!--".utf8) {
                guard let end = find(Array("-->".utf8), in: bytes, from: index + 4, line: &line) else { return }
                index = end
            } else if rest.starts(with: "![CDATA[".utf8) {
                guard let end = find(Array("]]>".utf8), in: bytes, from: index + 9, line: &line) else { return }
                index = end
            } else if rest.first == UInt8(ascii: "!") {
                throw .unsupportedMarkup(kind: "DOCTYPE or entity declaration", line: line)
            } else if rest.first == UInt8(ascii: "?") {
                throw .unsupportedMarkup(kind: "processing instruction", line: line)
            } else {
                index += 1
            }
        }
    }

    /// The index just past the first `needle` at or after `start`, counting the lines it passes.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int, line: inout Int) -> Int? {
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index + needle.count }
            if bytes[index] == 0x0A { line += 1 }
            index += 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
