import Foundation

/// One line of the bench table: a figure's median, minimum and maximum, its floor and the ratio
/// to it, and the target it is read against.
struct BenchRow: Sendable, Codable {
    /// The letter (`a` … `g`), with a suffix for variants.
    let id: String
    /// What is measured.
    let measure: String
    /// The unit of `stats`.
    let unit: String
    /// The figure; `nil` when the platform cannot measure it.
    let stats: Stats?
    /// The same runs in a second unit (µs per flow beside flows/s).
    var secondary: Secondary?
    /// The floor row this figure is compared with.
    var floorID: String?
    /// The floor's median, in `unit`.
    var floorMedian: Double?
    /// `median / floor median` (or, for scaling, the ratio to one stream).
    var ratio: Double?
    /// The target as text, e.g. `≤ 3× floor`.
    var target: String?
    /// Whether the median meets the target.
    var met: Bool?
    /// How to read the figure.
    var note: String?

    struct Secondary: Sendable, Codable {
        let unit: String
        let stats: Stats
    }

    init(_ id: String, _ measure: String, unit: String, _ stats: Stats?, note: String? = nil) {
        self.id = id
        self.measure = measure
        self.unit = unit
        self.stats = stats
        self.note = note
    }

    /// Compares the median with a floor row's median: met when the ratio is at most `limit`.
    func against(_ floor: BenchRow?, atMost limit: Double) -> BenchRow {
        var row = self
        guard let floor, let median = stats?.median, let floorMedian = floor.stats?.median else { return row }
        row.floorID = floor.id
        row.floorMedian = floorMedian
        row.ratio = median / floorMedian
        guard limit.isFinite else { return row }
        row.target = "≤ \(Self.format(limit))× floor"
        row.met = median / floorMedian <= limit
        return row
    }

    /// Compares the median with an absolute bound.
    func target(_ text: String, met: (Double) -> Bool) -> BenchRow {
        var row = self
        row.target = text
        row.met = stats.map { met($0.median) }
        return row
    }

    static func format(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "n/a" }
        switch abs(value) {
        case 100...: return String(format: "%.0f", value)
        case 10...: return String(format: "%.1f", value)
        default: return String(format: "%.2f", value)
        }
    }
}

/// The whole bench: where it ran, how, and every row.
struct BenchReport: Sendable, Codable {
    let machine: String
    let cores: Int
    let settings: BenchSettings
    let notes: [String]
    let rows: [BenchRow]

    /// The rows as an aligned text table, then the notes.
    var table: String {
        let header = ["id", "measure", "unit", "median", "min", "max", "floor", "ratio", "target", ""]
        let lines = rows.map { row -> [String] in
            [
                row.id, row.measure, row.unit,
                BenchRow.format(row.stats?.median), BenchRow.format(row.stats?.min), BenchRow.format(row.stats?.max),
                row.floorID.map { "\(BenchRow.format(row.floorMedian)) (\($0))" } ?? "",
                row.ratio.map { BenchRow.format($0) + "×" } ?? "",
                row.target ?? "",
                row.met.map { $0 ? "met" : "MISSED" } ?? "",
            ]
        }
        let all = [header] + lines
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        let numeric: Set<Int> = [3, 4, 5, 7]
        func render(_ cells: [String]) -> String {
            cells.indices.map { column in
                let pad = String(repeating: " ", count: widths[column] - cells[column].count)
                return numeric.contains(column) ? pad + cells[column] : cells[column] + pad
            }
            .joined(separator: "  ")
            .trimmingCharacters(in: .whitespaces)
        }
        var text = [render(header), String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))]
        text += lines.map(render)
        let rowNotes = rows.compactMap { row in row.note.map { "  \(row.id): \($0)" } }
        if !rowNotes.isEmpty { text += [""] + rowNotes }
        text += [""] + notes
        return text.joined(separator: "\n")
    }

    /// The report as pretty-printed JSON.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
