/// Escaping for text written into XML attribute values and comments.
enum XMLText {
    /// `value` with `&`, `<`, `>`, `"` and `'` replaced by entity references, and line breaks and
    /// tabs by character references so attribute normalisation keeps them.
    static func attribute(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\n": escaped += "&#10;"
            case "\r": escaped += "&#13;"
            case "\t": escaped += "&#9;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// `text` made safe inside `<!-- -->`: no `--`, no trailing `-`, no line breaks.
    static func comment(_ text: String) -> String {
        var safe = ""
        for character in text {
            let next: Character = character.isNewline ? " " : character
            if next == "-" && safe.last == "-" { safe.append(" ") }
            safe.append(next)
        }
        if safe.last == "-" { safe.append(" ") }
        return safe
    }
}
