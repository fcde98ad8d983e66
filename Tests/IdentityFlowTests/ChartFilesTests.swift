import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
import IdentityFlowCharts
import Statechart
import StatechartExport

/// The committed `StateCharts/`, the charts block of `docs/statecharts.md` and the DocC catalog's
/// chart pictures against the machines' charts.
@Suite("Committed chart files")
struct ChartFilesTests {
    /// The repository's root: three levels above this file (`Tests/IdentityFlowTests/…`).
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let stateCharts = root.appendingPathComponent("StateCharts", isDirectory: true)
    private static let regenerate = "run `\(FlowCharts.regenerateCommand)` and commit StateCharts/"

    @Test func everyMachineHasAChart() {
        #expect(!FlowCharts.all.isEmpty)
        #expect(Set(FlowCharts.all.map(\.name)).count == FlowCharts.all.count, "chart names must be distinct")
    }

    @Test(arguments: FlowCharts.all.map(\.name))
    func committedSCXMLDescribesExactlyTheMachinesChart(name: String) throws {
        let chart = try #require(FlowCharts.all.first { $0.name == name })
        let url = Self.stateCharts.appendingPathComponent("\(name).scxml")
        let text = try #require(
            try? String(contentsOf: url, encoding: .utf8),
            "StateCharts/\(name).scxml is missing: \(Self.regenerate)")
        let read = try SCXMLReader().read(text)

        #expect(read.name == chart.name)
        #expect(read.swiftType == chart.swiftType)
        #expect(read.initial == chart.initial)
        #expect(read.finals == chart.finals)
        #expect(Set(read.states) == Set(chart.states), "states differ: \(Self.regenerate)")
        let missing = chart.transitions.filter { !read.transitions.contains($0) }
        let extra = read.transitions.filter { !chart.transitions.contains($0) }
        #expect(missing.isEmpty, "transitions the machine has but StateCharts/\(name).scxml lacks: \(missing); \(Self.regenerate)")
        #expect(extra.isEmpty, "transitions StateCharts/\(name).scxml has but the machine lacks: \(extra); \(Self.regenerate)")
        #expect(read.transitions.count == chart.transitions.count, "transition counts differ: \(Self.regenerate)")
    }

    @Test func committedFilesAreWhatTheCodeWouldWrite() throws {
        let drifts = FlowCharts.files().differences(in: Self.stateCharts)
        let pictures = drifts.contains { if case .staleRendering = $0.kind { true } else { false } }
        #expect(
            drifts.isEmpty,
            """
            StateCharts/ differs from the machines' charts: \(Self.regenerate)\(pictures ? " (and run scripts/render-charts.sh for the SVGs)" : "").
            \(drifts.map { "  StateCharts/\($0)" }.joined(separator: "\n"))
            """)
    }

    @Test func markdownChartsBlockIsWhatTheCodeWouldWrite() throws {
        let page = Self.root.appendingPathComponent(FlowCharts.markdownPath)
        let text = try #require(
            try? String(contentsOf: page, encoding: .utf8), "\(FlowCharts.markdownPath) is missing: it holds the charts block")
        #expect(MarkdownChartsBlock.hasMarkers(text), "\(FlowCharts.markdownPath) lacks the charts block's markers")
        let drift = try FlowCharts.readmeBlock(filesDirectory: FlowCharts.markdownFilesDirectory).difference(in: text, file: FlowCharts.markdownPath)
        #expect(
            drift == nil,
            "\(FlowCharts.markdownPath)'s charts block is stale: \(drift.map(String.init(describing:)) ?? ""); run `\(FlowCharts.regenerateCommand)`")
    }

    /// The DocC articles show the rendered charts from the catalog's own copies: each must be the
    /// committed `StateCharts/<Name>.svg`, byte for byte, so the drift check above covers them too.
    @Test(arguments: FlowCharts.all.map(\.name))
    func catalogChartIsTheCommittedRendering(name: String) throws {
        let committed = Self.stateCharts.appendingPathComponent("\(name).svg")
        let copy = Self.root.appendingPathComponent(FlowCharts.catalogResourcesPath).appendingPathComponent("\(name).svg")
        let expected = try #require(try? Data(contentsOf: committed), "StateCharts/\(name).svg is missing: run scripts/render-charts.sh")
        let found = try #require(
            try? Data(contentsOf: copy), "\(FlowCharts.catalogResourcesPath)/\(name).svg is missing: run scripts/render-charts.sh")
        #expect(found == expected, "\(FlowCharts.catalogResourcesPath)/\(name).svg differs from StateCharts/\(name).svg: run scripts/render-charts.sh")
        let digest = ChartDigest.recorded(in: String(decoding: found, as: UTF8.self))
        let chart = try #require(FlowCharts.all.first { $0.name == name })
        #expect(digest == ChartDigest(of: chart).hex, "the catalog's \(name).svg shows an older chart: run scripts/render-charts.sh")
    }

    @Test func catalogHoldsNoChartOfAMachineThatIsGone() throws {
        let folder = Self.root.appendingPathComponent(FlowCharts.catalogResourcesPath, isDirectory: true)
        // A chart picture is an SVG carrying a chart digest; other pictures may live there too.
        let charts = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { name in
            name.hasSuffix(".svg")
                && (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)).flatMap(ChartDigest.recorded(in:)) != nil
        }
        let names = Set(FlowCharts.all.map { "\($0.name).svg" })
        #expect(Set(charts) == names, "the catalog's chart pictures are exactly the machines' charts: run scripts/render-charts.sh and remove leftovers")
    }

    @Test func anEditedMachineIsReportedAsDrift() throws {
        let chart = try #require(FlowCharts.all.first)
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("charts-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.copyItem(at: Self.stateCharts, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }

        let extraTransition = ChartTransition(from: chart.initial, on: "editedWithoutRegenerating", to: chart.initial)
        let edited = Chart(
            name: chart.name, swiftType: chart.swiftType, initial: chart.initial, finals: chart.finals,
            transitions: chart.transitions + [extraTransition])
        let others = FlowCharts.all.filter { $0.name != chart.name }
        let files = ChartFiles(charts: [edited] + others, note: FlowCharts.generatedNote)

        let drifts = files.differences(in: copy)
        let scxml = try #require(drifts.first { $0.file == "\(chart.name).scxml" })
        guard case let .differs(_, expected, _) = scxml.kind else {
            Issue.record("expected \(chart.name).scxml to differ, got \(scxml)")
            return
        }
        #expect(expected?.contains("editedWithoutRegenerating") == true)
        #expect(drifts.contains { $0.file == "\(chart.name).mmd" })
        if FileManager.default.fileExists(atPath: copy.appendingPathComponent("\(chart.name).svg").path) {
            #expect(
                drifts.contains(
                    ChartDrift(
                        file: "\(chart.name).svg",
                        kind: .staleRendering(expected: ChartDigest(of: edited), found: ChartDigest(of: chart).hex))))
        }

        try files.write(to: copy)
        #expect(files.differences(in: copy).allSatisfy { if case .staleRendering = $0.kind { true } else { false } })
    }
}
