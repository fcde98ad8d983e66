import IdentityFlow
import StatechartExport

extension FlowCharts {
    /// The command that writes `StateCharts/` and the README's diagrams from ``all``.
    package static let regenerateCommand = "swift run identityflow charts"

    /// The header line of every generated chart file and of the README's charts block.
    package static let generatedNote = "Generated from the code by `\(regenerateCommand)`; do not edit."

    /// The files `identityflow charts` writes for ``all``.
    /// - Parameter formats: The formats; SCXML and Mermaid by default, as committed in `StateCharts/`.
    /// - Returns: The file set, to write or to check a directory against.
    package static func files(formats: Set<ChartFormat> = [.scxml, .mermaid]) -> ChartFiles {
        ChartFiles(charts: all, formats: formats, note: generatedNote)
    }

    /// The README block `identityflow charts` writes: each chart's Mermaid diagram.
    /// - Parameter filesDirectory: Where `StateCharts/` is, relative to the README.
    /// - Returns: The block, to apply to a README or to check one against.
    package static func readmeBlock(filesDirectory: String = "StateCharts") -> MarkdownChartsBlock {
        MarkdownChartsBlock(charts: all, filesDirectory: filesDirectory, note: generatedNote)
    }
}
