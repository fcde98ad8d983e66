import Foundation
import Statechart
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Collects the parts of an SCXML document ``SCXMLReader`` turns into a ``Chart``.
///
/// Used once, synchronously, by one `XMLParser` on the reader's thread.
final class SCXMLParsingDelegate: NSObject, XMLParserDelegate {
    /// A `<state>` or `<final>` element, in document order.
    struct StateElement {
        let id: String
        let isFinal: Bool
        /// The compound state it is nested in, if any.
        let parent: String?
        /// The `initial` attribute (a compound state's initial child).
        let initial: String?
    }

    private(set) var name: String?
    private(set) var initial: String?
    private(set) var swiftType = ""
    private(set) var states: [StateElement] = []
    private(set) var transitions: [ChartTransition] = []
    private(set) var error: SCXMLReadError?

    private var openStates: [String] = []
    private var sawRoot = false

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes: [String: String] = [:]
    ) {
        guard error == nil else { return }
        let line = parser.lineNumber
        if !sawRoot {
            sawRoot = true
            guard elementName == "scxml", namespaceURI == SCXMLExporter.namespace else {
                fail(.notSCXML(root: elementName), parser)
                return
            }
            name = attributes["name"]
            initial = attributes["initial"]
            return
        }
        switch elementName {
        case "state", "final":
            // A compound state (a child machine's leaves) in the document, nested in another if the
            // child machine holds children of its own.
            let parent = openStates.last
            guard !(parent.map(isFinalState) ?? false), !(parent.map(hasTransitions) ?? false) else {
                fail(.unsupportedElement(name: "\(elementName) (nested)", line: line), parser)
                return
            }
            guard let id = attributes["id"] else {
                fail(.missingAttribute(element: elementName, attribute: "id", line: line), parser)
                return
            }
            states.append(StateElement(id: id, isFinal: elementName == "final", parent: parent, initial: attributes["initial"]))
            openStates.append(id)
        case "transition":
            guard let source = openStates.last else {
                fail(.unsupportedElement(name: "transition (outside a state)", line: line), parser)
                return
            }
            guard !states.contains(where: { $0.parent == source }) else {
                fail(.unsupportedElement(name: "transition (on a compound state)", line: line), parser)
                return
            }
            guard let event = attributes["event"] else {
                fail(.missingAttribute(element: elementName, attribute: "event", line: line), parser)
                return
            }
            guard let target = attributes["target"] else {
                fail(.missingAttribute(element: elementName, attribute: "target", line: line), parser)
                return
            }
            transitions.append(ChartTransition(from: source, on: event, guard: attributes["cond"], to: target))
        default:
            fail(.unsupportedElement(name: elementName, line: line), parser)
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard error == nil, elementName == "state" || elementName == "final", let closed = openStates.popLast() else { return }
        // A compound whose only child is a compound would hold the same leaves: a chart cannot tell them apart.
        let children = states.filter { $0.parent == closed }
        if children.count == 1, let only = children.first, states.contains(where: { $0.parent == only.id }) {
            fail(.unsupportedElement(name: "state (nested)", line: parser.lineNumber), parser)
        }
    }

    func parser(_ parser: XMLParser, foundComment comment: String) {
        let text = comment.trimmingCharacters(in: .whitespaces)
        if swiftType.isEmpty, text.hasPrefix(SCXMLExporter.swiftTypeCommentPrefix) {
            swiftType = String(text.dropFirst(SCXMLExporter.swiftTypeCommentPrefix.count))
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if error == nil {
            error = .malformed(line: parser.lineNumber, column: parser.columnNumber, message: parseError.localizedDescription)
        }
    }

    private func isFinalState(_ id: String) -> Bool {
        states.contains { $0.id == id && $0.isFinal }
    }

    private func hasTransitions(_ id: String) -> Bool {
        transitions.contains { $0.source == id }
    }

    private func fail(_ readError: SCXMLReadError, _ parser: XMLParser) {
        error = readError
        parser.abortParsing()
    }
}
