import Foundation
import Statechart

/// The block of a Markdown file (a README, a docs page) that shows each chart's Mermaid diagram, between
/// `<!-- charts:begin -->` and `<!-- charts:end -->`.
///
/// Everything between the markers is generated: one heading per chart, links to its files, and
/// its diagram in a ` ```mermaid ` fence, which GitHub renders. The rest of the file is left alone.
///
/// ```swift
/// let block = MarkdownChartsBlock(charts: charts, filesDirectory: "StateCharts")
/// let updated = try block.apply(to: String(contentsOf: readme, encoding: .utf8))
/// ```
public struct MarkdownChartsBlock: Sendable {
    /// The line that opens the block.
    public static let beginMarker = "<!-- charts:begin -->"
    /// The line that closes the block.
    public static let endMarker = "<!-- charts:end -->"

    /// Why a Markdown file's block cannot be replaced.
    public enum MarkerError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file lacks one or both markers, or has them in the wrong order.
        case markersNotFound

        /// A one-line explanation naming the markers.
        public var description: String {
            "the file has no \(MarkdownChartsBlock.beginMarker) ... \(MarkdownChartsBlock.endMarker) block (add both markers, each on its own line, where the diagrams belong)"
        }
    }

    /// The charts, in the order they are shown.
    public let charts: [Chart]
    /// The directory holding the charts' files, relative to the Markdown file, for links; `nil`
    /// for no links.
    public let filesDirectory: String?
    /// A line written as a comment at the top of the block (how to regenerate it), if any.
    public let note: String?
    /// The level of each chart's heading (`###` by default).
    public let headingLevel: Int

    /// Creates a block.
    /// - Parameters:
    ///   - charts: The charts.
    ///   - filesDirectory: Where the `.scxml` and `.mmd` files are, relative to the Markdown file.
    ///   - note: A comment line for the top of the block.
    ///   - headingLevel: The Markdown heading level of each chart's title, 1 to 6.
    public init(charts: [Chart], filesDirectory: String? = nil, note: String? = nil, headingLevel: Int = 3) {
        self.charts = charts
        self.filesDirectory = filesDirectory
        self.note = note
        self.headingLevel = min(max(headingLevel, 1), 6)
    }

    /// The lines between the markers, each ending with a newline.
    public var body: String {
        var lines: [String] = []
        if let note { lines.append("<!-- \(XMLText.comment(note)) -->") }
        for chart in charts {
            lines.append("")
            lines.append(String(repeating: "#", count: headingLevel) + " \(chart.name)")
            lines.append("")
            var summary = "`\(chart.swiftType)`: \(chart.states.count) states, \(chart.transitions.count) transitions."
            if let filesDirectory {
                let prefix = filesDirectory.isEmpty || filesDirectory.hasSuffix("/") ? filesDirectory : filesDirectory + "/"
                summary += " Files: [SCXML](\(prefix)\(chart.name).scxml), [Mermaid](\(prefix)\(chart.name).mmd)."
            }
            lines.append(summary)
            lines.append("")
            lines.append("```mermaid")
            lines.append(contentsOf: MermaidExporter(includesTitle: false).export(chart).split(separator: "\n").map(String.init))
            lines.append("```")
        }
        lines.append("")
        return lines.map { $0 + "\n" }.joined()
    }

    /// The Markdown text with the block between the markers replaced by ``body``.
    /// - Parameter markdown: The file's text, with both markers on lines of their own.
    /// - Returns: The updated text; equal to `markdown` when the block is current.
    /// - Throws: ``MarkerError/markersNotFound`` when the markers are missing or out of order.
    public func apply(to markdown: String) throws(MarkerError) -> String {
        guard let begin = markdown.range(of: Self.beginMarker),
            let end = markdown.range(of: Self.endMarker, range: begin.upperBound..<markdown.endIndex)
        else { throw .markersNotFound }
        return String(markdown[..<begin.upperBound]) + "\n" + body + String(markdown[end.lowerBound...])
    }

    /// Whether a Markdown text has both markers, in order.
    /// - Parameter markdown: The text.
    public static func hasMarkers(_ markdown: String) -> Bool {
        guard let begin = markdown.range(of: beginMarker) else { return false }
        return markdown.range(of: endMarker, range: begin.upperBound..<markdown.endIndex) != nil
    }

    /// The first difference between a Markdown file's block and ``body``.
    /// - Parameters:
    ///   - markdown: The file's text.
    ///   - file: The file's name, for the report.
    /// - Returns: The difference, or `nil` when the block is current.
    /// - Throws: ``MarkerError/markersNotFound`` when the markers are missing or out of order.
    public func difference(in markdown: String, file: String) throws(MarkerError) -> ChartDrift? {
        let expected = try apply(to: markdown)
        return ChartDrift.firstDifference(expected: expected, found: markdown).map { ChartDrift(file: file, kind: $0) }
    }
}
