import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
import Statechart

/// Model-based exploration of every flow (DESIGN §7, layer 3).
///
/// For each flow case the ``Explorer`` enumerates paths breadth-first: at every challenge the host
/// answers right, wrongly (or against the PIN policy), cancels, drops it, answers twice, or holds
/// it, cancels the flow and answers afterwards; at every server call the server answers, fails
/// (network, server, malformed), is slow (then answers, or the flow is cancelled while it waits),
/// or, for custom steps, answers 2xxx / 4xxx / 5xxx / expired / an invalid status; every storage
/// write works or fails. A path deviates from the expected behaviour at most ``maxDeviations``
/// times: 2 is the least depth at which every declared transition of every chart is taken
/// (lockout needs two wrong PINs). Each path runs on a fresh client and reference server and
/// ``PathRun`` checks its invariants.
@Suite("Model-based exploration")
struct ExplorationTests {
    static let maxDeviations = Int(ProcessInfo.processInfo.environment["EXPLORATION_DEPTH"] ?? "") ?? 2
    /// `EXPLORATION_ONLY=mobile` explores only the flow cases whose description contains it (to
    /// study one flow; the coverage checks then report the other charts as untaken).
    static let only = ProcessInfo.processInfo.environment["EXPLORATION_ONLY"]

    @Test(
        "every flow, every host and server behaviour up to two deviations: invariants hold, every declared transition is taken",
        .timeLimit(.minutes(5)))
    func exploreEveryFlow() async {
        ChartCoverage.isRecording = true
        let clock = ContinuousClock()
        let began = clock.now
        var taken: [String: Set<ChartTransition>] = [:]
        var violations: [String] = []
        var total = 0
        for flow in FlowCase.all where Self.only.map(flow.description.contains) ?? true {
            var index = 0
            var flowViolations = 0
            let paths = await Explorer(maxDeviations: Self.maxDeviations).explore { prefix in
                if ProcessInfo.processInfo.environment["EXPLORATION_TRACE"] != nil {
                    FileHandle.standardError.write(Data("path \(flow) \(prefix) delegate=\(index.isMultiple(of: 2))\n".utf8))
                }
                let report = await PathRun(flow: flow, prefix: prefix, usesDelegate: index.isMultiple(of: 2)).run()
                index += 1
                for record in report.records { taken[record.chart, default: []].insert(record.transition) }
                if !report.violations.isEmpty {
                    flowViolations += 1
                    let path = report.trace.filter { $0.chosen != 0 }.map(\.description).joined(separator: ", ")
                    violations.append("\(flow) [\(path.isEmpty ? "expected behaviour" : path)]: \(report.violations.joined(separator: "; "))")
                }
                return report.trace
            }
            total += paths
            print("exploration: \(flow): \(paths) paths, \(flowViolations) with violations")
        }
        print("exploration: \(total) paths in total, depth \(Self.maxDeviations), \(clock.now - began)")
        for chart in FlowCharts.all {
            let untaken = chart.transitions.filter { !(taken[chart.name] ?? []).contains($0) }
            print("exploration: \(chart.name): \(chart.transitions.count - untaken.count)/\(chart.transitions.count) transitions taken")
            #expect(untaken.isEmpty, "\(chart.name): declared but never taken: \(untaken)")
        }
        #expect(violations.isEmpty, "\(violations.count) path(s) broke an invariant:\n\(violations.prefix(30).joined(separator: "\n"))")
        // The process-wide record (on since this test began, shared with any suite running beside
        // it) must agree: nothing undeclared, nothing untaken. See SuiteCoverage in IdentityFlowTests
        // for the report `swift test` prints at exit.
        let charts = Set(FlowCharts.all.map(\.name))
        let undeclared = ChartCoverage.undeclared.filter { charts.contains($0.chart) }
        #expect(undeclared.isEmpty, "undeclared transitions: \(undeclared)")
        for chart in FlowCharts.all {
            #expect(ChartCoverage.untaken(in: chart).isEmpty, "\(chart.name): ChartCoverage saw no \(ChartCoverage.untaken(in: chart))")
        }
    }
}
