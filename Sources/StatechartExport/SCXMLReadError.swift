import Statechart

/// Why ``SCXMLReader`` could not turn a document into a ``Chart``.
public enum SCXMLReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not well-formed XML.
    case malformed(line: Int, column: Int, message: String)
    /// The root element is not `<scxml>` in the SCXML namespace.
    case notSCXML(root: String)
    /// An element lacks an attribute the chart needs.
    case missingAttribute(element: String, attribute: String, line: Int)
    /// An element the reader does not know (such as `<parallel>` or `<onentry>`), which a chart
    /// cannot express.
    case unsupportedElement(name: String, line: Int)
    /// Two states share an id.
    case duplicateState(id: String)
    /// A transition's target, or the initial state, names no state of the document.
    case unknownState(id: String)
    /// A state neither initial, final, nor the source or target of a transition, which a chart
    /// cannot express.
    case isolatedState(id: String)
    /// A DOCTYPE, entity declaration or processing instruction, which a chart never needs and the
    /// reader refuses before parsing (the platform parser handles some of them unsafely).
    case unsupportedMarkup(kind: String, line: Int)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .malformed(line, column, message): "malformed XML at \(line):\(column): \(message)"
        case let .notSCXML(root): "root element <\(root)> is not an SCXML <scxml> element"
        case let .missingAttribute(element, attribute, line): "<\(element)> at line \(line) has no \(attribute) attribute"
        case let .unsupportedElement(name, line): "unsupported element <\(name)> at line \(line)"
        case let .duplicateState(id): "state \(id) is declared twice"
        case let .unknownState(id): "state \(id) is referred to but not declared"
        case let .isolatedState(id): "state \(id) has no transition and is neither initial nor final"
        case let .unsupportedMarkup(kind, line): "unsupported markup at line \(line): \(kind)"
        }
    }
}
