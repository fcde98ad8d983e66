import Foundation
@_spi(Integrator) import IdentityFlow
import IdentityFlowCharts
import StatechartExport

/// `identityflow charts`: writes StateCharts/ (and the diagrams of docs/statecharts.md) from the
/// machines' charts, or with `--check` reports every difference between them and the committed files.
enum ChartsCommand {
    static let usage = """
        usage: identityflow charts [--check] [--format scxml|mermaid|dot|all] [--output DIR] [--readme FILE]
          (no option)      write StateCharts/<Name>.scxml and .mmd for every machine, and the
                           diagrams between <!-- charts:begin --> and <!-- charts:end --> in
                           ./docs/statecharts.md when it has those markers
          --check          write nothing; print each difference and exit 1 if the files differ
                           from what the code would write (and SVGs rendered from older charts)
          --format F       scxml, mermaid, dot or all, comma-separated (default scxml,mermaid)
          --output DIR     the directory to write or check (default StateCharts); the Markdown
                           file is then only touched with --readme
          --readme FILE    the Markdown file whose charts block to write or check; it must have
                           the markers
        """

    static func run(_ arguments: [String]) -> Int32 {
        let options: ChartsOptions
        do {
            options = try ChartsOptions(arguments)
        } catch {
            printError("identityflow charts: \(error.message)\n\n\(usage)")
            return 2
        }
        if options.help {
            print(usage)
            return 0
        }
        let outputPath = options.output ?? "StateCharts"
        let output = URL(fileURLWithPath: outputPath, isDirectory: true)
        let files = FlowCharts.files(formats: options.formats)
        let readme = readmeTarget(options: options, outputPath: outputPath)
        if case .failed(let message) = readme {
            printError("identityflow charts: \(message)")
            return 1
        }
        return options.check
            ? check(files, in: output, displayedAs: outputPath, readme: readme)
            : write(files, to: output, displayedAs: outputPath, readme: readme)
    }

    // MARK: - Writing

    private static func write(_ files: ChartFiles, to output: URL, displayedAs outputPath: String, readme: ReadmeTarget) -> Int32 {
        do {
            let result = try files.write(to: output)
            for name in result.written { print("wrote     \(display(outputPath, name))") }
            for name in result.unchanged { print("unchanged \(display(outputPath, name))") }
            for name in result.removed { print("removed   \(display(outputPath, name))") }
            if case let .file(path, text, block) = readme {
                let updated = try block.apply(to: text)
                if updated == text {
                    print("unchanged \(path) (charts block)")
                } else {
                    try Data(updated.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                    print("wrote     \(path) (charts block)")
                }
            }
        } catch {
            printError("identityflow charts: \(error)")
            return 1
        }
        for drift in files.differences(in: output) {
            if case .staleRendering = drift.kind {
                print("warning: \(display(outputPath, drift.file)) shows an older chart: run scripts/render-charts.sh")
            }
        }
        return 0
    }

    // MARK: - Checking

    private static func check(_ files: ChartFiles, in output: URL, displayedAs outputPath: String, readme: ReadmeTarget) -> Int32 {
        var drifts = files.differences(in: output).map { drift in
            ChartDrift(file: display(outputPath, drift.file), kind: drift.kind)
        }
        var checked = "\(files.files.count) files in \(outputPath)"
        if case let .file(path, text, block) = readme {
            do {
                if let drift = try block.difference(in: text, file: path) { drifts.append(drift) }
                checked += " and the charts block of \(path)"
            } catch {
                drifts.append(ChartDrift(file: path, kind: .missing))
            }
        }
        guard !drifts.isEmpty else {
            let count = files.charts.count
            print("OK: \(checked) match the \(count) chart\(count == 1 ? "" : "s") the code declares.")
            return 0
        }
        for drift in drifts { print(drift) }
        let pictures = drifts.contains { if case .staleRendering = $0.kind { true } else { false } }
        print(
            """
            \(drifts.count) difference\(drifts.count == 1 ? "" : "s") between the committed charts and the code: \
            run `\(FlowCharts.regenerateCommand)`\(pictures ? " and scripts/render-charts.sh" : "") and commit the result.
            """)
        return 1
    }

    // MARK: - The Markdown charts block

    private enum ReadmeTarget {
        case none
        case file(path: String, text: String, block: MarkdownChartsBlock)
        case failed(String)
    }

    /// The Markdown file to update: the one `--readme` names (which must have the markers), else
    /// ``FlowCharts/markdownPath`` when the output directory is the default and the file has the markers.
    private static func readmeTarget(options: ChartsOptions, outputPath: String) -> ReadmeTarget {
        let path = options.readme ?? FlowCharts.markdownPath
        let explicit = options.readme != nil
        guard explicit || options.output == nil else { return .none }
        guard let text = try? String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8) else {
            return explicit ? .failed("cannot read \(path)") : .none
        }
        guard MarkdownChartsBlock.hasMarkers(text) else {
            return explicit
                ? .failed(
                    "\(path) has no \(MarkdownChartsBlock.beginMarker) ... \(MarkdownChartsBlock.endMarker) block: add both markers, each on its own line, where the diagrams belong"
                )
                : .none
        }
        let block = FlowCharts.readmeBlock(filesDirectory: relativePath(from: path, to: outputPath))
        return .file(path: path, text: text, block: block)
    }

    /// The path of `directory` relative to the folder holding `file`.
    private static func relativePath(from file: String, to directory: String) -> String {
        let base = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.pathComponents
        let target = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL.pathComponents
        let common = zip(base, target).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: base.count - common) + target.dropFirst(common)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    // MARK: - Output

    private static func display(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    private static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
