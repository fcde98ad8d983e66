import IdentityFlow
import StatechartExport

extension FlowCharts {
    /// The command that writes `StateCharts/` and the diagrams of ``markdownPath`` from ``all``.
    package static let regenerateCommand = "swift run identityflow charts"

    /// The Markdown page, relative to the repository's root, whose charts block the command writes
    /// by default: every chart's Mermaid diagram.
    package static let markdownPath = "docs/statecharts.md"

    /// Where `StateCharts/` is relative to ``markdownPath``'s folder, as its charts block links it.
    package static let markdownFilesDirectory = "../StateCharts"

    /// The folder, relative to the repository's root, of the DocC catalog's copies of the rendered
    /// charts (`<Name>.svg`), which the flows' articles show; `scripts/render-charts.sh` writes them.
    package static let catalogResourcesPath = "Sources/IdentityFlow/IdentityFlow.docc/Resources"

    /// The header line of every generated chart file and of the Markdown charts block.
    package static let generatedNote = "Generated from the code by `\(regenerateCommand)`; do not edit."

    /// The files `identityflow charts` writes for ``all``.
    /// - Parameter formats: The formats; SCXML and Mermaid by default, as committed in `StateCharts/`.
    /// - Returns: The file set, to write or to check a directory against.
    package static func files(formats: Set<ChartFormat> = [.scxml, .mermaid]) -> ChartFiles {
        ChartFiles(charts: all, formats: formats, note: generatedNote)
    }

    /// The Markdown block `identityflow charts` writes: each chart's Mermaid diagram.
    /// - Parameter filesDirectory: Where `StateCharts/` is, relative to the Markdown file.
    /// - Returns: The block, to apply to a Markdown file or to check one against.
    package static func readmeBlock(filesDirectory: String = "StateCharts") -> MarkdownChartsBlock {
        MarkdownChartsBlock(charts: all, filesDirectory: filesDirectory, note: generatedNote)
    }
}
