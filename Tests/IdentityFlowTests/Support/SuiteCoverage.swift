import Foundation
@_spi(Integrator) import IdentityFlow
import Statechart

/// Whole-suite chart coverage: which declared transitions no test took (issue 4, item 6).
///
/// ``Harness/make`` turns ``ChartCoverage`` recording on the first time any flow test builds a
/// client, and registers ``report()`` to run when the test process exits. Swift Testing has no
/// hook that runs after every suite (suites run in parallel and in no fixed order), but every
/// test target of the package runs in one process, so an `atexit` handler sees the record of the
/// whole run: `swift test` ends with one line per chart, `taken/declared`, and the transitions
/// nobody took. The report informs; it cannot fail the run. The guarantee that every declared
/// transition is taken is the model-based exploration (`ExplorationTests`), which fails when its
/// own paths miss one; `swift test --skip ExplorationTests` shows what the other tests alone take.
enum SuiteCoverage {
    /// Touch to start recording and schedule the report (once per process).
    static let enabled: Void = {
        ChartCoverage.isRecording = true
        atexit { SuiteCoverage.report() }
    }()

    /// Prints the coverage of every chart in ``FlowCharts/all``.
    static func report() {
        var lines = ["chart coverage of this test run (every test that drove a flow since recording began):"]
        for chart in FlowCharts.all {
            let untaken = ChartCoverage.untaken(in: chart)
            lines.append("  \(chart.name): \(chart.transitions.count - untaken.count)/\(chart.transitions.count) declared transitions taken")
            lines += untaken.map { "    never taken: \($0)" }
        }
        let charts = Set(FlowCharts.all.map(\.name))
        let undeclared = ChartCoverage.undeclared.filter { charts.contains($0.chart) }
        lines.append("  undeclared transitions taken: \(undeclared.isEmpty ? "none" : undeclared.map(\.description).joined(separator: "; "))")
        print(lines.joined(separator: "\n"))
    }
}
