import Foundation
import Statechart

/// A short fingerprint of a ``Chart``'s content, to tell whether a rendered picture is current.
///
/// ``DOTExporter`` writes it into the graph's `comment` attribute, which Graphviz copies into the
/// SVG it renders as an XML comment; ``ChartFiles`` reports an SVG that carries another chart's
/// digest as stale, without needing Graphviz. The digest is the 64-bit FNV-1a hash of the chart's
/// SCXML (which holds every state, transition, guard and final), as 16 hex digits.
public struct ChartDigest: Sendable, Hashable, CustomStringConvertible {
    /// The text that precedes the digest in the `comment` attribute and the SVG comment.
    public static let marker = "chart digest fnv1a64:"

    /// The 16 lowercase hex digits.
    public let hex: String

    /// The digest of a chart.
    /// - Parameter chart: The chart.
    public init(of chart: Chart) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in SCXMLExporter().export(chart).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        hex = String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `chart digest fnv1a64:<hex>`, as written into DOT and SVG files (no hyphen, which Graphviz
    /// escapes in SVG comments).
    public var description: String { Self.marker + hex }

    /// The digest a rendered file (an SVG) carries, if any.
    /// - Parameter text: The file's text.
    /// - Returns: The 16 hex digits after ``marker``, or `nil` when the text has none.
    public static func recorded(in text: String) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        let hex = text[range.upperBound...].prefix { $0.isHexDigit }
        return hex.isEmpty ? nil : String(hex)
    }
}
