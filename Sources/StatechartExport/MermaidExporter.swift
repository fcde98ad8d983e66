import Statechart

/// Writes a ``Chart`` as a Mermaid `stateDiagram-v2`, as GitHub renders in Markdown.
///
/// The diagram starts at `[*] --> initial`, draws one arrow per (source, target) pair with the
/// transitions' labels joined by `<br/>` (`event [guard]`, several guards of one event as
/// `event [a | b]`), and ends each final state with `state --> [*]`. Arrows come in declaration
/// order, so the output depends on the chart only.
///
/// ```swift
/// let diagram = MermaidExporter().export(chart)
/// ```
///
/// State names that are not plain identifiers are declared as `state "name" as sN` aliases, and
/// label characters Mermaid reads as syntax (`#`, `;`, `<`, `>`) are written as entity codes.
public struct MermaidExporter: Sendable {
    /// A line for the header comment (how the file is regenerated), if any.
    public let note: String?
    /// Whether the diagram starts with a front-matter `title:` naming the chart.
    public let includesTitle: Bool

    /// Creates an exporter.
    /// - Parameters:
    ///   - note: A line for the `%%` header comment, such as how to regenerate the file.
    ///   - includesTitle: Whether to add a front-matter title with the chart's name.
    public init(note: String? = nil, includesTitle: Bool = true) {
        self.note = note
        self.includesTitle = includesTitle
    }

    /// The Mermaid diagram of a chart.
    /// - Parameter chart: The chart.
    /// - Returns: The diagram, ending with a newline.
    public func export(_ chart: Chart) -> String {
        var lines: [String] = []
        if includesTitle {
            lines += ["---", "title: \(Self.frontMatterValue(chart.name))", "---"]
        }
        lines.append("stateDiagram-v2")
        lines.append("    %% \(Self.commentText("Chart of \(chart.swiftType)."))")
        if let note { lines.append("    %% \(Self.commentText(note))") }
        let ids = Self.identifiers(for: chart.states)
        for state in chart.states where ids[state] != state {
            lines.append(#"    state "\#(Self.labelText(state))" as \#(ids[state] ?? state)"#)
        }
        func id(_ state: String) -> String { ids[state] ?? state }
        lines.append("    [*] --> \(id(chart.initial))")
        let edges = ChartEdge.edges(of: chart)
        func edgeLine(_ edge: ChartEdge, indent: String) -> String {
            let label = edge.labelLines.map(Self.labelText).joined(separator: "<br/>")
            return "\(indent)\(id(edge.source)) --> \(id(edge.target)) : \(label)"
        }
        // A compound state (a child machine) is a composite `state X { }` holding its leaves and
        // the transitions between them; transitions that enter or leave it are drawn outside.
        var inner: Set<Int> = []
        for compound in chart.compounds {
            let children = Set(compound.children)
            lines.append("    state \(compound.name) {")
            lines.append("        [*] --> \(id(compound.initial))")
            for child in compound.children { lines.append("        \(id(child))") }
            for (index, edge) in edges.enumerated() where children.contains(edge.source) && children.contains(edge.target) {
                lines.append(edgeLine(edge, indent: "        "))
                inner.insert(index)
            }
            lines.append("    }")
        }
        for (index, edge) in edges.enumerated() where !inner.contains(index) {
            lines.append(edgeLine(edge, indent: "    "))
        }
        for state in chart.states where chart.finals.contains(state) {
            lines.append("    \(id(state)) --> [*]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Diagram identifiers: the state's own name when it is a plain identifier, `sN` otherwise.
    private static func identifiers(for states: [String]) -> [String: String] {
        let taken = Set(states)
        var ids: [String: String] = [:]
        var counter = 0
        for state in states {
            if isPlainIdentifier(state) {
                ids[state] = state
                continue
            }
            var alias: String
            repeat {
                counter += 1
                alias = "s\(counter)"
            } while taken.contains(alias)
            ids[state] = alias
        }
        return ids
    }

    private static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
            && name != "end" && name != "state" && name != "direction" && name != "note"
    }

    private static func labelText(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "#": escaped += "#35;"
            case ";": escaped += "#59;"
            case "<": escaped += "#lt;"
            case ">": escaped += "#gt;"
            case "\"": escaped += "#quot;"
            default: escaped.append(character.isNewline ? " " : character)
            }
        }
        return escaped
    }

    private static func commentText(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    private static func frontMatterValue(_ text: String) -> String {
        let plain = text.allSatisfy { $0.isLetter || $0.isNumber || $0 == " " || $0 == "_" || $0 == "." }
        if plain && !text.isEmpty { return text }
        var quoted = "\""
        for character in text {
            switch character {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            default: quoted.append(character.isNewline ? " " : character)
            }
        }
        return quoted + "\""
    }
}
