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
        let text = document("""
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

    private func document(_ body: String) -> String {
        """
        <?xml version="1.0"?>
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="T" initial="a">
        \(body)
        </scxml>
        """
    }
}
