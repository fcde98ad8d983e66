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
}
