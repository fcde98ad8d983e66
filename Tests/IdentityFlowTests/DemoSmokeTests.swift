import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// `identityflow demo` runs ``DemoScenario``; these tests run the same scenario with a sink that
/// collects the lines.
@Suite("Demo scenario")
struct DemoSmokeTests {
    /// Collects the transcript's lines.
    final class Lines: Sendable {
        private let lines = Locked<[String]>([])
        var all: [String] { lines.current }
        var text: String { all.joined(separator: "\n") }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    /// Cancels every challenge.
    struct CancellingAnswers: DemoAnswerSource {
        func pin(for challenge: CreatePinChallenge, in registration: DemoRegistration) async -> String? { nil }
        func customData(for challenge: CustomRegistrationChallenge) async -> String? { nil }
    }

    @Test("the scripted demo registers both users and narrates every step, in order")
    func scriptedRun() async throws {
        let lines = Lines()
        let report = await DemoScenario().run { lines.append($0) }
        let text = lines.text

        #expect(report.succeeded)
        #expect(report.outcomes.map(\.registration) == [.browser, .custom])
        #expect(try report.outcomes[1].result.get().info?.status == 2000)
        #expect(report.profileCount == 2)
        #expect(report.activeAccessTokenCount == 3, "two sessions and the implicit token")
        #expect(report.mobileAuthentication.map { (try? $0.get())?.accepted } == [true, false])
        #expect(try report.mobileAuthentication[0].get().authenticator == .pin)
        #expect(try report.implicitAuthentication?.get().tokens.scopes == ["read"])
        #expect(report.transitionCount == text.components(separatedBy: "  transition  ").count - 1)

        let sections = [
            "Set-up", "1. Browser identity provider, delegate API", "2. Two-step custom identity provider, async API",
            "3. Mobile authentication by push, async API", "4. Implicit authentication", "Summary",
        ]
        let positions = sections.compactMap { section in lines.all.firstIndex(of: section) }
        #expect(positions.count == sections.count)
        #expect(positions == positions.sorted())

        #expect(text.contains("BrowserRegistrationChallenge(reference-browser)"))
        #expect(text.contains("redirect → identityflow-demo://callback?code=<redacted>&state=<redacted>"))
        #expect(text.contains("CustomRegistrationChallenge(init, demo-two-step)"))
        #expect(text.contains("status: 4001, error: 10022"))
        #expect(text.contains("error: 9012"))
        #expect(text.contains("9012 pinShouldNotBeASequence"))
        #expect(text.contains("PIN <redacted>"))
        #expect(text.contains("finish data <redacted>"))
        #expect(text.contains("both registrations succeeded, one request accepted, one denied, an implicit token issued"))
        #expect(text.contains("MobileAuthConfirmationChallenge("))
        #expect(text.contains("denied (an outcome, not an error)"))
        #expect(!text.contains("NOT IN CHART"))
    }

    @Test("no PIN, custom data, code, token or provider data reaches the transcript")
    func transcriptHasNoSecrets() async {
        let answers = ScriptedDemoAnswers()
        let lines = Lines()
        _ = await DemoScenario(answers: answers).run { lines.append($0) }
        let text = lines.text

        for secret in [answers.browserPin, answers.refusedPin, answers.customPin, answers.initData] + answers.finishData {
            #expect(!text.contains(secret), "the transcript shows \(secret)")
        }
        for serverValue in ["A confirmation code was sent.", "That code expired", "Welcome!"] {
            #expect(!text.contains(serverValue), "the transcript shows the provider's data \(serverValue)")
        }
        // The reference server's codes, tokens and sessions are `<kind>-<serial>-<random>`.
        let issued = /(code|at|rt|session)-\d+-/
        #expect(text.firstMatch(of: issued) == nil, "the transcript shows a code, token or session")
        #expect(!text.contains("code_challenge="), "the authorization URL's parameters are named, not shown")
    }

    @Test("cancelled challenges end each registration with actionCancelled and leave nothing behind")
    func cancelledRun() async throws {
        let lines = Lines()
        let report = await DemoScenario(answers: CancellingAnswers()).run { lines.append($0) }

        #expect(!report.succeeded)
        #expect(report.outcomes.map { $0.result.failure?.code } == [.actionCancelled, .actionCancelled])
        #expect(report.profileCount == 0)
        #expect(report.activeAccessTokenCount == 0)
        #expect(lines.text.contains("FAILED 9006 actionCancelled"))
        #expect(lines.text.contains("not every step succeeded"))
        #expect(report.mobileAuthentication.isEmpty && report.implicitAuthentication == nil)
    }

    @Test("each SDK-style scenario runs its flow to success and shows its distinctive step", arguments: SDKStyleScenario.allCases)
    func sdkStyleScenario(_ scenario: SDKStyleScenario) async {
        let lines = Lines()
        let succeeded = await scenario.run { lines.append($0) }
        #expect(succeeded, "\(lines.text)")
        let expected: [String] =
            switch scenario {
            case .zephr: ["PartialRegistrationChallenge(reference-browser, error: 11021)", "[partial]--> awaitingPartialRegistration"]
            case .sevenPass: ["CredentialsChallenge(seven-pass, error: 11025)", "[interactionRequired]--> preparingAuthorization", "[tokenExchange]"]
            case .grab: ["reference-identity-app://", "[validSession]--> authenticated"]
            case .schibsted: ["prefersEphemeralSession: true", "taken and ignored = true"]
            }
        for text in expected { #expect(lines.text.contains(text), "missing \(text)") }
        #expect(!lines.text.contains("correct horse") && !lines.text.contains("google-demo-token"), "a secret reached the transcript")
    }
}

extension DemoSmokeTests {
    @Test("without showsTransitions, part 2 prints no transition line but still counts them")
    func quietTransitions() async {
        let lines = Lines()
        var scenario = DemoScenario()
        scenario.showsTransitions = false
        let report = await scenario.run { lines.append($0) }
        #expect(report.succeeded)
        #expect(report.transitionCount > 0)
        #expect(!lines.text.contains("  transition  ") && !lines.text.contains("A transition line reads"), "\(lines.text)")
    }
}
