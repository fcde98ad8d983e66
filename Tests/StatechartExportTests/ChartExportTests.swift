import Foundation
import Testing
import Statechart
@testable import StatechartExport

/// A small chart with guards, parallel transitions, two finals and names that need escaping.
let doorChart = Chart(
    name: "Door",
    swiftType: "Demo.DoorMachine",
    initial: "closed",
    finals: ["removed", "broken"],
    transitions: [
        .init(from: "closed", on: "opened", to: "open"),
        .init(from: "open", on: "closed", guard: "notLocked", to: "closed"),
        .init(from: "open", on: "kicked", guard: "hard", to: "broken"),
        .init(from: "open", on: "kicked", guard: "veryHard", to: "broken"),
        .init(from: "closed", on: "unhinged", to: "removed"),
        .init(from: "closed", on: "kicked", guard: "hard", to: "broken"),
        .init(from: "closed", on: "x<y & \"z\"", guard: "a'b", to: "open"),
    ])

@Suite("Chart exporters")
struct ChartExportTests {
    @Test func scxmlIsTheExpectedDocument() {
        let expected = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- swift-type: Demo.DoorMachine -->
            <!-- regenerate with make - - no edits -->
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="Door" initial="closed">
              <state id="closed">
                <transition event="opened" target="open"/>
                <transition event="unhinged" target="removed"/>
                <transition event="kicked" cond="hard" target="broken"/>
                <transition event="x&lt;y &amp; &quot;z&quot;" cond="a&apos;b" target="open"/>
              </state>
              <state id="open">
                <transition event="closed" cond="notLocked" target="closed"/>
                <transition event="kicked" cond="hard" target="broken"/>
                <transition event="kicked" cond="veryHard" target="broken"/>
              </state>
              <final id="broken"/>
              <final id="removed"/>
            </scxml>

            """
        #expect(SCXMLExporter(note: "regenerate with make -- no edits").export(doorChart) == expected)
    }

    @Test func mermaidMergesParallelTransitionsAndEndsFinals() {
        let expected = """
            ---
            title: Door
            ---
            stateDiagram-v2
                %% Chart of Demo.DoorMachine.
                [*] --> closed
                closed --> open : opened<br/>x#lt;y & #quot;z#quot; [a'b]
                open --> closed : closed [notLocked]
                open --> broken : kicked [hard | veryHard]
                closed --> removed : unhinged
                closed --> broken : kicked [hard]
                broken --> [*]
                removed --> [*]

            """
        #expect(MermaidExporter().export(doorChart) == expected)
    }

    @Test func mermaidAliasesStatesThatAreNotIdentifiers() {
        let chart = Chart(
            name: "Odd", swiftType: "T", initial: "waiting room", finals: ["end"],
            transitions: [.init(from: "waiting room", on: "called;now", to: "end")])
        let lines = MermaidExporter(includesTitle: false).export(chart).split(separator: "\n")
        #expect(lines.contains(#"    state "waiting room" as s1"#))
        #expect(lines.contains(#"    state "end" as s2"#))
        #expect(lines.contains("    s1 --> s2 : called#59;now"))
        #expect(lines.contains("    s2 --> [*]"))
        #expect(lines.first == "stateDiagram-v2")
    }

    @Test func dotHasInitialPointFinalsAndMergedLabels() {
        let dot = DOTExporter(rankDirection: .leftToRight).export(doorChart)
        #expect(dot.hasPrefix("// swift-type: Demo.DoorMachine\ndigraph \"Door\" {\n"))
        #expect(dot.contains("rankdir=LR"))
        #expect(dot.contains(#""__start" [shape=point"#))
        #expect(dot.contains(#""__start" -> "closed";"#))
        #expect(dot.contains(#""broken" [shape=doublecircle"#))
        #expect(dot.contains(#""removed" [shape=doublecircle"#))
        #expect(dot.contains(#""open";"#))
        #expect(dot.contains(#""open" -> "broken" [label="kicked [hard | veryHard]"];"#))
        #expect(dot.contains(#""closed" -> "open" [label="opened\nx<y & \"z\" [a'b]"];"#))
        #expect(dot.contains("comment=\"\(ChartDigest(of: doorChart))\""))
        #expect(dot.hasSuffix("}\n"))
    }

    @Test func dotStartNodeAvoidsAStateOfTheSameName() {
        let chart = Chart(name: "S", swiftType: "T", initial: "__start", finals: ["done"], transitions: [.init(from: "__start", on: "go", to: "done")])
        #expect(DOTExporter().export(chart).contains(#""__start_" -> "__start";"#))
    }

    @Test(arguments: ChartFormat.allCases)
    func exportsAreDeterministic(format: ChartFormat) {
        let reordered = Chart(
            name: doorChart.name, swiftType: doorChart.swiftType, initial: doorChart.initial,
            finals: ["broken", "removed"], transitions: doorChart.transitions)
        #expect(format.export(doorChart) == format.export(reordered))
        #expect(format.export(doorChart, note: "n") == format.export(doorChart, note: "n"))
    }

    @Test func digestChangesWithAGuardAndIsFoundInARenderedFile() {
        var transitions = doorChart.transitions
        transitions[1] = .init(from: "open", on: "closed", guard: "unlocked", to: "closed")
        let edited = Chart(name: "Door", swiftType: "Demo.DoorMachine", initial: "closed", finals: doorChart.finals, transitions: transitions)
        let digest = ChartDigest(of: doorChart)
        #expect(digest.hex.count == 16)
        #expect(digest != ChartDigest(of: edited))
        #expect(digest == ChartDigest(of: doorChart))
        let svg = "<svg>\n<!-- \(digest) -->\n<g/></svg>"
        #expect(ChartDigest.recorded(in: svg) == digest.hex)
        #expect(ChartDigest.recorded(in: "<svg/>") == nil)
    }
}
