import Foundation
import Testing

/// The tests the README and the DocC articles show are the ones `ReadmeExampleTests.swift` runs:
/// each page must hold its test exactly as that file writes it, so an example cannot drift from
/// code that compiles and passes.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    /// The repository's root: three levels above this file (`Tests/IdentityFlowTests/…`).
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let catalog = "Sources/IdentityFlow/IdentityFlow.docc/"

    /// Each test of `ReadmeExampleTests.swift` by name, and the pages that show it.
    static let pages: [(test: String, pages: [String])] = [
        ("registersThroughTheBrowser", ["README.md", catalog + "TestingYourIntegration.md"]),
        ("acceptsAPushedPinRequest", [catalog + "MobileAuthentication.md"]),
        ("registersWithARequest", ["docs/host-api.md", "Sources/IdentityFlowTesting/IdentityFlowTesting.docc/IdentityFlowTesting.md"]),
    ]

    /// The text of `@Test func <name>` in `ReadmeExampleTests.swift`, through its closing brace.
    static func example(named name: String) throws -> String {
        let source = try String(contentsOf: root.appendingPathComponent("Tests/IdentityFlowTests/ReadmeExampleTests.swift"), encoding: .utf8)
        let start = try #require(source.range(of: "@Test func \(name)("), "ReadmeExampleTests.swift has no test \(name)")
        let end = try #require(source.range(of: "\n}\n", range: start.upperBound..<source.endIndex), "\(name) has no closing brace")
        return String(source[start.lowerBound..<end.upperBound])
    }

    @Test(arguments: pages.map(\.test))
    func everyPageShowsItsTestVerbatim(test: String) throws {
        let example = try Self.example(named: test)
        #expect(example.contains("#expect"), "\(test) must check something")
        for page in try #require(Self.pages.first { $0.test == test }).pages {
            let text = try #require(try? String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8), "\(page) is missing")
            #expect(text.contains(example + "```"), "\(page) does not show \(test) as ReadmeExampleTests.swift writes it")
        }
    }

    @Test func everyExampleIsShownSomewhere() throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent("Tests/IdentityFlowTests/ReadmeExampleTests.swift"), encoding: .utf8)
        let names = source.components(separatedBy: "@Test func ").dropFirst().map { String($0.prefix { $0 != "(" }) }
        #expect(Set(names) == Set(Self.pages.map(\.test)), "every test of ReadmeExampleTests.swift is shown on a page, and only those")
    }
}
