import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import Statechart
@testable import StatechartExport

@Suite("SCXML reader")
struct SCXMLReaderTests {
    @Test func readsBackExactlyWhatWasWritten() throws {
        let chart = try SCXMLReader().read(SCXMLExporter(note: "note").export(doorChart))
        #expect(chart.name == doorChart.name)
        #expect(chart.swiftType == doorChart.swiftType)
        #expect(chart.initial == doorChart.initial)
        #expect(chart.finals == doorChart.finals)
        #expect(Set(chart.states) == Set(doorChart.states))
        #expect(chart.transitions.count == doorChart.transitions.count)
        #expect(Set(chart.transitions) == Set(doorChart.transitions))
        #expect(chart.transitions.contains(.init(from: "closed", on: "x<y & \"z\"", guard: "a'b", to: "open")))
    }

    @Test func keepsDuplicateTransitionsSoCountsCanBeCompared() throws {
        let text = document(
            """
            <state id="a"><transition event="e" target="b"/><transition event="e" target="b"/></state>
            <final id="b"/>
            """)
        #expect(try SCXMLReader().read(text).transitions.count == 2)
    }

    @Test func rejectsADocumentThatIsNotSCXML() {
        #expect(throws: SCXMLReadError.notSCXML(root: "html")) { try SCXMLReader().read("<html/>") }
        #expect(throws: SCXMLReadError.notSCXML(root: "scxml")) { try SCXMLReader().read("<scxml/>") }
    }

