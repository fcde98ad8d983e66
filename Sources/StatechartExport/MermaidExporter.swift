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
        // A compound state (a child machine) is a composite `state X { }` holding its leaves, its
        // nested composites and the transitions between them; a transition is drawn in the
        // innermost composite that holds both its ends, outside all of them otherwise.
        func innermost(holdingBoth edge: ChartEdge) -> ChartCompound? {
            chart.compounds(holding: edge.source).last { $0.children.contains(edge.target) }
        }
        func composite(_ compound: ChartCompound, indent: String) {
            lines.append("\(indent)state \(compound.name) {")
            let nested = chart.compounds.filter { chart.parent(of: $0) == compound }
            let entry = nested.first { $0.children.contains(compound.initial) }?.name ?? id(compound.initial)
            lines.append("\(indent)    [*] --> \(entry)")
            for child in compound.children where chart.compound(holding: child) == compound { lines.append("\(indent)    \(id(child))") }
            for inner in nested { composite(inner, indent: indent + "    ") }
            for edge in edges where innermost(holdingBoth: edge) == compound {
                lines.append(edgeLine(edge, indent: indent + "    "))
            }
            lines.append("\(indent)}")
        }
        for compound in chart.compounds where chart.parent(of: compound) == nil {
            composite(compound, indent: "    ")
        }
        for edge in edges where innermost(holdingBoth: edge) == nil {
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
