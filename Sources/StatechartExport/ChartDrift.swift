/// One difference between the chart files in a directory and what the code would write there.
public struct ChartDrift: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the file.
    public enum Kind: Sendable, Hashable {
        /// The code would write the file, but it does not exist.
        case missing
        /// The file looks generated (a chart format's extension, or an SVG rendered from a chart)
        /// but no current chart produces it: left over from a removed or renamed chart.
        case unexpected
        /// The file's content differs; `line` is the first differing line (1-based), with the
        /// expected and found texts of that line (`nil` past the end of the file).
        case differs(line: Int, expected: String?, found: String?)
        /// A rendered picture (SVG) carries the digest of another version of its chart, or none.
        case staleRendering(expected: ChartDigest, found: String?)
    }

    /// The file's path relative to the checked directory (or as given, for a Markdown file).
    public let file: String
    /// What is wrong.
    public let kind: Kind

    /// Creates a difference.
    /// - Parameters:
    ///   - file: The file's relative path.
    ///   - kind: What is wrong.
    public init(file: String, kind: Kind) {
        self.file = file
        self.kind = kind
    }

    /// `Door.mmd: line 7 differs: expected "…", found "…"`, and the like.
    public var description: String {
        switch kind {
        case .missing:
            return "\(file): missing"
        case .unexpected:
            return "\(file): not written by the code (left over from a removed or renamed chart?)"
        case let .differs(line, expected, found):
            return "\(file): line \(line) differs: expected \(Self.quoted(expected)), found \(Self.quoted(found))"
        case let .staleRendering(expected, found):
            return "\(file): rendered from another version of the chart (digest \(found ?? "none"), expected \(expected.hex))"
        }
    }

    /// The first difference between two texts, compared line by line, or `nil` when they are equal.
    /// - Parameters:
    ///   - expected: What the code would write.
    ///   - found: What the file holds.
    /// - Returns: ``Kind/differs(line:expected:found:)`` at the first differing line, or `nil`.
    public static func firstDifference(expected: String, found: String) -> Kind? {
        guard expected != found else { return nil }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let foundLines = found.split(separator: "\n", omittingEmptySubsequences: false)
        var index = 0
        while index < expectedLines.count, index < foundLines.count, expectedLines[index] == foundLines[index] {
            index += 1
        }
        func line(_ lines: [Substring]) -> String? { index < lines.count ? String(lines[index]) : nil }
        return .differs(line: index + 1, expected: line(expectedLines), found: line(foundLines))
    }

    private static func quoted(_ line: String?) -> String {
        guard let line else { return "end of file" }
        return "\"" + line + "\""
    }
}
