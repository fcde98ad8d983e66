import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// Registration through the public API: every provider kind, status range and host behaviour.
@Suite("Registration flows")
struct RegistrationFlowTests {
    /// Registers through the async API and returns the result or the error code.
    func register(_ harness: Harness, with provider: IdentityProvider?, _ steps: [ScriptStep]) async throws -> (
        Result<RegistrationResult, IdentityFlowError>, ScriptedResponder
    ) {
        let responder = ScriptedResponder(steps)
        do {
            let result = try await harness.client.registerUser(.provider(provider), responder: responder)
            return (.success(result), responder)
        } catch {
            return (.failure(error), responder)
        }
    }

    // MARK: - Browser

    @Test("browser registration stores the profile, authenticates it and enrols the PIN on the server")
    func browserRegistration() async throws {
        let harness = try await Harness.make()
        let (outcome, responder) = try await register(harness, with: nil, [harness.browserLogin(), .createPin(.respond("24680"))])
        try responder.verify()
        let result = try outcome.get()
        #expect(result.identityProvider == ReferenceIdentityService.browserProvider)
        #expect(result.info == nil)
        #expect(harness.client.userProfiles == [result.profile])
        #expect(harness.client.authenticatedUserProfile == result.profile)
        #expect(harness.server.enrolledProfiles == [result.profile])
        #expect(harness.client.isFlowRunning == false)
        #expect(harness.transitions.all.allSatisfy { $0.isDeclared })
    }

    @Test("the delegate API reports start, challenges and exactly one result, in order")
    func browserRegistrationThroughDelegate() async throws {
        let harness = try await Harness.make()
        let responder = ScriptedResponder([
            harness.browserLogin(), .createPin(.respond("11111")), .createPin(.respond("24680"), expecting: .pinShouldNotUseSimilarDigits),
        ])
        harness.client.registerUser(delegate: responder)
        guard case .registered(let result) = await responder.outcome() else { Issue.record("not registered: \(responder.events)"); return }
        try responder.verify()
        #expect(responder.events.first == "didStartRegistrationOf")
        #expect(responder.events.last == "result registered(\(result.profile))")
        #expect(responder.events.filter { $0.hasPrefix("challenge") }.count == 3)
        #expect(responder.outcomes.count == 1)
    }

    @Test("callbacks arrive on the main actor by default")
    func defaultExecutorIsMainActor() async throws {
        let harness = try await Harness.make(executor: .mainActor)
        let recorder = MainThreadRecorder()
        harness.client.registerUser(delegate: recorder)
        await recorder.finished()
        #expect(recorder.callbacks > 0)
        #expect(recorder.offMainCallbacks == 0)
    }

    @Test("a trailing slash or upper-case host in the redirect still matches the redirect URI")
    func redirectNormalisation() async throws {
        let harness = try await Harness.make()
        let step = ScriptStep.browserRegistration(
            .respondWith { [server = harness.server] challenge in
                let redirect = try server.logIn(at: challenge.url).absoluteString
                return URL(string: redirect.replacingOccurrences(of: "identityflow-test://callback?", with: "identityflow-test://CALLBACK/?"))!
            })
        let (outcome, responder) = try await register(harness, with: nil, [step, .createPin(.respond("24680"))])
        try responder.verify()
        #expect((try? outcome.get()) != nil)
    }

    @Test("a denied login fails with externalIdentityProviderFailure carrying access_denied")
    func deniedLogin() async throws {
        let harness = try await Harness.make()
        let step = ScriptStep.browserRegistration(.respondWith { [server = harness.server] in try server.logIn(at: $0.url, consent: .deny) })
        let (outcome, responder) = try await register(harness, with: nil, [step])
        try responder.verify()
        #expect(outcome.failure?.code == .externalIdentityProviderFailure)
        #expect(outcome.failure?.oauthError == "access_denied")
    }

    @Test("a redirect with another state fails with invalidState", arguments: ["state=forged", ""])
    func stateMismatch(query: String) async throws {
        let harness = try await Harness.make()
        let step = ScriptStep.browserRegistration(.respondWith { _ in URL(string: "identityflow-test://callback?code=C&\(query)")! })
        let (outcome, _) = try await register(harness, with: nil, [step])
        #expect(outcome.failure?.code == .invalidState)
    }

