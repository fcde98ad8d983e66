import Foundation

/// Runs every scenario of issue 6, (a) to (g), and assembles the rows.
struct BenchSuite {
    let settings: BenchSettings
    /// The rows to measure (ids such as `a`, `c2`, `g3`), or `nil` for all.
    var only: Set<String>?

    private func progress(_ message: String) {
        FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
    }

    /// Measures a row unless `only` leaves it out.
    private func measure(_ id: String, _ body: () async throws -> BenchRow) async rethrows -> BenchRow? {
        guard only?.contains(id) ?? true else { return nil }
        progress("\(id)")
        return try await body()
    }

    func run() async throws -> BenchReport {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let settings = settings

        // Memory first, while the heap is still young.
        let floorTask = await measure("g5") {
            BenchRow("g5", "floor: task suspended on a continuation", unit: "B/task", await MemoryScenarios.floorSuspendedTask(settings))
        }
        let idleClient = try await measure("e2") {
            BenchRow("e2", "a started, idle UserClient (not counted in e)", unit: "B/client", try await MemoryScenarios.idleClient(settings))
        }
        let suspended = try await measure("e") {
            // Printed without a target (issue 30), as a and d are: what it costs, not a goal.
            BenchRow("e", "registration suspended on its challenge", unit: "B/flow", try await MemoryScenarios.suspendedFlow(settings))
                .against(floorTask, atMost: .infinity)
        }

        let suspendedDelegate = try await measure("e3") {
            BenchRow(
                "e3", "registration suspended, delegate API", unit: "B/flow", try await MemoryScenarios.suspendedFlow(settings, delegate: true),
                note: "no task waits per flow: the flow is objects only"
            )
            .against(floorTask, atMost: .infinity)
        }

        let floorSwitch = await measure("g1") { BenchRow("g1", "floor: enum switch in a struct", unit: "ns", await MachineScenarios.floorSwitch(settings)) }
        let transition = await measure("a") {
            BenchRow(
                "a", "RegistrationMachine transition, as a value", unit: "ns", await MachineScenarios.machineTransition(settings),
                note: "mean over a custom one-step registration's 6 events (start, data, server answer, PIN policy check, enrol, store)"
            )
            .against(floorSwitch, atMost: .infinity)
        }

        let floorActor = await measure("g2") {
            BenchRow("g2", "floor: actor method call with an enum switch", unit: "ns", await MachineScenarios.floorActorCall(settings))
        }
        let event = await measure("b") {
            BenchRow("b", "event through MachineRunner, no effect", unit: "ns", await MachineScenarios.runnerEvent(settings)).against(floorActor, atMost: 2)
        }

        let floorLock = await measure("g3") {
            BenchRow("g3", "floor: round trip, locked slot + continuation", unit: "µs", await RoundTripScenarios.floorLockAndContinuation(settings))
        }
        let floorStream = await measure("g4") {
            BenchRow("g4", "floor: round trip, AsyncStream", unit: "µs", await RoundTripScenarios.floorAsyncStream(settings))
        }
        let fasterFloor = [floorLock, floorStream].compactMap { $0 }.min { ($0.stats?.median ?? .infinity) < ($1.stats?.median ?? .infinity) }
        let roundTripAsync = try await measure("c") {
            BenchRow(
                "c", "challenge round trip, async API", unit: "µs", try await RoundTripScenarios.engine(settings, delegate: false),
                note: "create-PIN challenge answered with a refused PIN: sender → ticket → runner → machine (policy check) → next challenge"
            )
            .against(fasterFloor, atMost: 2)
        }
        let roundTripDelegate = try await measure("c2") {
            BenchRow("c2", "challenge round trip, delegate .immediate", unit: "µs", try await RoundTripScenarios.engine(settings, delegate: true))
                .against(fasterFloor, atMost: 2)
        }

        let asyncFlows = try await measure("d") {
            try await flowsRow("d", "registration, async API", api: .async)
        }
        let immediateFlows = try await measure("d2") { try await flowsRow("d2", "registration, delegate .immediate", api: .delegateImmediate) }
        let mainActorFlows = try await measure("d3") { try await flowsRow("d3", "registration, delegate .mainActor", api: .delegateMainActor) }
        let defaultFlows = try await measure("d4") {
            var slow = settings
            slow.runs = min(3, settings.runs)
            let iterations = settings.count(100_000)
            let perFlow = try await FlowScenarios.registrations(slow, api: .async, flowsPerStream: 5, pinKeyIterations: iterations)
            return BenchRow(
                "d4", "registration, async API, \(iterations) PBKDF2 iterations", unit: "flows/s", perFlow.mapped { 1e6 / $0 },
                note: "the default pinKeyIterations (100000, scaled in a --quick run): the PIN key derivation is the server's policy and dominates")
        }

        let login = try await measure("l") {
            BenchRow(
                "l", "PIN login: PIN answer to session", unit: "µs", try await LoginScenarios.pinAnswerToSession(settings),
                note:
                    "PIN key derivation (PBKDF2 at pinKeyIterations = \(settings.pinKeyIterations); the default 100000 adds about k4), P-256 key and proof, the reference server's P-256 check, tokens, stored session"
            )
        }

        // l2 and its floor g6 (the SHA-256 compressions PBKDF2 cannot do without), measured
        // alternately run by run; g6 is printed when asked for, l2 is always read against it.
        let compressions = settings.count(100_000) * 2
        var floorFigures: [Double] = []
        let deviceLogin = try await measure("l2") {
            let iterations = settings.count(100_000)
            let logins = try await LoginScenarios.pinAnswerToSession(
                settings, logins: 10, pinKeyIterations: iterations, authenticators: .device(),
                floor: { CryptoScenarios.serialCompressions(count: compressions) }, floorFigures: &floorFigures)
            return BenchRow(
                "l2", "PIN login, device mode: PIN answer to session, \(iterations) iterations", unit: "ms", logins.mapped { $0 / 1000 },
                note:
                    "the default pinKeyIterations (scaled in a --quick run): PBKDF2 (about k4), the vault key unwrapped, the tokens opened and resealed, the session stored; no server call; g6 measured between its runs"
            )
            .against(BenchRow("g6", "", unit: "ms", Stats(floorFigures)), atMost: 1.25)
        }
        let compressionFloor = await measure("g6") {
            var figures = floorFigures
            if figures.isEmpty { for _ in 0..<settings.runs { figures.append(CryptoScenarios.serialCompressions(count: compressions)) } }
            return BenchRow(
                "g6", "floor: \(compressions) serial SHA-256 compressions (PBKDF2's at \(compressions / 2) iterations)", unit: "ms", Stats(figures),
                note: "1,024 cached blocks per ifc_sha256_blocks call, each chained on the last; measured between l2's runs when l2 is measured")
        }

        let scaling = try await measure("f") {
            let perFlow = try await FlowScenarios.registrations(settings, api: .async, streams: cores)
            var row = BenchRow(
                "f", "registrations, \(cores) streams, async API", unit: "flows/s", perFlow.mapped { 1e6 / $0 },
                note: "needs every core free: another job on the machine takes its share of the second stream")
            if let total = row.stats?.median, let single = asyncFlows?.stats?.median {
                row.floorID = "d"
                row.floorMedian = single
                row.ratio = total / single
                row.target = "≥ 1.6× d on 2 cores"
                row.met = cores < 2 ? nil : total / single >= 1.6
            }
            return row
        }

        let profileCountRows = try await ProfileCountScenarios.rows(settings, only: only) + ProfileCountScenarios.launchRows(settings, only: only)
        let cryptoRows = await CryptoScenarios.rows(settings, only: only)

        let notes = [
            "Floors (g*) are plain Swift measured by the same harness in the same run; ratio = engine median / floor median.",
            "Flow figures (c, d, e, f) use ClientConfiguration.testing() with pinKeyIterations = \(settings.pinKeyIterations): PBKDF2 cost is the server's policy, not the engine's (d4 shows the default).",
            "Reference server in process, no latency; \(settings.runs) measured runs after one warm-up; scale \(BenchRow.format(settings.scale)).",
            ResidentMemory.bytes() == nil
                ? "Resident size unavailable on this platform: rows e, e2, g5 are n/a."
                : "Memory: resident size (RSS) difference while \(settings.suspendedFlows) flows/tasks wait at once, divided by their number.",
        ]
        let rows = [
            transition, event, roundTripAsync, roundTripDelegate, asyncFlows, immediateFlows, mainActorFlows, defaultFlows, login, deviceLogin,
            suspended, suspendedDelegate, idleClient, scaling, floorSwitch, floorActor, floorLock, floorStream, floorTask, compressionFloor,
        ]
        return BenchReport(
            machine: Self.machineDescription, cores: cores, settings: settings, notes: notes, rows: rows.compactMap { $0 } + profileCountRows + cryptoRows)
    }

    private func flowsRow(_ id: String, _ measure: String, api: FlowScenarios.API) async throws -> BenchRow {
        let perFlow = try await FlowScenarios.registrations(settings, api: api)
        var row = BenchRow(id, measure, unit: "flows/s", perFlow.mapped { 1e6 / $0 })
        row.secondary = .init(unit: "µs/flow", stats: perFlow)
        row.note = "\(BenchRow.format(perFlow.median)) µs per flow (median)"
        return row
    }

    private static var machineDescription: String {
        let info = ProcessInfo.processInfo
        return "\(info.operatingSystemVersionString), \(info.activeProcessorCount) cores, \(info.physicalMemory / 1_048_576) MiB"
    }
}
