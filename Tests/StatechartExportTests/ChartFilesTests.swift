import Foundation
import Testing
import Statechart
@testable import StatechartExport

@Suite("Chart files")
struct StatechartChartFilesTests {
    private let files = ChartFiles(charts: [doorChart], note: "regenerate")

    @Test func namesOneFilePerChartAndFormat() {
        #expect(files.files.map(\.name) == ["Door.scxml", "Door.mmd"])
        let all = ChartFiles(charts: [doorChart], formats: Set(ChartFormat.allCases))
        #expect(all.files.map(\.name) == ["Door.scxml", "Door.mmd", "Door.dot"])
    }

    @Test func aWrittenDirectoryHasNoDifferences() throws {
        try withTemporaryDirectory { directory in
            let first = try files.write(to: directory)
            #expect(first.written == ["Door.scxml", "Door.mmd"])
            #expect(files.differences(in: directory).isEmpty)
            let second = try files.write(to: directory)
            #expect(second.unchanged == ["Door.scxml", "Door.mmd"] && second.written.isEmpty)
        }
    }

    @Test func reportsMissingDifferingAndLeftoverFiles() throws {
        try withTemporaryDirectory { directory in
            try files.write(to: directory)
            try FileManager.default.removeItem(at: directory.appendingPathComponent("Door.mmd"))
            let scxml = directory.appendingPathComponent("Door.scxml")
            let edited = try String(contentsOf: scxml, encoding: .utf8).replacingOccurrences(of: "notLocked", with: "unlocked")
            try Data(edited.utf8).write(to: scxml)
            try Data("old".utf8).write(to: directory.appendingPathComponent("Window.scxml"))
            try Data("notes".utf8).write(to: directory.appendingPathComponent("notes.txt"))

            let drifts = files.differences(in: directory)
            #expect(
                drifts == [
                    ChartDrift(
                        file: "Door.scxml",
                        kind: .differs(
                            line: 12, expected: #"    <transition event="closed" cond="notLocked" target="closed"/>"#,
                            found: #"    <transition event="closed" cond="unlocked" target="closed"/>"#)),
                    ChartDrift(file: "Door.mmd", kind: .missing),
                    ChartDrift(file: "Window.scxml", kind: .unexpected),
                ])
            #expect(drifts[0].description.hasPrefix("Door.scxml: line 12 differs: expected"))

            let result = try files.write(to: directory)
            #expect(result.removed == ["Window.scxml"])
            #expect(files.differences(in: directory).isEmpty)
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("notes.txt").path))
        }
    }

    @Test func reportsAPictureRenderedFromAnotherChart() throws {
        try withTemporaryDirectory { directory in
            try files.write(to: directory)
            let svg = directory.appendingPathComponent("Door.svg")
            try Data("<svg><!-- \(ChartDigest(of: doorChart)) --></svg>".utf8).write(to: svg)
            #expect(files.differences(in: directory).isEmpty)

            try Data("<svg><!-- chart digest fnv1a64:0000000000000000 --></svg>".utf8).write(to: svg)
            #expect(
                files.differences(in: directory) == [
                    ChartDrift(file: "Door.svg", kind: .staleRendering(expected: ChartDigest(of: doorChart), found: "0000000000000000"))
                ])

            try Data("<svg><!-- chart digest fnv1a64:0000000000000000 --></svg>".utf8).write(to: directory.appendingPathComponent("Gone.svg"))
            try Data("<svg/>".utf8).write(to: directory.appendingPathComponent("logo.svg"))
            #expect(files.differences(in: directory).last == ChartDrift(file: "Gone.svg", kind: .unexpected))
        }
    }

    @Test func firstDifferenceNamesTheLineOrTheEndOfFile() {
        #expect(ChartDrift.firstDifference(expected: "a\nb\n", found: "a\nb\n") == nil)
        #expect(ChartDrift.firstDifference(expected: "a\nb\n", found: "a\nc\n") == .differs(line: 2, expected: "b", found: "c"))
        #expect(ChartDrift.firstDifference(expected: "a\nb\nc", found: "a\nb") == .differs(line: 3, expected: "c", found: nil))
        #expect(
            ChartDrift(file: "f", kind: .differs(line: 3, expected: "c", found: nil)).description
                == #"f: line 3 differs: expected "c", found end of file"#)
    }
}

/// Runs `body` with a new empty directory, removed afterwards.
func withTemporaryDirectory(_ body: (URL) throws -> Void) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("charts-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try body(directory)
}
