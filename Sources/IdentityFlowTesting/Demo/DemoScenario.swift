import Foundation
@_spi(Integrator) import IdentityFlow
import Statechart

/// The walk-through `identityflow demo` runs, as a reusable example: two registrations against
/// an in-process ``ReferenceIdentityService``, narrated line by line to an output sink.
///
/// 1. A user registers through the browser identity provider with the **delegate API**: the
///    scenario plays the browser (``ReferenceIdentityService/logIn(at:as:consent:)``), then
///    chooses a PIN.
/// 2. A user registers through a two-step custom identity provider with the **async API**. Its
///    finish step answers 4001 (recoverable: the challenge comes back) the first time and 2000
///    the second; the first PIN chosen breaks the policy (a sequence, 9012).
///
/// Every challenge, every answer (PINs, custom data and the redirect's code and state as
/// `<redacted>`), every state transition and a closing summary go to the sink, in order.
///
/// ```swift
/// let report = await DemoScenario().run { line in print(line) }
/// exit(report.succeeded ? 0 : 1)
/// ```
///
/// - Important: Nothing leaves the process: the server is in memory and so is the storage.
public struct DemoScenario: Sendable {
    /// The redirect URI the demo's client is configured with.
    public static let redirectURI = URL(string: "identityflow-demo://callback")!
    /// The identifier of the custom identity provider the scenario adds to the server.
    public static let customProviderID = "demo-two-step"

    /// Where PINs and custom data come from.
    public let answers: any DemoAnswerSource
    /// Who signs in on the browser provider's page.
    public let browserUser: String
    /// Whether every state transition is printed (`  transition  …`); `identityflow demo` sets
    /// it with `--transitions` only, so its default transcript stays readable. The report
    /// counts the transitions either way.
    public var showsTransitions = true

    /// Creates the scenario.
    /// - Parameters:
    ///   - answers: Where PINs and custom data come from; ``ScriptedDemoAnswers`` by default.
    ///   - browserUser: Who signs in at the browser step (a user the reference server knows).
    public init(answers: any DemoAnswerSource = ScriptedDemoAnswers(), browserUser: String = "alice") {
        self.answers = answers
        self.browserUser = browserUser
    }

    /// Runs both registrations, one after the other, narrating to `output`.
    /// - Parameter output: Receives each line of the transcript (no trailing newline). It is
    ///   called from the flows' contexts, one line at a time, in order.
    /// - Returns: What happened; ``DemoReport/succeeded`` when both registrations succeeded.
    public func run(output: @escaping @Sendable (String) -> Void) async -> DemoReport {
        let transcript = DemoTranscript(output: output)
        let server = ReferenceIdentityService()
        let customProvider = server.addCustomProvider(
            id: Self.customProviderID, name: "Demo sign-up (two steps)", steps: .twoStep, script: Self.customProviderScript())
        let configuration = Self.configuration(logger: IdentityFlowLogger { transcript.log($0) })
        let client = UserClient(configuration: configuration, service: server, storage: InMemoryStorage())

        transcript.title("IdentityFlow demo")
        transcript.note("Two users register against an in-process reference server (no network); the second then")
        transcript.note("confirms one request on the phone with its PIN, denies another, and gets an implicit token.")
        transcript.note("Secrets (PINs, custom data, codes, tokens) print as <redacted>.")
        if showsTransitions { transcript.note("A transition line reads: flow chart: from --event [guard]--> to / effects.") }
        do {
            try await client.start()
        } catch {
            transcript.line("error", "the client could not start: " + DemoTranscript.explain(error))
            return DemoReport(outcomes: [], profileCount: 0, activeAccessTokenCount: server.activeAccessTokenCount, transitionCount: 0, startError: error)
        }
        describeSetUp(configuration: configuration, customProvider: customProvider, transcript: transcript)

        let transitions = Locked(0)
        let showsTransitions = showsTransitions
        let observation = client.transitionLog.observe { record in
            transitions.withLock { $0 += 1 }
            if showsTransitions { transcript.transition(record) }
        }
        defer { observation.cancel() }

        var outcomes: [DemoReport.Outcome] = []
        transcript.section("1. Browser identity provider, delegate API")
        let browserResult = await registerThroughDelegate(client: client, server: server, transcript: transcript)
        outcomes.append(DemoReport.Outcome(registration: .browser, identityProvider: ReferenceIdentityService.browserProvider, result: browserResult))

        transcript.section("2. Two-step custom identity provider, async API")
        let customAnswerer = DemoChallengeAnswerer(registration: .custom, server: server, browserUser: browserUser, answers: answers, transcript: transcript)
        let customResult = await registerThroughAsyncAPI(client: client, provider: customProvider, answerer: customAnswerer, transcript: transcript)
        outcomes.append(DemoReport.Outcome(registration: .custom, identityProvider: customProvider, result: customResult))

        var mobile: [Result<MobileAuthResult, IdentityFlowError>] = []
        var implicit: Result<ImplicitAuthentication, IdentityFlowError>?
        if case .success(let registered) = customResult, let pin = customAnswerer.chosenPin.current {
            transcript.section("3. Mobile authentication by push, async API")
            mobile = await confirmPushRequests(client: client, server: server, profile: registered.profile, pin: pin, transcript: transcript)
            transcript.section("4. Implicit authentication")
            implicit = await fetchImplicitToken(client: client, profile: registered.profile, transcript: transcript)
        }

        var report = DemoReport(
            outcomes: outcomes, profileCount: client.userProfiles.count,
            activeAccessTokenCount: server.activeAccessTokenCount, transitionCount: transitions.current, startError: nil)
        report.mobileAuthentication = mobile
        report.implicitAuthentication = implicit
        summarize(report, transcript: transcript)
        return report
    }

