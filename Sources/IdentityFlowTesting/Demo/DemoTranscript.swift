import Foundation
@_spi(Integrator) import IdentityFlow
import Statechart

/// Formats what a ``DemoScenario`` shows into lines for an output sink: section headers and a
/// two-column layout (a short label, then the text), secrets redacted.
struct DemoTranscript: Sendable {
    /// Receives each finished line, without a trailing newline.
    let output: @Sendable (String) -> Void

    private static let labelWidth = 12

    // MARK: - Layout

    func title(_ text: String) {
        output(text)
        output(String(repeating: "=", count: text.count))
    }

    func section(_ text: String) {
        output("")
        output(text)
        output(String(repeating: "-", count: text.count))
    }

    func note(_ text: String) { output(text) }

    /// `  label       text`; a long label pushes the text one space to the right.
    func line(_ label: String, _ text: String) {
        let padded = label.count < Self.labelWidth ? label.padding(toLength: Self.labelWidth, withPad: " ", startingAt: 0) : label + " "
        output("  " + padded + text)
    }

    /// Rows with columns aligned to the widest cell of each column.
    func table(_ rows: [[String]]) {
        guard let columns = rows.map(\.count).max() else { return }
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }
            output("  " + cells.joined(separator: "  "))
        }
    }

    // MARK: - Flow events

    func transition(_ record: TransitionRecord) { line("transition", record.description) }

    func challenge(_ challenge: Challenge) {
        line("challenge", challenge.description)
        if let error = challenge.error { line("", "↳ " + Self.explain(error)) }
    }

    func answer(_ text: String) { line("answer", text) }

    func result(_ result: Result<RegistrationResult, IdentityFlowError>) {
        switch result {
        case .success(let registered):
            let info = registered.info.map { ", info status \($0.status)" } ?? ""
            line("result", "registered \(registered.profile) via \(registered.identityProvider.identifier)\(info)")
        case .failure(let error):
            line("result", "FAILED " + Self.explain(error))
            if error.code == .actionCancelled { line("", "↳ the registration was cancelled; nothing of it was kept") }
        }
    }

    func log(_ record: IdentityFlowLogger.Record) { line(record.level.description, record.message) }

    // MARK: - Redaction

    /// `10022 customRegistrationFailure: The identity provider refused … (status 4001)`.
    static func explain(_ error: IdentityFlowError) -> String {
        var text = "\(error.code) \(error.code.entry.name): \(error.message)"
        if let info = error.customInfo, !error.message.contains("\(info.status)") { text += " (status \(info.status))" }
        return text
    }

    /// The URL with every query value replaced by `<redacted>`:
    /// `identityflow-demo://callback?code=<redacted>&state=<redacted>`.
    static func redactingQuery(of url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<redacted>" }
        let names = components.queryItems?.map(\.name) ?? []
        components.query = nil
        components.fragment = nil
        let base = components.string ?? "<redacted>"
        return names.isEmpty ? base : base + "?" + names.map { "\($0)=<redacted>" }.joined(separator: "&")
    }

    /// The URL without its query, followed by the names of its parameters.
    static func parameterNames(of url: URL) -> (base: String, names: [String]) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return ("<unreadable URL>", []) }
        let names = components.queryItems?.map(\.name) ?? []
        components.query = nil
        components.fragment = nil
        return (components.string ?? "<unreadable URL>", names)
    }
}
