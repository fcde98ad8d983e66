import Foundation
import Testing

/// Every ```swift block of README.md, docs/*.md and both DocC catalogs appears verbatim (each line
/// compared without its indentation) in source this package compiles: the document's file in
/// `DocumentationSnippets/` (each block wrapped in a function or type so it type-checks on Linux),
/// `ReadmeExampleTests.swift` (the tests the pages show), or, for docs/statecharts.md, the machine
/// the block quotes. A block that cannot compile on its own is listed in `fragments` with the
/// reason; a new block is checked the day it is written.
@Suite("Documentation snippets")
struct DocumentationSnippetTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One ```swift block: its page, its number on the page (from 1) and its lines.
    struct Block: CustomTestStringConvertible, Sendable {
        let page: String
        let index: Int
        let lines: [String]
        var testDescription: String { "\(page) block \(index)" }
    }

    /// Blocks that cannot compile on their own, by page and number, with the reason. Keep it short.
    static let fragments: [String: String] = [
        "README.md#1": "Package.swift lines, not a whole manifest",
        "Sources/IdentityFlow/IdentityFlow.docc/GettingStarted.md#1": "Package.swift lines, not a whole manifest",
        "docs/host-api.md#6": "an adapter's outline: its bodies are `{ ... }`",
        "docs/transport.md#1": "Apple-only API (kCFNetworkProxies, tlsMinimumSupportedProtocolVersion)",
        "docs/providers.md#4": "Apple-only API (UIApplication)",
        "Sources/IdentityFlow/IdentityFlow.docc/SurvivingProcessDeath.md#1": "Apple-only API (SwiftUI, UIApplication)",
    ]

    /// The compiled sources the blocks must appear in: every file of `DocumentationSnippets/`
    /// (one per page, or per group of short articles), the tests the pages show, and the machine
    /// docs/statecharts.md quotes.
    static func compiledSources() throws -> [String] {
        let folder = "Tests/IdentityFlowTests/DocumentationSnippets"
        let snippets = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".swift") }.sorted().map { "\(folder)/\($0)" }
        return snippets + ["Tests/IdentityFlowTests/ReadmeExampleTests.swift", "Sources/IdentityFlow/Authentication/AuthenticationMachine.swift"]
    }

    /// The pages a user reads: the README, docs/ and both DocC catalogs (relative paths).
    static func pages() throws -> [String] {
        let folders = ["docs", "Sources/IdentityFlow/IdentityFlow.docc", "Sources/IdentityFlowTesting/IdentityFlowTesting.docc"]
        let markdown = try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
        }
        return ["README.md"] + markdown
    }

    /// The ```swift blocks of `text`, in order.
    static func blocks(in text: String, page: String) -> [Block] {
        var blocks: [Block] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if let lines = current, trimmed == "```" {
                blocks.append(Block(page: page, index: blocks.count + 1, lines: lines))
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        return blocks
    }

    static func allBlocks() throws -> [Block] {
        try pages().flatMap { page in
            blocks(in: try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8), page: page)
        }
    }

    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether `block` appears in `lines` as consecutive lines; its leading `import` lines may be
    /// anywhere in the file (a wrapped block's imports sit at the file's top).
    static func contains(_ lines: [String], _ block: [String]) -> Bool {
        let imports = block.prefix { $0.hasPrefix("import ") || $0.hasPrefix("@_spi(") || $0.isEmpty }
        guard imports.allSatisfy({ $0.isEmpty || lines.contains($0) }) else { return false }
        let body = Array(block.dropFirst(imports.count))
        guard !body.isEmpty else { return true }
        guard lines.count >= body.count else { return false }
        return (0...(lines.count - body.count)).contains { start in Array(lines[start..<start + body.count]) == body }
    }

    @Test func findsTheBlocks() throws {
        let blocks = try Self.allBlocks()
        #expect(blocks.count > 40, "the pages hold dozens of swift blocks; found \(blocks.count)")
        #expect(Self.blocks(in: "a\n```swift\nlet x = 1\n```\nb", page: "p").map(\.lines) == [["let x = 1"]])
        #expect(!Self.contains(["let x = 1", "let y = 2"], ["let x = 1", "let z = 3"]))
        #expect(Self.contains(["import A", "func f() {", "let x = 1", "}"], ["import A", "", "let x = 1"]))
    }

    @Test func everyBlockIsCompiledVerbatim() throws {
        let blocks = try Self.allBlocks()
        let files = try Self.compiledSources().map { source in
            Self.normalized(try String(contentsOf: Self.root.appendingPathComponent(source), encoding: .utf8).components(separatedBy: "\n"))
        }
        #expect(files.count > 5, "DocumentationSnippets/ holds the pages' blocks")
        var fragmentsSeen: Set<String> = []
        for block in blocks {
            let key = "\(block.page)#\(block.index)"
            if Self.fragments[key] != nil {
                fragmentsSeen.insert(key)
                continue
            }
            let found = files.contains { Self.contains($0, Self.normalized(block.lines)) }
            let first = block.lines.first ?? ""
            #expect(found, "\(key) (\(first)…) is not compiled verbatim: copy it into a file of DocumentationSnippets/ and make it compile, or fix the page")
        }
        let gone = Set(Self.fragments.keys).subtracting(fragmentsSeen).sorted()
        #expect(gone.isEmpty, "fragments no longer on their pages: \(gone)")
        #expect(Self.fragments.count <= 8, "the fragment list stays short")
    }
}
