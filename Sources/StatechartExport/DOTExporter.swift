import Statechart

/// Writes a ``Chart`` as a Graphviz `digraph`, for `dot -Tsvg` to render.
///
/// The graph is titled with the chart's name and Swift type, starts from a point node with an
/// arrow to the initial state, draws final states as double circles, and draws one arrow per
/// (source, target) pair labelled with one line per event (`event [guard]`, several guards of one
/// event as `event [a | b]`). The graph's `comment` carries the ``ChartDigest``, which Graphviz
/// copies into the SVG so a stale picture can be detected. Output depends on the chart only.
///
/// ```swift
/// let dot = DOTExporter(rankDirection: .leftToRight).export(chart)
/// // dot -Tsvg Chart.dot -o Chart.svg
/// ```
public struct DOTExporter: Sendable {
    /// The direction in which the graph's ranks are laid out (`rankdir`).
    public enum RankDirection: String, Sendable {
        /// Top to bottom (`TB`).
        case topToBottom = "TB"
        /// Left to right (`LR`).
        case leftToRight = "LR"
    }

    /// A line for the header comment (how the file is regenerated), if any.
    public let note: String?
    /// The layout direction.
    public let rankDirection: RankDirection
    /// The font of titles, states and labels.
    public let fontName: String

    /// Creates an exporter.
    /// - Parameters:
    ///   - note: A line for the `//` header comment, such as how to regenerate the file.
    ///   - rankDirection: The layout direction; top to bottom by default.
    ///   - fontName: The font; Helvetica by default.
    public init(note: String? = nil, rankDirection: RankDirection = .topToBottom, fontName: String = "Helvetica") {
        self.note = note
        self.rankDirection = rankDirection
        self.fontName = fontName
    }

    /// The DOT text of a chart.
    /// - Parameter chart: The chart.
    /// - Returns: The graph, ending with a newline.
    public func export(_ chart: Chart) -> String {
        let font = Self.quoted(fontName)
        var lines = ["// \(Self.lineText(SCXMLExporter.swiftTypeCommentPrefix + chart.swiftType))"]
        if let note { lines.append("// \(Self.lineText(note))") }
        lines.append("digraph \(Self.quoted(chart.name)) {")
        lines.append("    graph [label=\(Self.quoted(chart.name, "(\(chart.swiftType))")), labelloc=t, fontname=\(font), fontsize=18,")
        lines.append("           rankdir=\(rankDirection.rawValue), nodesep=0.45, ranksep=0.6, pad=0.3,")
        lines.append("           comment=\(Self.quoted(ChartDigest(of: chart).description))];")
        lines.append(
            "    node [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\", color=\"#4a6fa5\", fontname=\(font), fontsize=12, margin=\"0.15,0.06\"];")
        lines.append("    edge [fontname=\(font), fontsize=10, color=\"#55606e\", fontcolor=\"#1f2a37\", arrowsize=0.7];")
        let start = Self.startNodeName(avoiding: Set(chart.states))
        lines.append("    \(Self.quoted(start)) [shape=point, width=0.16, label=\"\", fillcolor=\"#1f2a37\", color=\"#1f2a37\"];")
        for state in chart.states where chart.compound(holding: state) == nil {
            if chart.finals.contains(state) {
                lines.append("    \(Self.quoted(state)) [shape=doublecircle, fillcolor=\"#f3f4f6\", margin=\"0.02\"];")
            } else {
                lines.append("    \(Self.quoted(state));")
            }
        }
        // A compound state (a child machine) is a cluster around its leaves and its nested clusters.
        func cluster(_ compound: ChartCompound, indent: String) {
            lines.append("\(indent)subgraph \(Self.quoted("cluster_" + compound.name)) {")
            lines.append("\(indent)    label=\(Self.quoted(compound.name)); style=\"rounded,dashed\"; color=\"#4a6fa5\"; fontsize=12;")
            for child in compound.children where chart.compound(holding: child) == compound { lines.append("\(indent)    \(Self.quoted(child));") }
            for nested in chart.compounds where chart.parent(of: nested) == compound { cluster(nested, indent: indent + "    ") }
            lines.append("\(indent)}")
        }
        for compound in chart.compounds where chart.parent(of: compound) == nil {
            cluster(compound, indent: "    ")
        }
        lines.append("    \(Self.quoted(start)) -> \(Self.quoted(chart.initial));")
        for edge in ChartEdge.edges(of: chart) {
            lines.append("    \(Self.quoted(edge.source)) -> \(Self.quoted(edge.target)) [label=\(Self.quoted(edge.labelLines))];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func startNodeName(avoiding states: Set<String>) -> String {
        var name = "__start"
        while states.contains(name) { name += "_" }
        return name
    }

    /// A DOT quoted string; several lines are joined with `\n` (centred lines).
    private static func quoted(_ lines: String...) -> String { quoted(lines) }

    private static func quoted(_ lines: [String]) -> String {
        let escaped = lines.map { line in
            var text = ""
            for character in line {
                switch character {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                default: text.append(character.isNewline ? " " : character)
                }
            }
            return text
        }
        return "\"" + escaped.joined(separator: "\\n") + "\""
    }

    private static func lineText(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
