import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
import IdentityFlowCharts
import Statechart
import StatechartExport

/// The committed `StateCharts/` (and the README's charts block) against the machines' charts.
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

    @Test func readmeChartsBlockIsWhatTheCodeWouldWrite() throws {
        let readme = Self.root.appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: readme, encoding: .utf8), MarkdownChartsBlock.hasMarkers(text) else {
            return  // No README block to keep current (the command only writes one between markers).
        }
        let drift = try FlowCharts.readmeBlock().difference(in: text, file: "README.md")
        #expect(drift == nil, "README.md's charts block is stale: \(drift.map(String.init(describing:)) ?? ""); run `\(FlowCharts.regenerateCommand)`")
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
