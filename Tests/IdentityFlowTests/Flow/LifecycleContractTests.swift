import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// The lifecycle promises an outside acceptance suite found broken: cancels that land as the
/// server answers or while a flow prepares, cancelled tasks, the authenticator a login reports,
/// unreadable storage, token sets piling up, empty scopes. Cancels are placed deterministically
/// with ``HookedService`` (at the moment a call returns or starts), never with sleeps.
@Suite("Lifecycle contract", .timeLimit(.minutes(1)))
struct LifecycleContractTests {
    /// Expects `body` to throw an ``IdentityFlowError`` with `code` (whatever its message).
    func expectCode(_ code: ErrorCode, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected error \(code), but nothing was thrown", sourceLocation: sourceLocation)
        } catch {
            #expect((error as? IdentityFlowError)?.code == code, "\(error)", sourceLocation: sourceLocation)
        }
    }

    static func client(_ service: HookedService, storage: InMemoryStorage = InMemoryStorage()) async throws -> UserClient {
        let client = UserClient(configuration: .testing(), service: service, storage: storage)
        try await client.start()
        return client
    }

    static func browserLogin(_ server: ReferenceIdentityService) -> ScriptStep {
        .browserRegistration(.respondWith { try server.logIn(at: $0.url) })
    }

    static func registered(_ client: UserClient, _ server: ReferenceIdentityService) async throws -> UserProfile {
        try await client.registerUser(responder: ScriptedResponder([browserLogin(server), .createPin(.respond("24680"))])).profile
    }

    // MARK: - 1. A cancel as the server answers leaves no token

    @Test("a cancel landing as the code exchange returns ends with 9006 and revokes what was issued", arguments: [false, true])
    func cancelAsCodeExchangeReturns(delegate: Bool) async throws {
        let service = HookedService()
        let client = try await Self.client(service)
        service.after("exchangeCode") { #expect(client.cancelCurrentFlow()) }
        let responder = ScriptedResponder([Self.browserLogin(service.inner)])
        if delegate {
            client.registerUser(delegate: responder)
            #expect(await responder.outcome().error?.code == .actionCancelled)
        } else {
            await expectCode(.actionCancelled) { _ = try await client.registerUser(responder: responder) }
        }
        #expect(service.inner.activeAccessTokenCount == 0)
        #expect(service.inner.activeRefreshTokenCount == 0)
        #expect(client.userProfiles.isEmpty)
    }

    @Test("a cancel landing as a custom registration's 2000 answer returns revokes its tokens")
    func cancelAsCustomSuccessReturns() async throws {
        let service = HookedService()
        let provider = service.inner.addCustomProvider(id: "custom", steps: .oneStep) { _, _ in .status(2000, data: "ok") }
        let client = try await Self.client(service)
        service.after("completeCustomRegistration") { client.cancelCurrentFlow() }
        await expectCode(.actionCancelled) {
            _ = try await client.registerUser(.provider(provider), responder: ScriptedResponder([.customRegistrationFinish(.respond("data"))]))
        }
        #expect(service.inner.activeAccessTokenCount == 0)
        #expect(service.inner.activeRefreshTokenCount == 0)
    }

    @Test("a cancel landing as the authorization URL returns ends the flow before the browser opens")
    func cancelAsAuthorizationURLReturns() async throws {
        let service = HookedService()
        let client = try await Self.client(service)
        service.after("authorizationURL") { #expect(client.cancelCurrentFlow()) }
        let responder = ScriptedResponder([])
        await expectCode(.actionCancelled) { _ = try await client.registerUser(responder: responder) }
        #expect(responder.events.filter { $0.hasPrefix("challenge") }.isEmpty)
    }

    @Test("a cancel landing as a PIN check returns revokes the session it opened", arguments: [false, true])
    func cancelAsPinCheckReturns(biometric: Bool) async throws {
        let service = HookedService()
        let client = try await Self.client(service)
        let profile = try await Self.registered(client, service.inner)
        if biometric {
            try await client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        }
        try await client.logout()
        #expect(service.inner.activeAccessTokenCount == 0)
        service.after(biometric ? "verifyBiometricProof" : "verifyPinProof") { client.cancelCurrentFlow() }
        let steps: [ScriptStep] = biometric ? [.biometric(.respond(.confirmed))] : [.pin(.respond("24680"))]
        await expectCode(.actionCancelled) {
            _ = try await client.authenticateUser(profile, authenticator: biometric ? .biometric : .pin, responder: ScriptedResponder(steps))
        }
        #expect(service.inner.activeAccessTokenCount == 0)
        #expect(service.inner.activeRefreshTokenCount == 0)
        #expect(client.authenticatedUserProfile == nil)
    }

    // MARK: - 2. A cancel while preparing is not lost

    @Test("a cancel while the flow still prepares ends it with 9006 and nothing of it runs", arguments: [false, true])
    func cancelWhilePreparing(delegate: Bool) async throws {
        let service = HookedService()
        let client = try await Self.client(service)
        service.before("identityProviders") { #expect(client.cancelCurrentFlow()) }
        let responder = ScriptedResponder([Self.browserLogin(service.inner), .createPin(.respond("24680"))])
        if delegate {
            client.registerUser(delegate: responder)
            #expect(await responder.outcome().error?.code == .actionCancelled)
        } else {
            await expectCode(.actionCancelled) { _ = try await client.registerUser(responder: responder) }
        }
        #expect(client.userProfiles.isEmpty)
        #expect(service.inner.enrolledProfiles.isEmpty)
        #expect(service.inner.activeAccessTokenCount == 0)
        #expect(responder.events.filter { $0.hasPrefix("challenge") }.isEmpty)
        #expect(!client.isFlowRunning)
    }

    // MARK: - 3. A flow started from a cancelled task

    @Test("a flow started from an already-cancelled task ends with 9006 instead of waiting")
    func startedFromCancelledTask() async throws {
        let service = HookedService()
        let client = try await Self.client(service)
        let responder = ScriptedResponder([Self.browserLogin(service.inner), .createPin(.respond("24680"))])
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.registerUser(responder: responder)
        }
        await expectCode(.actionCancelled) { _ = try await task.value }
        #expect(client.userProfiles.isEmpty)
        #expect(!client.isFlowRunning)
    }

    // MARK: - 4. The authenticator that succeeded

    @Test("after a biometric failure or a PIN fallback, the result names the PIN", arguments: [false, true])
    func pinAfterBiometric(sensorFails: Bool) async throws {
        let service = HookedService()
        let client = try await Self.client(service)
        let profile = try await Self.registered(client, service.inner)
        try await client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        let responder = ScriptedResponder([
            .biometric(.respond(sensorFails ? .failed : .pinFallback)),
            .pin(.respond("24680"), expecting: sensorFails ? .biometricAuthenticatorFailure : nil),
        ])
        let result = try await client.authenticateUser(profile, authenticator: .biometric, responder: responder)
        #expect(result.authenticator == .pin)
        let delegate = ScriptedResponder([.biometric(.respond(.pinFallback)), .pin(.respond("24680"))])
        client.authenticateUser(profile, authenticator: .biometric, delegate: delegate)
        guard case .authenticated(let viaDelegate) = await delegate.outcome() else { Issue.record("\(delegate.events)"); return }
        #expect(viaDelegate.authenticator == .pin)
        let confirmed = try await client.authenticateUser(profile, authenticator: .biometric, responder: ScriptedResponder([.biometric(.respond(.confirmed))]))
        #expect(confirmed.authenticator == .biometric)
    }

    // MARK: - 5. Unreadable storage is reported

    @Test("start() reports an unreadable stored profile and leaves it for the host")
    func corruptProfileIsReported() async throws {
        let storage = InMemoryStorage()
        try storage.setData(Data("garbage".utf8), forKey: "identityflow.profile.broken")
        let logs = LogCapture()
        var configuration = ClientConfiguration.testing(logger: logs.logger)
        configuration.callbackExecutor = .immediate
        let client = UserClient(configuration: configuration, service: ReferenceIdentityService(), storage: storage)
        let report = try await client.start()
        #expect(report.unreadableStorageKeys == ["identityflow.profile.broken"])
        #expect(report.profiles.isEmpty)
        #expect(try storage.data(forKey: "identityflow.profile.broken") != nil)
        #expect(logs.messages.contains { $0.contains("9024") })
    }

    // MARK: - 6. One live token set per profile

    @Test("logging in again, registering biometrics, changing the PIN or a biometric login keep one live token set; logout leaves none")
    func tokenSetsDoNotPileUp() async throws {
        let service = HookedService()
        let server = service.inner
        let client = try await Self.client(service)
        let profile = try await Self.registered(client, server)
        func expectOne(_ step: String) {
            #expect(server.activeAccessTokenCount == 1, "\(step): \(server.activeAccessTokenCount) access tokens")
            #expect(server.activeRefreshTokenCount == 1, "\(step): \(server.activeRefreshTokenCount) refresh tokens")
        }
        expectOne("registered")
        _ = try await client.authenticateUser(profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        expectOne("logged in again")
        try await client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        expectOne("biometrics registered")
        _ = try await client.changePin(responder: ScriptedResponder([.pin(.respond("24680")), .createPin(.respond("13570"))]))
        expectOne("PIN changed")
        _ = try await client.authenticateUser(profile, authenticator: .biometric, responder: ScriptedResponder([.biometric(.respond(.confirmed))]))
        expectOne("biometric login")
        try await client.logout()
        #expect(server.activeAccessTokenCount == 0)
        #expect(server.activeRefreshTokenCount == 0)
    }

    // MARK: - 7. Scopes and providers are checked before anything is asked

    @Test("an empty scope list is refused with requestInvalid before anything is sent")
    func emptyScopes() async throws {
        let service = HookedService()
        let client = try await Self.client(service)
        let calls = service.inner.calls.count
        await expectCode(.requestInvalid) {
            _ = try await client.registerUser(RegistrationRequest(scopes: []), responder: ScriptedResponder([]))
        }
        #expect(service.inner.calls.count == calls)
    }

    @Test("an unknown custom provider fails with 10020 without asking the user for data")
    func unknownCustomProvider() async throws {
        let service = HookedService()
        let client = try await Self.client(service)
        let responder = ScriptedResponder([])
        let ghost = IdentityProvider(identifier: "ghost", name: "Ghost", kind: .custom(.oneStep))
        await expectCode(.invalidIdentityProvider) { _ = try await client.registerUser(.provider(ghost), responder: responder) }
        #expect(!responder.events.contains { $0.hasPrefix("challenge") })
    }

    // MARK: - Documented choices

    @Test("start() runs once: a second call fails with 9007 after the first finished")
    func secondStart() async throws {
        let client = try await Self.client(HookedService())
        await expectCode(.actionAlreadyInProgress) { try await client.start() }
    }

    @Test("cancelCurrentFlow() returns false when the cancel comes too late: the flow stores its result")
    func lateCancelSaysSo() async throws {
        let service = HookedService()
        let client = try await Self.client(service)
        let profile = try await Self.registered(client, service.inner)
        let answers = Locked<[Bool]>([])
        // The session is stored after the PIN check; the revocation of the replaced session runs
        // inside that committed step.
        service.before("revoke") { answers.withLock { $0.append(client.cancelCurrentFlow()) } }
        let result = try await client.authenticateUser(profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        #expect(result.profile == profile)
        #expect(answers.current == [false])
        #expect(!client.cancelCurrentFlow(), "no flow runs")
    }

    @Test("the async API records the outcome in ScriptedResponder.outcomes, so verify() checks one terminal outcome")
    func asyncOutcomesRecorded() async throws {
        let service = HookedService()
        let client = try await Self.client(service)
        let responder = ScriptedResponder([Self.browserLogin(service.inner), .createPin(.respond("24680"))])
        let result = try await client.registerUser(responder: responder)
        #expect(responder.outcomes.count == 1)
        guard case .registered(let recorded) = responder.outcomes.first else { Issue.record("\(responder.outcomes)"); return }
        #expect(recorded.profile == result.profile)
        try responder.verify()
    }

    @Test("ScriptedResponder.outcome(timeout:) gives timedOut for a flow that never ends, instead of hanging")
    func outcomeTimesOut() async throws {
        let service = HookedService()
        let client = try await Self.client(service)
        let responder = ScriptedResponder([.browserRegistration(.hold)])
        client.registerUser(delegate: responder)
        guard case .timedOut = await responder.outcome(timeout: .milliseconds(50)) else { Issue.record("expected timedOut"); return }
        client.cancelCurrentFlow()
        #expect(await responder.outcome().error?.code == .actionCancelled)
    }
}