    @Test(
        "a redirect to another URI fails with redirectMismatch",
        arguments: [
            "other://callback", "identityflow-test://elsewhere", "identityflow-test://callback/deeper", "https://callback",
        ])
    func redirectMismatch(base: String) async throws {
        let harness = try await Harness.make()
        let step = ScriptStep.browserRegistration(
            .respondWith { [server = harness.server] challenge in
                let redirect = try server.logIn(at: challenge.url)
                return URL(string: redirect.absoluteString.replacingOccurrences(of: "identityflow-test://callback", with: base))!
            })
        let (outcome, _) = try await register(harness, with: nil, [step])
        #expect(outcome.failure?.code == .redirectMismatch)
    }

    @Test("RFC 9207: a redirect naming another issuer fails with issuerMismatch and its code is never exchanged")
    func issuerMismatch() async throws {
        let harness = try await Harness.make()
        let step = ScriptStep.browserRegistration(
            .respondWith { [server = harness.server] challenge in
                var redirect = try #require(URLComponents(url: try server.logIn(at: challenge.url), resolvingAgainstBaseURL: false))
                let items = redirect.queryItems ?? []
                #expect(items.contains(URLQueryItem(name: "iss", value: ReferenceIdentityService.issuer)), "the reference server names itself")
                redirect.queryItems = items.map { $0.name == "iss" ? URLQueryItem(name: "iss", value: "https://attacker.example") : $0 }
                return try #require(redirect.url)
            })
        let (outcome, _) = try await register(harness, with: nil, [step])
        #expect(outcome.failure?.code == .issuerMismatch)
        #expect(!harness.server.calls.contains(.exchangeCode))
        #expect(harness.server.activeAccessTokenCount == 0)
    }

