import Foundation
import Statechart
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads an SCXML document, such as one ``SCXMLExporter`` wrote, back into a ``Chart``.
///
/// It understands the subset the exporter writes: `<scxml name initial>`, `<state>` (nested: a compound state's leaves and compounds) and
/// `<final>` elements, and `<transition event cond target>` children (`cond` is the guard's name),
/// plus the `swift-type:` comment. Anything else a chart cannot express (a compound holding only a compound, parallel
/// states, executable content, isolated states) is an error rather than being dropped, and so is markup a
/// chart never needs (DOCTYPE, entities, processing instructions), refused before parsing, so comparing the
/// result with a machine's chart shows every difference.
///
/// ```swift
/// let chart = try SCXMLReader().read(String(contentsOf: url, encoding: .utf8))
/// #expect(Set(chart.transitions) == Set(Door.chart.transitions))
/// ```
public struct SCXMLReader: Sendable {
    /// Creates a reader.
    public init() {}

    /// Parses an SCXML document.
    /// - Parameter text: The document.
    /// - Returns: The chart it describes: name (the `name` attribute, or empty), Swift type (from
    ///   the `swift-type:` comment, or empty), initial state (the `initial` attribute, or the first
    ///   state), final states and transitions (in document order).
    /// - Throws: ``SCXMLReadError`` when the text is not XML, not SCXML, not expressible as a chart,
    ///   or holds markup the reader refuses. It never traps, whatever the text.
    public func read(_ text: String) throws(SCXMLReadError) -> Chart {
        let bytes = Array(text.utf8)
        try SCXMLMarkupScreen.check(bytes)
        let delegate = SCXMLParsingDelegate()
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.delegate = delegate
        let parsed = parser.parse()
        if let error = delegate.error { throw error }
        if !parsed {
            throw .malformed(
                line: parser.lineNumber, column: parser.columnNumber,
                message: parser.parserError?.localizedDescription ?? "parse failed")
        }
        guard let initial = delegate.initial ?? delegate.states.first?.id else {
            throw .notSCXML(root: "scxml without states")
        }
        var declared: Set<String> = []
        for state in delegate.states where !declared.insert(state.id).inserted {
            throw .duplicateState(id: state.id)
        }
        let compoundIDs = Set(delegate.states.compactMap(\.parent))
        let parents = Dictionary(delegate.states.map { ($0.id, $0.parent) }, uniquingKeysWith: { first, _ in first })
        /// Whether `state` sits inside `compound`, at any depth.
        func isInside(_ state: String, _ compound: String) -> Bool {
            var parent = parents[state] ?? nil
            while let current = parent {
                if current == compound { return true }
                parent = parents[current] ?? nil
            }
            return false
        }
        var compounds: [ChartCompound] = []
        for compound in delegate.states where compoundIDs.contains(compound.id) {
            // A nested compound's leaves are its parent's too (ChartCompound.children).
            let children = delegate.states.filter { !compoundIDs.contains($0.id) && isInside($0.id, compound.id) }.map(\.id)
            guard let first = children.first else { continue }
            let initial = compound.initial ?? first
            guard children.contains(initial) else { throw .unknownState(id: initial) }
            compounds.append(ChartCompound(name: compound.id, initial: initial, children: children))
        }
        let leaves = delegate.states.filter { !compoundIDs.contains($0.id) }
        for id in [initial] + delegate.transitions.map(\.target) where !declared.contains(id) || compoundIDs.contains(id) {
            throw .unknownState(id: id)
        }
        let chart = Chart(
            name: delegate.name ?? "", swiftType: delegate.swiftType, initial: initial,
            finals: Set(leaves.filter(\.isFinal).map(\.id)), transitions: delegate.transitions, compounds: compounds)
        let connected = Set(chart.states)
        if let isolated = leaves.first(where: { !connected.contains($0.id) }) {
            throw .isolatedState(id: isolated.id)
        }
        return chart
    }
}