    // MARK: - Registrations

    private func registerThroughDelegate(client: UserClient, server: ReferenceIdentityService, transcript: DemoTranscript) async -> Result<
        RegistrationResult, IdentityFlowError
    > {
        transcript.note("client.registerUser(delegate:) with no provider: the server's browser provider.")
        let answerer = DemoChallengeAnswerer(registration: .browser, server: server, browserUser: browserUser, answers: answers, transcript: transcript)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<RegistrationResult, IdentityFlowError>, Never>) in
            let once = Locked<CheckedContinuation<Result<RegistrationResult, IdentityFlowError>, Never>?>(continuation)
            let delegate = DemoRegistrationDelegate(answerer: answerer) { result in
                once.withLock { pending in
                    defer { pending = nil }
                    return pending
                }?.resume(returning: result)
            }
            client.registerUser(delegate: delegate)
        }
        transcript.result(result)
        return result
    }

    private func registerThroughAsyncAPI(client: UserClient, provider: IdentityProvider, answerer: DemoChallengeAnswerer, transcript: DemoTranscript) async
        -> Result<RegistrationResult, IdentityFlowError>
    {
        transcript.note("try await client.registerUser(.provider(\(provider.identifier)), responder:)")
        let result: Result<RegistrationResult, IdentityFlowError>
        do {
            result = .success(try await client.registerUser(.provider(provider), responder: answerer))
        } catch {
            result = .failure(error)
        }
        transcript.result(result)
        return result
    }

    private static func describe(_ result: Result<MobileAuthResult, IdentityFlowError>) -> String {
        switch result {
        case .success(let handled): handled.accepted ? "accepted (\(handled.authenticator?.name ?? "confirmation"))" : "denied"
        case .failure(let error): "failed \(error.code) \(error.code.entry.name)"
        }
    }

    // MARK: - Set-up

    /// The demo's client: its own redirect URI, callbacks delivered at once on the flow's
    /// context (a command-line program has no main run loop to deliver them on), and a PIN
    /// key derivation lowered to keep the demo quick.
    static func configuration(logger: IdentityFlowLogger) -> ClientConfiguration {
        var configuration = ClientConfiguration(
            redirectURI: redirectURI, pinPolicy: PinPolicy(), pinKeyIterations: 1_000,
            callbackExecutor: .immediate, logger: logger)
        configuration.acceptedPinKeyIterations = 1_000...1_000_000
        return configuration
    }

    /// Init answers 2000; finish answers 4001 ("the code expired, a new one was sent") the first
    /// time and 2000 afterwards, whatever the data.
    static func customProviderScript() -> CustomProviderScript {
        let finishAttempts = Locked(0)
        return { step, _ in
            switch step {
            case .initialization:
                return .status(2000, data: "A confirmation code was sent.")
            case .finish:
                let attempt = finishAttempts.withLock { count in
                    count += 1
                    return count
                }
                return attempt == 1 ? .status(4001, data: "That code expired; a new one was sent.") : .status(2000, data: "Welcome!")
            }
        }
    }

    private func describeSetUp(configuration: ClientConfiguration, customProvider: IdentityProvider, transcript: DemoTranscript) {
        let policy = configuration.pinPolicy
        var rules = ["\(policy.length) digits"]
        if !policy.allowsSequences { rules.append("no sequences such as 12345") }
        if let similar = policy.maxSimilarDigits { rules.append("no digit more than \(similar) times") }
        transcript.section("Set-up")
        transcript.table([
            ["server", "ReferenceIdentityService, in memory"],
            ["providers", "\(ReferenceIdentityService.browserProvider.identifier) (browser)"],
            ["", "\(customProvider.identifier) (custom, two steps: finish answers 4001, then 2000)"],
            ["client", "redirect URI \(configuration.redirectURI), callbacks .immediate"],
            ["PIN policy", rules.joined(separator: ", ")],
        ])
    }

    // MARK: - Summary

    private func summarize(_ report: DemoReport, transcript: DemoTranscript) {
        transcript.section("Summary")
        var rows = [["registration", "API", "provider", "outcome", "info status"]]
        for outcome in report.outcomes {
            let kind = outcome.identityProvider.kind == .browser ? "browser" : "custom"
            switch outcome.result {
            case .success(let result):
                rows.append([
                    outcome.registration.rawValue, outcome.registration.api, "\(outcome.identityProvider.identifier) (\(kind))",
                    "registered \(result.profile.profileId)", result.info.map { String($0.status) } ?? "none",
                ])
            case .failure(let error):
                rows.append([
                    outcome.registration.rawValue, outcome.registration.api, "\(outcome.identityProvider.identifier) (\(kind))",
                    "failed \(error.code) \(error.code.entry.name)", "-",
                ])
            }
        }
        transcript.table(rows)
        transcript.output("")
        transcript.table([
            ["profiles on the client", String(report.profileCount)],
            ["access tokens active on the server", String(report.activeAccessTokenCount)],
            ["state transitions", String(report.transitionCount)],
            ["mobile authentication", report.mobileAuthentication.map(Self.describe).joined(separator: ", ")],
            ["implicit token", report.implicitAuthentication.map { result in (try? result.get()).map { "scopes \($0.tokens.scopes)" } ?? "failed" } ?? "-"],
            [
                "result",
                report.succeeded ? "both registrations succeeded, one request accepted, one denied, an implicit token issued" : "not every step succeeded",
            ],
        ])
    }
}
