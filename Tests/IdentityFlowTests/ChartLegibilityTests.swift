import Foundation
import Testing

/// A chart too wide to read at article width is linked at full size from its article.
@Suite("Chart legibility")
struct ChartLegibilityTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Wider than this (points), a chart is shrunk past reading at the article's width.
    static let articleWidth = 1000.0

    /// The link names the image where scripts/build-docs.sh puts it (under its fallback bundle identifier).
    @Test func everyWideChartIsLinkedAtFullSize() throws {
        let catalog = Self.root.appendingPathComponent("Sources/IdentityFlow/IdentityFlow.docc")
        let articles = try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil).filter { $0.pathExtension == "md" }
        var wide = 0
        for article in articles {
            let text = try String(contentsOf: article, encoding: .utf8)
            for image in text.matches(of: /!\[[^\]]*\]\((\w+)\.svg\)/) {
                let name = String(image.1)
                let svg = try String(contentsOf: Self.root.appendingPathComponent("StateCharts/\(name).svg"), encoding: .utf8)
                let width = try #require(svg.firstMatch(of: /<svg width="([0-9.]+)pt"/).flatMap { Double($0.1) }, "\(name).svg has no width")
                guard width > Self.articleWidth else { continue }
                wide += 1
                #expect(
                    text.contains("](/images/com.example.IdentityFlow/\(name).svg)"),
                    "\(article.lastPathComponent) shows \(name).svg (\(Int(width)) pt wide) without a link to it at full size")
            }
        }
        #expect(wide > 0, "the registration chart at least is wide")
    }
}
