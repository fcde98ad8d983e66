import Statechart

/// One decision point met while running a path: where, which options there were, which was taken.
struct ChoicePoint: Sendable, CustomStringConvertible {
    let site: String
    let options: [String]
    let chosen: Int

    /// `createPin=cancel`.
    var description: String { "\(site)=\(options[chosen])" }
}

/// Decides the choice points of one path: the forced prefix first, then always the first option
/// (the expected behaviour). Records every point met, so the explorer can branch from it.
final class Chooser: Sendable {
    private let prefix: [Int]
    private let points = Locked<[ChoicePoint]>([])

    init(prefix: [Int]) { self.prefix = prefix }

    /// Picks one of `options` at `site`; `options[0]` unless the prefix forces another.
    func choose(_ site: String, among options: [String]) -> String {
        points.withLock { points in
            let index = points.count < prefix.count ? min(prefix[points.count], options.count - 1) : 0
            points.append(ChoicePoint(site: site, options: options, chosen: index))
            return options[index]
        }
    }

    /// Every point met so far, in order.
    var trace: [ChoicePoint] { points.withLock { $0 } }

    /// The deviations from the expected behaviour, for reports: `verifyPinProof=networkError, pin=cancel`.
    var deviations: String {
        let picked = trace.filter { $0.chosen != 0 }.map(\.description)
        return picked.isEmpty ? "(all expected)" : picked.joined(separator: ", ")
    }
}

/// Enumerates paths breadth-first by the number of deviations from the expected behaviour.
///
/// A path is a list of option indexes, one per choice point in the order the run meets them.
/// Running a prefix yields the full trace (points past the prefix take option 0); every later
/// point then spawns one child per other option, as long as the child stays within
/// `maxDeviations`. Each path is enumerated once; the order is fixed, so runs are deterministic.
struct Explorer {
    let maxDeviations: Int

    /// Runs every path; returns how many ran.
    func explore(_ run: ([Int]) async -> [ChoicePoint]) async -> Int {
        var queue: [[Int]] = [[]]
        var count = 0
        while !queue.isEmpty {
            let prefix = queue.removeFirst()
            let trace = await run(prefix)
            count += 1
            let used = prefix.filter { $0 != 0 }.count
            guard used < maxDeviations, trace.count >= prefix.count else { continue }
            for index in prefix.count..<trace.count {
                let head = trace[..<index].map(\.chosen)
                for alternative in 1..<max(trace[index].options.count, 1) {
                    queue.append(head + [alternative])
                }
            }
        }
        return count
    }
}