    @Test func rejectsMalformedXML() {
        #expect {
            try SCXMLReader().read(document(#"<state id="a">"#))
        } throws: { error in
            if case .malformed = error as? SCXMLReadError { true } else { false }
        }
    }

    @Test func rejectsWhatAChartCannotExpress() {
        #expect(throws: SCXMLReadError.unknownState(id: "nowhere")) {
            try SCXMLReader().read(document(#"<state id="a"><transition event="e" target="nowhere"/></state>"#))
        }
        #expect(throws: SCXMLReadError.duplicateState(id: "a")) {
            try SCXMLReader().read(document(#"<state id="a"><transition event="e" target="a"/></state><final id="a"/>"#))
        }
        #expect(throws: SCXMLReadError.isolatedState(id: "lonely")) {
            try SCXMLReader().read(document(#"<state id="a"><transition event="e" target="b"/></state><state id="lonely"/><final id="b"/>"#))
        }
        #expect(throws: SCXMLReadError.missingAttribute(element: "transition", attribute: "event", line: 3)) {
            try SCXMLReader().read(document(#"<state id="a"><transition target="a"/></state>"#))
        }
        #expect(throws: SCXMLReadError.unsupportedElement(name: "parallel", line: 3)) {
            try SCXMLReader().read(document(#"<parallel id="p"/>"#))
        }
    }

    @Test func refusesDoctypeEntitiesAndProcessingInstructionsBeforeParsing() {
        let external = #"<?xml version="1.0"?><!DOCTYPE s [<!ENTITY x SYSTEM "file:///etc/passwd">]><scxml xmlns="http://www.w3.org/2005/07/scxml">&x;<"#
        #expect(throws: SCXMLReadError.unsupportedMarkup(kind: "DOCTYPE or entity declaration", line: 1)) { try SCXMLReader().read(external) }
        #expect(throws: SCXMLReadError.unsupportedMarkup(kind: "processing instruction", line: 1)) { try SCXMLReader().read("<?a?>") }
        #expect(throws: SCXMLReadError.unsupportedMarkup(kind: "processing instruction", line: 3)) {
            try SCXMLReader().read(document(#"<?a?><state id="a"><transition event="e" target="a"/></state>"#))
        }
        #expect(throws: SCXMLReadError.unsupportedMarkup(kind: "unterminated XML declaration", line: 1)) { try SCXMLReader().read("<?xml version") }
        #expect(throws: SCXMLReadError.unsupportedMarkup(kind: "unterminated XML declaration", line: 1)) {
            try SCXMLReader().read(#"<?xml version="1.0" <scxml xmlns="http://www.w3.org/2005/07/scxml"><?a?>"#)
        }
    }

    @Test func commentsAndCDATAAreReadButCannotHideRefusedMarkup() throws {
        let text = document(#"<!-- a note --><state id="a"><transition event="e" target="b"/></state><final id="b"/><![CDATA[x]]>"#)
        #expect(try SCXMLReader().read(text).transitions.count == 1)
        #expect(throws: SCXMLReadError.unsupportedMarkup(kind: "processing instruction", line: 3)) {
            try SCXMLReader().read(document(#"<!-- unterminated <state id="a"/><?a?>"#))
        }
    }

    @Test func anEndElementWithNoOpenStateDoesNotTrap() {
        let delegate = SCXMLParsingDelegate()
        delegate.parser(XMLParser(data: Data()), didEndElement: "state", namespaceURI: nil, qualifiedName: nil)
        #expect(delegate.states.isEmpty)
    }

    private func document(_ body: String) -> String {
        """
        <?xml version="1.0"?>
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="T" initial="a">
        \(body)
        </scxml>
        """
    }
}

/// Compound states: a child machine's leaves nested in the parent's chart.
@Suite("Compound states")
struct CompoundStateTests {
    /// A parent whose `entering` compound holds a two-state child.
    static let chart = Chart(
        name: "Parent", swiftType: "Demo.Parent", initial: "idle", finals: ["done"],
        transitions: [
            .init(from: "idle", on: "started", to: "asking"),
            .init(from: "asking", on: "answered", to: "checking"),
            .init(from: "checking", on: "checked", guard: "wrong", to: "asking"),
            .init(from: "checking", on: "checked", guard: "right", to: "done"),
        ],
        compounds: [ChartCompound(name: "entering", initial: "asking", children: ["asking", "checking"])])

    @Test func scxmlNestsTheLeavesAndReadsTheCompoundBack() throws {
        let text = SCXMLExporter().export(Self.chart)
        #expect(text.contains(#"  <state id="entering" initial="asking">"# + "\n" + #"    <state id="asking">"#))
        #expect(text.contains(#"      <transition event="checked" cond="right" target="done"/>"#))
        let read = try SCXMLReader().read(text)
        #expect(read.compounds == Self.chart.compounds)
        #expect(Set(read.transitions) == Set(Self.chart.transitions))
        #expect(read.states == Self.chart.states)
        #expect(read.compound(holding: "checking")?.name == "entering")
        #expect(read.compound(holding: "idle") == nil)
    }

    @Test func mermaidDrawsACompositeStateWithItsInnerTransitions() {
        let text = MermaidExporter(includesTitle: false).export(Self.chart)
        #expect(text.contains("    state entering {\n        [*] --> asking\n        asking\n        checking\n"))
        #expect(text.contains("        asking --> checking : answered\n"))
        #expect(text.contains("    }\n"))
        #expect(text.contains("    checking --> done : checked [right]\n"))
        #expect(!text.split(separator: "\n").contains("    asking --> checking : answered"))
    }

    @Test func dotDrawsAClusterAroundTheLeaves() {
        let text = DOTExporter().export(Self.chart)
        #expect(text.contains(#"    subgraph "cluster_entering" {"#))
        #expect(text.contains("        \"asking\";\n        \"checking\";\n    }"))
        #expect(!text.split(separator: "\n").contains("    \"asking\";"))
    }

    /// A parent whose `signing` compound nests two variants (`browser`, `custom`) and holds a leaf
    /// of its own (`choosing`); `enrolling` sits beside it.
    static let nested = Chart(
        name: "Nested", swiftType: "Demo.Nested", initial: "idle", finals: ["done"],
        transitions: [
            .init(from: "idle", on: "started", to: "choosing"),
            .init(from: "choosing", on: "chose", guard: "browser", to: "redirecting"),
            .init(from: "choosing", on: "chose", guard: "custom", to: "sending"),
            .init(from: "redirecting", on: "redirected", to: "exchanging"),
            .init(from: "exchanging", on: "failed", to: "choosing"),
            .init(from: "exchanging", on: "exchanged", to: "pin"),
            .init(from: "sending", on: "answered", to: "pin"),
            .init(from: "pin", on: "stored", to: "done"),
        ],
        compounds: [
            ChartCompound(name: "signing", initial: "choosing", children: ["choosing", "redirecting", "exchanging", "sending"]),
            ChartCompound(name: "browser", initial: "redirecting", children: ["redirecting", "exchanging"]),
            ChartCompound(name: "custom", initial: "sending", children: ["sending"]),
            ChartCompound(name: "enrolling", initial: "pin", children: ["pin"]),
        ])

    @Test func nestedCompoundsAreNestedInEveryFormatAndReadBack() throws {
        let chart = Self.nested
        #expect(chart.compound(holding: "exchanging")?.name == "browser")
        #expect(chart.compound(holding: "choosing")?.name == "signing")
        #expect(chart.compounds(holding: "sending").map(\.name) == ["signing", "custom"])
        #expect(chart.parent(of: chart.compounds[1])?.name == "signing")
        #expect(chart.parent(of: chart.compounds[3]) == nil)
        // SCXML: <state> in <state> in <state>; the reader gives back the same compounds.
        let text = SCXMLExporter().export(chart)
        #expect(
            text.contains(
                #"  <state id="signing" initial="choosing">"# + "\n" + #"    <state id="choosing">"#))
        #expect(text.contains(#"    <state id="browser" initial="redirecting">"# + "\n" + #"      <state id="redirecting">"#))
        #expect(text.contains(#"    <state id="custom" initial="sending">"# + "\n" + #"      <state id="sending">"#))
        let read = try SCXMLReader().read(text)
        #expect(read.compounds == chart.compounds)
        #expect(Set(read.transitions) == Set(chart.transitions))
        #expect(read.states == chart.states)
        // Mermaid: composites in composites; a transition in the innermost composite holding both ends.
        let mermaid = MermaidExporter(includesTitle: false).export(chart)
        #expect(mermaid.contains("    state signing {\n        [*] --> choosing\n        choosing\n        state browser {\n            [*] --> redirecting\n"))
        #expect(mermaid.contains("            redirecting --> exchanging : redirected\n"))
        #expect(mermaid.contains("        exchanging --> choosing : failed\n"))
        #expect(mermaid.contains("\n    exchanging --> pin : exchanged\n"))
        // DOT: clusters in clusters, each leaf listed once, in its innermost cluster.
        let dot = DOTExporter().export(chart)
        #expect(dot.contains("    subgraph \"cluster_signing\" {"))
        #expect(dot.contains("        \"choosing\";\n        subgraph \"cluster_browser\" {"))
        #expect(dot.contains("            \"redirecting\";\n            \"exchanging\";\n        }"))
        #expect(dot.components(separatedBy: "\"exchanging\";").count == 2)
    }

    @Test func aChartWithoutCompoundsExportsAsBefore() throws {
        let flat = Chart(name: Self.chart.name, swiftType: Self.chart.swiftType, initial: "idle", finals: ["done"], transitions: Self.chart.transitions)
        #expect(!SCXMLExporter().export(flat).contains("entering"))
        #expect(try SCXMLReader().read(SCXMLExporter().export(flat)).compounds.isEmpty)
        #expect(ChartDigest(of: flat) != ChartDigest(of: Self.chart))
    }

    @Test func refusesWhatTheCompoundModelCannotExpress() {
        func document(_ body: String) -> String {
            #"<?xml version="1.0"?><scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="T" initial="a">"# + body + "</scxml>"
        }
        // A transition on the compound itself, nesting two levels deep, a target that is a compound.
        #expect(throws: SCXMLReadError.unsupportedElement(name: "transition (on a compound state)", line: 1)) {
            try SCXMLReader().read(
                document(#"<state id="c"><state id="a"><transition event="e" target="a"/></state><transition event="x" target="a"/></state>"#))
        }
        #expect(throws: SCXMLReadError.unsupportedElement(name: "state (nested)", line: 1)) {
            try SCXMLReader().read(document(#"<state id="c"><state id="d"><state id="a"/></state></state>"#))
        }
        #expect(throws: SCXMLReadError.unknownState(id: "c")) {
            try SCXMLReader().read(document(#"<state id="c"><state id="a"><transition event="e" target="c"/></state></state>"#))
        }
        #expect(throws: SCXMLReadError.unknownState(id: "z")) {
            try SCXMLReader().read(document(#"<state id="c" initial="z"><state id="a"><transition event="e" target="a"/></state></state>"#))
        }
    }
}
