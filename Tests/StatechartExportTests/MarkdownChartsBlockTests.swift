import Foundation
import Testing
import Statechart
@testable import StatechartExport

@Suite("Markdown charts block")
struct MarkdownChartsBlockTests {
    private let block = MarkdownChartsBlock(charts: [doorChart], filesDirectory: "StateCharts", note: "generated")

    @Test func replacesOnlyTheBlockBetweenTheMarkers() throws {
        let readme = "# Title\n\nIntro.\n\n<!-- charts:begin -->\nold diagram\n<!-- charts:end -->\n\nMore.\n"
        let updated = try block.apply(to: readme)
        #expect(updated.hasPrefix("# Title\n\nIntro.\n\n<!-- charts:begin -->\n<!-- generated -->\n\n### Door\n\n"))
        #expect(updated.hasSuffix("```\n\n<!-- charts:end -->\n\nMore.\n"))
        #expect(updated.contains("`Demo.DoorMachine`: 4 states, 7 transitions. Files: [SCXML](StateCharts/Door.scxml), [Mermaid](StateCharts/Door.mmd)."))
        #expect(updated.contains("```mermaid\nstateDiagram-v2\n"))
        #expect(updated.contains("    open --> broken : kicked [hard | veryHard]\n"))
        #expect(!updated.contains("old diagram"))
        #expect(try block.apply(to: updated) == updated)
        #expect(try block.difference(in: updated, file: "README.md") == nil)
    }

    @Test func reportsAStaleBlock() throws {
        let stale = try block.apply(to: "<!-- charts:begin -->\n<!-- charts:end -->\n")
            .replacingOccurrences(of: "veryHard", with: "soft")
        let drift = try #require(try block.difference(in: stale, file: "README.md"))
        #expect(drift.file == "README.md")
        guard case let .differs(_, expected, found) = drift.kind else {
            Issue.record("expected a differing line, got \(drift)")
            return
        }
        #expect(expected?.contains("veryHard") == true && found?.contains("soft") == true)
    }

    @Test func needsBothMarkersInOrder() {
        #expect(throws: MarkdownChartsBlock.MarkerError.markersNotFound) { try block.apply(to: "# README\n") }
        #expect(throws: MarkdownChartsBlock.MarkerError.markersNotFound) {
            try block.apply(to: "<!-- charts:end -->\n<!-- charts:begin -->\n")
        }
        #expect(!MarkdownChartsBlock.hasMarkers("<!-- charts:begin -->"))
        #expect(MarkdownChartsBlock.hasMarkers("<!-- charts:begin -->\n<!-- charts:end -->"))
    }
}
