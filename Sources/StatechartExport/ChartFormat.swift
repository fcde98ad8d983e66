import Statechart

/// A file format ``ChartFiles`` can write a ``Chart`` in.
public enum ChartFormat: String, CaseIterable, Sendable, Hashable {
    /// W3C SCXML 1.0, written by ``SCXMLExporter``, read back by ``SCXMLReader``.
    case scxml
    /// A Mermaid `stateDiagram-v2`, written by ``MermaidExporter``.
    case mermaid
    /// A Graphviz `digraph`, written by ``DOTExporter``, rendered to SVG by `dot -Tsvg`.
    case dot

    /// The file name extension, without the dot: `scxml`, `mmd` or `dot`.
    public var fileExtension: String {
        switch self {
        case .scxml: "scxml"
        case .mermaid: "mmd"
        case .dot: "dot"
        }
    }

    /// The text of `chart` in this format.
    /// - Parameters:
    ///   - chart: The chart.
    ///   - note: A line for the file's header comment (how to regenerate it), if any.
    /// - Returns: The file's content, ending with a newline.
    public func export(_ chart: Chart, note: String? = nil) -> String {
        switch self {
        case .scxml: SCXMLExporter(note: note).export(chart)
        case .mermaid: MermaidExporter(note: note).export(chart)
        case .dot: DOTExporter(note: note).export(chart)
        }
    }
}