    @Test("a redirect with neither code nor error is an invalid server response")
    func redirectWithoutCode() async throws {
        let harness = try await Harness.make()
        let step = ScriptStep.browserRegistration(
            .respondWith { challenge in
                let state = URLComponents(url: challenge.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value ?? ""
                return URL(string: "identityflow-test://callback?state=\(state)")!
            })
        let (outcome, _) = try await register(harness, with: nil, [step])
        #expect(outcome.failure?.code == .invalidServerResponse)
    }

    // MARK: - Custom

    @Test("one-step custom registration passes the success info to the result")
    func customOneStep() async throws {
        let harness = try await Harness.make()
        let provider = harness.customProvider()
        let (outcome, responder) = try await register(
            harness, with: provider, [.customRegistrationFinish(.respond("name=Ada")), .createPin(.respond("24680"))])
        try responder.verify()
        #expect(try outcome.get().info == CustomInfo(status: 2000, data: "welcome"))
    }

    @Test("two-step: the finish challenge carries the init answer; 4xxx re-issues the same step")
    func customTwoStepWithRetries() async throws {
        let harness = try await Harness.make()
        let provider = harness.customProvider(.twoStep)
        let steps: [ScriptStep] = [
            .customRegistrationInit(.respond("status:4002")),
            .customRegistrationInit(.respond(nil), expecting: .customRegistrationFailure),
            .customRegistrationFinish(
                .respondWith { challenge in
                    #expect(challenge.info == CustomInfo(status: 2000, data: "ok"))
                    return "status:4001"
                }),
            .customRegistrationFinish(
                .respondWith { challenge in
                    #expect(challenge.info == CustomInfo(status: 4001, data: "answer-4001"))
                    #expect(challenge.error?.customInfo?.status == 4001)
                    return "fine"
                }, expecting: .customRegistrationFailure),
            .createPin(.respond("24680")),
        ]
        let (outcome, responder) = try await register(harness, with: provider, steps)
        try responder.verify()
        #expect(try outcome.get().profile == harness.client.authenticatedUserProfile)
    }

    @Test("5xxx fails with customRegistrationFailure carrying the info", arguments: [5000, 5001, 5999])
    func customUnrecoverable(status: Int) async throws {
        let harness = try await Harness.make()
        let (outcome, responder) = try await register(harness, with: harness.customProvider(), [.customRegistrationFinish(.respond("status:\(status)"))])
        try responder.verify()
        #expect(outcome.failure?.code == .customRegistrationFailure)
        #expect(outcome.failure?.customInfo?.status == status)
        #expect(harness.client.userProfiles.isEmpty)
    }

    @Test("a status outside the three ranges fails with invalidServerResponse", arguments: [1999, 3000, 4999 + 1, 6000, 0, -1])
    func customInvalidStatus(status: Int) async throws {
        let harness = try await Harness.make()
        let (outcome, _) = try await register(harness, with: harness.customProvider(), [.customRegistrationFinish(.respond("status:\(status)"))])
        let expected: ErrorCode = (5000...5999).contains(status) ? .customRegistrationFailure : .invalidServerResponse
        #expect(outcome.failure?.code == expected)
    }

    @Test("an expired session fails with customRegistrationExpired")
    func customExpired() async throws {
        let harness = try await Harness.make()
        let (outcome, _) = try await register(
            harness, with: harness.customProvider(.twoStep), [.customRegistrationInit(.respond(nil)), .customRegistrationFinish(.respond("expire"))])
        #expect(outcome.failure?.code == .customRegistrationExpired)
    }

    @Test("an unknown provider fails with invalidIdentityProvider")
    func unknownProvider() async throws {
        let harness = try await Harness.make()
        let ghost = IdentityProvider(identifier: "ghost", name: "Ghost", kind: .custom(.oneStep))
        let (outcome, _) = try await register(harness, with: ghost, [.customRegistrationFinish(.respond("x"))])
        #expect(outcome.failure?.code == .invalidIdentityProvider)
    }

    // MARK: - PIN policy

    @Test("each policy violation re-issues CreatePinChallenge with its code; attempts are unlimited")
    func pinPolicyViolations() async throws {
        let harness = try await Harness.make(pinPolicy: PinPolicy(length: 5, maxSimilarDigits: 2, blockList: ["13572"]))
        let steps: [ScriptStep] =
            [
                harness.browserLogin(),
                .createPin(.respond("1234")),
                .createPin(.respond("13572"), expecting: .wrongPinLength),
                .createPin(.respond("97531"), expecting: .pinBlackListed),
                .createPin(.respond("22272"), expecting: .pinShouldNotBeASequence),
                .createPin(.respond("12a45"), expecting: .pinShouldNotUseSimilarDigits),
            ] + Array(repeating: ScriptStep.createPin(.respond("9999"), expecting: .wrongPinLength), count: 20)
            + [.createPin(.respond("24680"), expecting: .wrongPinLength)]
        let (outcome, responder) = try await register(harness, with: nil, steps)
        try responder.verify()
        #expect((try? outcome.get()) != nil)
    }

    // MARK: - Host behaviour

    @Test("cancel at every challenge fails with actionCancelled and leaves nothing behind", arguments: 0..<4)
    func cancelAtEachChallenge(position: Int) async throws {
        let harness = try await Harness.make()
        let provider = harness.customProvider(.twoStep)
        var steps: [ScriptStep] = [
            .customRegistrationInit(.respond(nil)), .customRegistrationFinish(.respond("ok")), .createPin(.respond("1")),
            .createPin(.respond("24680"), expecting: .wrongPinLength),
        ]
        steps = Array(steps.prefix(position))
        switch position {
        case 0: steps.append(.customRegistrationInit(.cancel))
        case 1: steps.append(.customRegistrationFinish(.cancel))
        case 2: steps.append(.createPin(.cancel))
        default: steps.append(.createPin(.cancel, expecting: .wrongPinLength))
        }
        let (outcome, responder) = try await register(harness, with: provider, steps)
        try responder.verify()
        #expect(outcome.failure?.code == .actionCancelled)
        #expect(harness.client.userProfiles.isEmpty)
        #expect(harness.server.activeAccessTokenCount == 0)
        #expect(harness.server.enrolledProfiles.isEmpty)
    }

    @Test("a dropped challenge ends the flow with actionCancelled instead of hanging")
    func droppedChallenge() async throws {
        let harness = try await Harness.make()
        let (outcome, responder) = try await register(harness, with: nil, [harness.browserLogin(), .createPin(.drop)])
        try responder.verify()
        #expect(outcome.failure?.code == .actionCancelled)
        #expect(outcome.failure?.message.contains("released") == true)
        #expect(harness.server.activeAccessTokenCount == 0)
    }

    @Test("a second answer changes nothing, returns false and is logged")
    func duplicateAnswer() async throws {
        let harness = try await Harness.make()
        let (outcome, responder) = try await register(harness, with: nil, [harness.browserLogin(), .createPin(.respondTwice("24680"))])
        try responder.verify()
        #expect((try? outcome.get()) != nil)
        #expect(harness.logs.messages.contains { $0.contains("ignored") && $0.contains("answered") })
    }

    @Test("an answer to a stale challenge or after the flow ended returns false")
    func staleAndLateAnswers() async throws {
        let harness = try await Harness.make()
        let responder = ScriptedResponder([harness.browserLogin(), .createPin(.hold)])
        let task = Task { try await harness.client.registerUser(responder: responder) }
        while responder.heldChallenges.isEmpty { await Task.yield() }
        guard case .createPin(let held) = responder.heldChallenges.first else { Issue.record("no held challenge"); return }
        let foreign = CreatePinChallenge(userProfile: held.userProfile, pinLength: 5, sender: held.sender)
        #expect(held.sender.respond(with: "24680", to: foreign) == false)
        #expect(harness.client.cancelCurrentFlow())
        let result = await task.result
        #expect((result.failure as? IdentityFlowError)?.code == .actionCancelled)
        #expect(held.sender.respond(with: "24680", to: held) == false)
        #expect(held.sender.cancel(held) == false)
        #expect(harness.logs.messages.contains { $0.contains("did not issue") })
    }

    @Test("a second flow fails at once with actionAlreadyInProgress and the first goes on")
    func secondFlowIsRefused() async throws {
        let harness = try await Harness.make()
        let first = ScriptedResponder([harness.browserLogin(), .createPin(.hold)])
        let running = Task { try await harness.client.registerUser(responder: first) }
        while first.heldChallenges.isEmpty { await Task.yield() }
        let second = ScriptedResponder([])
        harness.client.registerUser(delegate: second)
        #expect(await second.outcome().error?.code == .actionAlreadyInProgress)
        await #expect(throws: IdentityFlowError.self) { try await harness.client.registerUser(responder: ScriptedResponder([])) }
        guard case .createPin(let held) = first.heldChallenges.first else { return }
        #expect(held.sender.respond(with: "24680", to: held))
        #expect(try await running.value.profile == held.userProfile)
        try second.verify()
    }

    @Test("cancelling the awaiting task cancels the flow")
    func taskCancellation() async throws {
        let harness = try await Harness.make()
        let responder = ScriptedResponder([harness.browserLogin(), .createPin(.hold)])
        let task = Task { try await harness.client.registerUser(responder: responder) }
        while responder.heldChallenges.isEmpty { await Task.yield() }
        task.cancel()
        #expect((await task.result.failure as? IdentityFlowError)?.code == .actionCancelled)
        #expect(harness.server.activeAccessTokenCount == 0)
        #expect(harness.client.isFlowRunning == false)
    }

    @Test("an unanswered challenge times out on the configured clock")
    func challengeTimeout() async throws {
        let clock = ManualClock()
        let harness = try await Harness.make(challengeTimeout: .seconds(30), clock: clock)
        let responder = ScriptedResponder([harness.browserLogin(), .createPin(.hold)])
        let task = Task { try await harness.client.registerUser(responder: responder) }
        await clock.waitForSleepers(1)
        while responder.heldChallenges.isEmpty { await Task.yield() }
        clock.advance(by: .seconds(29))
        #expect(harness.client.isFlowRunning)
        clock.advance(by: .seconds(1))
        let error = await task.result.failure as? IdentityFlowError
        #expect(error?.code == .actionCancelled)
        #expect(error?.message.contains("timeout") == true)
    }

    @Test("the client accepts a new flow right after one ended, even from the terminal callback")
    func newFlowAfterTerminal() async throws {
        let harness = try await Harness.make()
        let (first, _) = try await register(harness, with: nil, [harness.browserLogin(), .createPin(.cancel)])
        #expect(first.failure?.code == .actionCancelled)
        let (second, responder) = try await register(harness, with: nil, [harness.browserLogin(), .createPin(.respond("24680"))])
        try responder.verify()
        #expect((try? second.get()) != nil)
    }

    @Test("an unexpected challenge is reported naming both and the flow ends")
    func scriptMismatchIsReported() async throws {
        let harness = try await Harness.make()
        let (outcome, responder) = try await register(harness, with: nil, [.createPin(.respond("24680"))])
        #expect(outcome.failure?.code == .actionCancelled)
        #expect(throws: ScriptMismatch.self) { try responder.verify() }
        #expect(responder.mismatches.first?.contains("expected createPin") == true)
        #expect(responder.mismatches.first?.contains("BrowserRegistrationChallenge") == true)
    }

    // MARK: - Server faults

    @Test(
        "server and network faults fail the flow with their codes and leave no token",
        arguments: [
            (ServiceCall.authorizationURL, ServiceFault.networkError, ErrorCode.networkConnectivityFailure),
            (.exchangeCode, .serverError, .serverNotReachable),
            (.exchangeCode, .malformedAnswer, .invalidServerResponse),
            (.enrolPin, .networkError, .networkConnectivityFailure),
            (.identityProviders, .serverError, .serverNotReachable),
        ])
    func serverFaults(call: ServiceCall, fault: ServiceFault, code: ErrorCode) async throws {
        let harness = try await Harness.make()
        harness.server.inject(fault, into: call)
        let responder = ScriptedResponder([harness.browserLogin(), .createPin(.respond("24680"))])
        let result = await Result { () async throws(IdentityFlowError) in try await harness.client.registerUser(responder: responder) }
        #expect(result.failure?.code == code)
        #expect(harness.server.activeAccessTokenCount == 0)
        #expect(harness.server.enrolledProfiles.isEmpty)
        #expect(harness.client.userProfiles.isEmpty)
    }

    @Test("a flow waiting on a slow server can always be cancelled; a slow answer that comes in time is fine")
    func slowServer() async throws {
        let clock = ManualClock()
        let harness = try await Harness.make(server: ReferenceIdentityService(clock: clock))
        harness.server.inject(.latency(.seconds(10)), into: .exchangeCode, times: 2)
        let waiting = Task { try await harness.client.registerUser(responder: ScriptedResponder([harness.browserLogin(), .createPin(.respond("24680"))])) }
        await clock.waitForSleepers(1)
        #expect(harness.client.cancelCurrentFlow())
        #expect((await waiting.result.failure as? IdentityFlowError)?.code == .actionCancelled)
        #expect(harness.server.activeAccessTokenCount == 0)

        let patient = Task { try await harness.client.registerUser(responder: ScriptedResponder([harness.browserLogin(), .createPin(.respond("24680"))])) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        #expect(try await patient.value.profile == harness.client.authenticatedUserProfile)
    }

    @Test("a storage failure discards the server-side registration and fails with dataStorageNotAvailable")
    func storageFailure() async throws {
        let server = ReferenceIdentityService()
        let storage = FailingStorage()
        let client = UserClient(configuration: .testing(), service: server, storage: storage)
        try await client.start()
        storage.failWrites = true
        let responder = ScriptedResponder([.browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680"))])
        let result = await Result { () async throws(IdentityFlowError) in try await client.registerUser(responder: responder) }
        #expect(result.failure?.code == .dataStorageNotAvailable)
        #expect(server.enrolledProfiles.isEmpty)
        #expect(server.activeAccessTokenCount == 0)
        #expect(client.userProfiles.isEmpty)
        #expect(client.authenticatedUserProfile == nil)
    }

    @Test("calls before start() fail with requestInvalid; an invalid configuration fails start()")
    func startIsRequired() async throws {
        let client = UserClient(configuration: .testing(), service: ReferenceIdentityService(), storage: InMemoryStorage())
        let responder = ScriptedResponder([])
        client.registerUser(delegate: responder)
        #expect(await responder.outcome().error?.code == .requestInvalid)
        await #expect { try await client.identityProviders() } throws: { ($0 as? IdentityFlowError)?.code == .requestInvalid }
        let bad = UserClient(configuration: .testing(pinPolicy: PinPolicy(length: 3)), service: ReferenceIdentityService(), storage: InMemoryStorage())
        await #expect { try await bad.start() } throws: { ($0 as? IdentityFlowError)?.code == .configurationInvalid }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension Result where Failure == IdentityFlowError {
    /// Captures an async typed-throwing call.
    init(catching body: () async throws(IdentityFlowError) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
