import Foundation

/// Median, minimum and maximum of one figure over the measured runs (warm-up excluded).
struct Stats: Sendable, Codable {
    let median: Double
    let min: Double
    let max: Double
    /// Every run's value, in the order measured.
    let runs: [Double]

    init(_ values: [Double]) {
        let sorted = values.sorted()
        runs = values
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
        if sorted.isEmpty {
            median = .nan
        } else if sorted.count % 2 == 1 {
            median = sorted[sorted.count / 2]
        } else {
            median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }

    /// The same runs expressed in another unit (e.g. µs per flow → flows per second).
    func mapped(_ transform: (Double) -> Double) -> Stats { Stats(runs.map(transform)) }
}

/// How much work each measurement does.
struct BenchSettings: Sendable, Codable {
    /// Measured runs per figure (after one warm-up run).
    var runs = 7
    /// Scales every scenario's operation count; 1 is the full bench.
    var scale = 1.0
    /// Flows waiting at once in the memory figures.
    var suspendedFlows = 10_000
    /// PBKDF2 iterations for the PIN verifier in the flow figures.
    var pinKeyIterations = 1

    /// `base` operations scaled, at least one.
    func count(_ base: Int) -> Int { Swift.max(1, Int((Double(base) * scale).rounded())) }
}

/// Runs a measurement once to warm up, then `runs` times, and collects the per-operation values.
enum Harness {
    /// - Parameters:
    ///   - settings: How many runs.
    ///   - body: One run; returns its per-operation figure.
    static func measure(_ settings: BenchSettings, _ body: () async throws -> Double) async rethrows -> Stats {
        _ = try await body()
        var values: [Double] = []
        for _ in 0..<settings.runs { values.append(try await body()) }
        return Stats(values)
    }

    /// Nanoseconds per operation for `operations` operations taking `elapsed`.
    static func nanoseconds(_ elapsed: Duration, per operations: Int) -> Double {
        let (seconds, attoseconds) = elapsed.components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(operations)
    }

    /// Times `body` on the continuous clock; returns nanoseconds per operation.
    static func time(operations: Int, _ body: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        return nanoseconds(start.duration(to: clock.now), per: operations)
    }
}

/// Keeps a value alive and opaque to the optimizer, so a measured loop is not folded away.
@_optimize(none) @inline(never)
func blackHole<T>(_ value: T) {}
