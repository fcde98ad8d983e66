import Foundation
import Testing
import IdentityFlow

/// A seeded, mutation-based fuzzer: random bytes, and mutations of valid seeds with tokens from a
/// dictionary of the format's syntax, so most inputs get past the first check of a parser.
///
/// Every run prints its seed. `IDENTITYFLOW_FUZZ_ITERATIONS` sets the inputs per target (default
/// 500, the short run of the normal suite) and `IDENTITYFLOW_FUZZ_SEED` the seed (default fixed),
/// so a failure reproduces: a recorded issue names the target, seed, iteration and input; a trap
/// ends the process after the `fuzz <target>: seed ...` line, and a rerun with
/// `IDENTITYFLOW_FUZZ_TRACE=1` prints each input before it is tried, so the last line names it.
struct Fuzzer {
    /// Inputs per target.
    static let iterations = ProcessInfo.processInfo.environment["IDENTITYFLOW_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 500
    /// The run's seed.
    static let seed = ProcessInfo.processInfo.environment["IDENTITYFLOW_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x1D_F10E_5EED
    /// Whether each input is printed before it is tried.
    static let traces = ProcessInfo.processInfo.environment["IDENTITYFLOW_FUZZ_TRACE"] != nil

    private var state: UInt64
    private let seeds: [[UInt8]]
    private let dictionary: [[UInt8]]

    /// A fuzzer for one target; its stream depends on the run's seed and the target's name.
    init(target: String, seeds: [String], dictionary: [String]) {
        self.init(target: target, byteSeeds: seeds.map { Array($0.utf8) }, dictionary: dictionary.map { Array($0.utf8) })
    }

    /// A fuzzer over binary seeds and tokens, for inputs that are not text (signatures, keys, digests).
    init(target: String, byteSeeds: [[UInt8]], dictionary: [[UInt8]]) {
        state = Self.seed ^ target.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
        self.seeds = byteSeeds
        self.dictionary = dictionary
    }

    /// Feeds `check` inputs until one fails or `iterations` have passed; `check` returns why an
    /// input broke the contract, or `nil`. The first failure is recorded as an issue.
    static func run(
        _ target: String, seeds: [String], dictionary: [String], iterations: Int = iterations,
        sourceLocation: SourceLocation = #_sourceLocation, check: ([UInt8]) -> String?
    ) {
        run(target, fuzzer: Fuzzer(target: target, seeds: seeds, dictionary: dictionary), iterations: iterations, sourceLocation: sourceLocation, check: check)
    }

    /// ``run(_:seeds:dictionary:iterations:sourceLocation:check:)`` over binary seeds and tokens.
    static func run(
        _ target: String, byteSeeds: [[UInt8]], dictionary: [[UInt8]], iterations: Int = iterations,
        sourceLocation: SourceLocation = #_sourceLocation, check: ([UInt8]) -> String?
    ) {
        run(
            target, fuzzer: Fuzzer(target: target, byteSeeds: byteSeeds, dictionary: dictionary), iterations: iterations,
            sourceLocation: sourceLocation, check: check)
    }

    private static func run(
        _ target: String, fuzzer start: Fuzzer, iterations: Int, sourceLocation: SourceLocation, check: ([UInt8]) -> String?
    ) {
        var fuzzer = start
        print("fuzz \(target): seed \(seed), \(iterations) iterations")
        for iteration in 0..<iterations {
            let input = fuzzer.next()
            let text = StrictUTF8.decode(input)?.debugDescription ?? "hex " + input.map { String(format: "%02x", $0) }.joined()
            if traces { print("fuzz \(target) \(iteration): \(text)") }
            if let failure = check(input) {
                Issue.record("fuzz \(target) seed \(seed) iteration \(iteration): \(failure); input \(text)", sourceLocation: sourceLocation)
                return
            }
        }
    }

    /// The next input: one in eight is random bytes, the rest a seed mutated one to eight times.
    mutating func next() -> [UInt8] {
        if below(8) == 0 || seeds.isEmpty { return (0..<below(64)).map { _ in byte() } }
        var input = seeds[below(seeds.count)]
        for _ in 0...below(8) { mutate(&input) }
        return input
    }

    private mutating func mutate(_ input: inout [UInt8]) {
        let position = below(input.count + 1)
        switch below(8) {
        case 0 where !input.isEmpty: input[below(input.count)] ^= 1 << UInt8(below(8))
        case 1 where !input.isEmpty: input[below(input.count)] = [0, 0x7F, 0x80, 0xFF, 0x22, 0x3C, 0x5C, 0x25][below(8)]
        case 2: input.insert(contentsOf: (0...below(4)).map { _ in byte() }, at: position)
        case 3 where !input.isEmpty:
            let start = below(input.count)
            input.removeSubrange(start..<min(input.count, start + 1 + below(16)))
        case 4 where !input.isEmpty:
            let start = below(input.count)
            input.insert(contentsOf: input[start..<min(input.count, start + 1 + below(32))], at: position)
        case 5...6 where !dictionary.isEmpty:
            let token = dictionary[below(dictionary.count)]
            if below(2) == 0 || position == input.count {
                input.insert(contentsOf: token, at: position)
            } else {
                input.replaceSubrange(position..<min(input.count, position + token.count), with: token)
            }
        default:
            let other = seeds.isEmpty ? [] : seeds[below(seeds.count)]
            input = Array(input[..<position]) + other[min(other.count, below(other.count + 1))...]
        }
    }

    /// SplitMix64.
    private mutating func nextWord() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var word = state
        word = (word ^ (word >> 30)) &* 0xBF58_476D_1CE4_E5B9
        word = (word ^ (word >> 27)) &* 0x94D0_49BB_1331_11EB
        return word ^ (word >> 31)
    }

    private mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(nextWord() % UInt64(bound)) }

    private mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: nextWord()) }
}
