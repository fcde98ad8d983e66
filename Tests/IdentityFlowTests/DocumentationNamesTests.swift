import Foundation
import Testing

/// Every delegate callback the documentation names in code voice (`didStartRegistrationOf`,
/// `userClient(_:didReceivePinChallenge:)`, ...) is one the delegate protocols declare: a name
/// the prose invents (`didStartRegistration`) would send a newcomer looking for a method that
/// does not exist.
@Suite("Documentation names")
struct DocumentationNamesTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Names docs/host-api.md shows as what the API does not have (a misspelling, a shape not chosen).
    static let counterExamples: Set<String> = ["didReceive", "didReceiveBrowserChallenge"]

    /// The pages a user reads: the README, docs/ and both DocC catalogs.
    static func pages() throws -> [URL] {
        let manager = FileManager.default
        let folders = ["docs", "Sources/IdentityFlow/IdentityFlow.docc", "Sources/IdentityFlowTesting/IdentityFlowTesting.docc"]
        let markdown = try folders.flatMap { folder in
            try manager.contentsOfDirectory(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil).filter { $0.pathExtension == "md" }
        }
        return [root.appendingPathComponent("README.md")] + markdown
    }

    /// The argument labels after `client: UserClient,` in every delegate protocol's source.
    static func declaredCallbacks() throws -> Set<String> {
        let sources = root.appendingPathComponent("Sources/IdentityFlow")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.lastPathComponent.hasSuffix("Delegate.swift") }
        let label = /func userClient\(_ client: UserClient, (did[A-Za-z]+)/
        return try Set(files.flatMap { file in try String(contentsOf: file, encoding: .utf8).matches(of: label).map { String($0.1) } })
    }

    @Test func everyNamedCallbackIsDeclared() throws {
        let declared = try Self.declaredCallbacks()
        #expect(declared.contains("didStartRegistrationOf") && declared.contains("didReceiveProviderLogoutChallenge"))
        let named = /`(?:userClient\(_:)?(did[A-Z][A-Za-z]*)/
        for page in try Self.pages() {
            let text = try String(contentsOf: page, encoding: .utf8)
            let unknown = Set(text.matches(of: named).map { String($0.1) }).subtracting(declared).subtracting(Self.counterExamples)
            #expect(unknown.isEmpty, "\(page.lastPathComponent) names delegate callbacks no protocol declares: \(unknown.sorted())")
        }
    }

    /// Every function, initializer and enum case the sources declare, by base name, with its
    /// argument labels (`_` for none): `registerUser` → `[["_", "responder"], ...]`.
    static func declaredSignatures() throws -> [String: [[String]]] {
        let sources = root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        let opening = /\b(?:func\s+([A-Za-z_]\w*)|(init)\??|case\s+([a-z]\w*))\s*(?:<[^(]*?>)?\(/
        var signatures: [String: [[String]]] = [:]
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: opening) {
                let name = String(match.1 ?? match.2 ?? match.3 ?? "")
                let isCase = match.3 != nil
                signatures[name, default: []].append(labels(of: text[match.range.upperBound...], isCase: isCase))
            }
        }
        return signatures
    }

    /// The labels of a parameter list that starts at `text` (just after its opening parenthesis).
    static func labels(of text: Substring, isCase: Bool) -> [String] {
        var depth = 0
        var parameters: [String] = []
        var current = ""
        var previous: Character = " "
        for character in text {
            if character == "(" || character == "[" || character == "<" {
                depth += 1
            } else if character == ")" || character == "]" || (character == ">" && previous != "-") {
                if depth == 0 { break }
                depth -= 1
            }
            if character == "," && depth == 0 {
                parameters.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parameters.append(current) }
        return parameters.map { parameter in
            let trimmed = parameter.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let colon = trimmed.firstIndex(of: ":") else { return "_" }
            let label = trimmed[..<colon].split(separator: " ").first.map(String.init) ?? "_"
            return isCase && trimmed[..<colon].contains("<") ? "_" : label
        }
    }

    /// Whether `shown` (the labels a page writes) is `declared` with some defaulted or implicit
    /// parameters (`isolation:`, `timeout:`) left out, as pages name methods by their usual call.
    static func matches(_ shown: [String], _ declared: [String]) -> Bool {
        var remaining = declared[...]
        for label in shown {
            guard let index = remaining.firstIndex(of: label) else { return false }
            remaining = remaining[(index + 1)...]
        }
        return true
    }

    /// Every method the pages name in code voice with its labels (`registerUser(_:responder:)`,
    /// `ReferenceIdentityService.logIn(at:as:)`) is declared with those labels: the snippet tests
    /// check the code blocks, this checks the prose (a renamed or invented method, such as the
    /// `registerStatelessUser(with:responder:)` docs/providers.md once called, fails it).
    @Test func everyNamedMethodIsDeclared() throws {
        let declared = try Self.declaredSignatures()
        #expect(declared["registerUser"]?.contains(["_", "responder"]) == true, "the parser reads registerUser(_:responder:)")
        #expect(!Self.matches(["with", "responder"], ["_", "responder"]))
        let named = /`(?:[A-Z]\w*\.)*([a-z]\w*|init)\(((?:[A-Za-z_]\w*:)*)\)`/
        for page in try Self.pages() {
            let text = try String(contentsOf: page, encoding: .utf8)
            var unknown: [String] = []
            for match in text.matches(of: named) {
                let name = String(match.1)
                let labels = match.2.split(separator: ":").map(String.init)
                let known = declared[name]?.contains { Self.matches(labels, $0) } ?? false
                if !known { unknown.append("\(name)(\(labels.map { $0 + ":" }.joined()))") }
            }
            #expect(unknown.isEmpty, "\(page.lastPathComponent) names methods the sources do not declare: \(unknown)")
        }
    }
}
