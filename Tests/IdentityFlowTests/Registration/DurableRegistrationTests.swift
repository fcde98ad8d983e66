import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// A browser registration survives the app being killed while the user is in the browser: it
/// checkpoints itself, and a new client on the same storage resumes it (issue: durable flows).
///
/// "The process dies" is played by copying the storage at the moment the browser challenge
/// reaches the host, then giving the copy to a new client; the first client's flow is cancelled
/// afterwards and touches only the original. Tests/InteropTests/ProcessDeathTests kills a real
/// process with SIGKILL.
@Suite("Durable registration: checkpoint, handleRedirect, resume")
struct DurableRegistrationTests {
    static let checkpointKey = "identityflow.checkpoint.registration"

    /// What a killed process leaves: the storage as it was while the browser challenge waited.
    struct Killed {
        let storage: InMemoryStorage
        let browserURL: URL
    }

    /// Runs a browser registration up to its challenge on a first client and "kills" it there.
    static func killedWhileInBrowser(server: ReferenceIdentityService, now: @escaping @Sendable () -> Date = { Date() }, stateless: Bool = false)
        async throws -> Killed
    {
        let original = InMemoryStorage()
        var configuration = ClientConfiguration.testing(now: now)
        configuration.checkpointLifetime = .seconds(600)
        let client = UserClient(configuration: configuration, service: server, storage: original)
        try await client.start()
        let copy = InMemoryStorage()
        let seen = Locked<URL?>(nil)
        let play: @Sendable (Challenge) async -> Void = { challenge in
            guard case .browserRegistration(let browser) = challenge else { challenge.cancel(); return }
            #expect(((try? original.data(forKey: checkpointKey)) ?? nil) != nil, "the checkpoint is stored before the host sees the challenge")
            for key in (try? original.keys()) ?? [] {
                if let data = try? original.data(forKey: key) { try? copy.setData(data, forKey: key) }
            }
            seen.withLock { $0 = browser.url }
            _ = browser.sender.cancel(browser)
        }
        let request = RegistrationRequest.provider(ReferenceIdentityService.browserProvider)
        _ = try? await client.registerUser(stateless ? request.stateless() : request, answering: play)
        #expect(try original.data(forKey: checkpointKey) == nil, "the cancelled flow deleted its checkpoint")
        return Killed(storage: copy, browserURL: try #require(seen.current))
    }

    static func client(
        on storage: InMemoryStorage, server: ReferenceIdentityService, now: @escaping @Sendable () -> Date = { Date() }, logs: LogCapture = LogCapture()
    ) -> UserClient {
        var configuration = ClientConfiguration.testing(now: now, logger: logs.logger)
        configuration.checkpointLifetime = .seconds(600)
        return UserClient(configuration: configuration, service: server, storage: storage)
    }

    static let createPin: @Sendable (Challenge) async -> Void = { challenge in
        switch challenge {
        case .createPin(let create): create.sender.respond(with: "24680", to: create)
        default: challenge.cancel()
        }
    }

    @Test("a new process resumes with the redirect handed over: code exchange, create PIN, storage, then a PIN login")
    func resumeAfterKill() async throws {
        let server = ReferenceIdentityService()
        let killed = try await Self.killedWhileInBrowser(server: server)
        let client = Self.client(on: killed.storage, server: server)
        let report = try await client.start()
        let resumable = try #require(report.resumableRegistrations.first)
        #expect(report.resumableRegistrations.count == 1)
        #expect(resumable.identityProvider == ReferenceIdentityService.browserProvider)

        let redirect = try server.logIn(at: killed.browserURL)
        #expect(client.handleRedirect(redirect))
        let responder = ScriptedResponder([.createPin(.respond("24680"))])
        let result = try await client.registerUser(.resume, responder: responder)
        try responder.verify()
        #expect(result.profile == resumable.profile)
        #expect(client.userProfiles == [result.profile])
        #expect(server.enrolledProfiles == [result.profile])
        #expect(try killed.storage.data(forKey: Self.checkpointKey) == nil, "a finished registration deletes its checkpoint")

        let login = ScriptedResponder([.pin(.respond("24680"))])
        _ = try await client.authenticateUser(result.profile, responder: login)
        #expect(client.authenticatedUserProfile == result.profile)
    }

    @Test("a stateless registration is checkpointed too: a new process resumes it, with no PIN and no stored profile")
    func statelessResumeAfterKill() async throws {
        let server = ReferenceIdentityService()
        let killed = try await Self.killedWhileInBrowser(server: server, stateless: true)
        let client = Self.client(on: killed.storage, server: server)
        let report = try await client.start()
        let resumable = try #require(report.resumableRegistrations.first)
        #expect(client.handleRedirect(try server.logIn(at: killed.browserURL)))
        let responder = ScriptedResponder([])
        let result = try await client.registerUser(.resume, responder: responder)
        try responder.verify()
        #expect(result.profile == resumable.profile)
        #expect(result.profile.isStateless)
        #expect(client.authenticatedUserProfile == result.profile)
        #expect(client.userProfiles.isEmpty)
        #expect(server.enrolledProfiles.isEmpty)
        #expect(try killed.storage.keys().isEmpty, "nothing of a stateless registration stays in the storage")
    }

    @Test("resumed before the redirect arrives, the flow asks for the browser again and handleRedirect answers it")
    func resumeThenRedirect() async throws {
        let server = ReferenceIdentityService()
        let killed = try await Self.killedWhileInBrowser(server: server)
        let client = Self.client(on: killed.storage, server: server)
        try await client.start()
        let browserURLs = Locked<[URL]>([])
        let result = try await client.registerUser(.resume) { challenge in
            switch challenge {
            case .browserRegistration(let browser):
                browserURLs.withLock { $0.append(browser.url) }
                let redirect = try! server.logIn(at: browser.url)
                #expect(client.handleRedirect(redirect), "the waiting flow takes the redirect")
                #expect(!client.handleRedirect(redirect), "the same redirect a second time belongs to no flow")
            default: await Self.createPin(challenge)
            }
        }
        #expect(browserURLs.current == [killed.browserURL])
        #expect(client.userProfiles == [result.profile])
    }

    @Test("the delegate API resumes with the same callbacks as an uninterrupted registration")
    func resumeThroughDelegate() async throws {
        let server = ReferenceIdentityService()
        let killed = try await Self.killedWhileInBrowser(server: server)
        let client = Self.client(on: killed.storage, server: server)
        try await client.start()
        #expect(client.handleRedirect(try server.logIn(at: killed.browserURL)))
        let responder = ScriptedResponder([.createPin(.respond("24680"))])
        client.registerUser(.resume, delegate: responder)
        guard case .registered(let result) = await responder.outcome() else { Issue.record("not registered: \(responder.events)"); return }
        try responder.verify()
        #expect(responder.events.first == "didStartRegistrationOf")
        #expect(responder.events.last == "result registered(\(result.profile))")
    }

    @Test("a second resume, or one with nothing checkpointed, fails with registrationCheckpointNotFound")
    func secondResume() async throws {
        let server = ReferenceIdentityService()
        let killed = try await Self.killedWhileInBrowser(server: server)
        let client = Self.client(on: killed.storage, server: server)
        try await client.start()
        let redirect = try server.logIn(at: killed.browserURL)
        #expect(client.handleRedirect(redirect))
        _ = try await client.registerUser(.resume, answering: Self.createPin)
        #expect(!client.handleRedirect(redirect), "a replayed redirect belongs to no flow")
        await #expect(throws: IdentityFlowError(.registrationCheckpointNotFound)) {
            _ = try await client.registerUser(.resume, answering: Self.createPin)
        }
        #expect(client.userProfiles.count == 1)
    }

    @Test("an expired checkpoint fails with registrationCheckpointExpired and leaves nothing behind")
    func expired() async throws {
        let server = ReferenceIdentityService()
        let date = ManualDate()
        let killed = try await Self.killedWhileInBrowser(server: server, now: date.now)
        let client = Self.client(on: killed.storage, server: server, now: date.now)
        let report = try await client.start()
        #expect(report.resumableRegistrations.count == 1)
        date.advance(by: 601)
        #expect(client.handleRedirect(try server.logIn(at: killed.browserURL)))
        await #expect(throws: IdentityFlowError(.registrationCheckpointExpired)) {
            _ = try await client.registerUser(.resume, answering: Self.createPin)
        }
        #expect(try killed.storage.keys().isEmpty)
        #expect(server.activeAccessTokenCount == 0)
        #expect(client.userProfiles.isEmpty)
    }

    @Test("URLs of no flow return false and change nothing: another state, no state, another app link")
    func foreignURLs() async throws {
        let server = ReferenceIdentityService()
        let killed = try await Self.killedWhileInBrowser(server: server)
        let client = Self.client(on: killed.storage, server: server)
        try await client.start()
        for url in [
            "identityflow-test://callback?code=C&state=someone-else", "identityflow-test://callback?code=C",
            "https://example.com/article/42", "identityflow-test://callback?code=C&state=%E2%84%AA1",
        ] {
            #expect(!client.handleRedirect(URL(string: url)!), "\(url)")
        }
        #expect(try killed.storage.data(forKey: Self.checkpointKey) != nil)
        let redirect = try server.logIn(at: killed.browserURL)
        #expect(client.handleRedirect(redirect))
        _ = try await client.registerUser(.resume, answering: Self.createPin)
    }

    @Test("a new registration supersedes the checkpoint and cleans it up")
    func supersededByNewRegistration() async throws {
        let server = ReferenceIdentityService()
        let killed = try await Self.killedWhileInBrowser(server: server)
        let client = Self.client(on: killed.storage, server: server)
        try await client.start()
        let oldRedirect = try server.logIn(at: killed.browserURL)
        let custom = server.addCustomProvider(id: "custom", steps: .oneStep) { _, _ in .status(2000, data: "ok") }
        _ = try await client.registerUser(.provider(custom)) { challenge in
            switch challenge {
            case .customRegistration(let step): step.sender.respond(with: "data", to: step)
            default: await Self.createPin(challenge)
            }
        }
        #expect(try killed.storage.data(forKey: Self.checkpointKey) == nil)
        #expect(!client.handleRedirect(oldRedirect))
        await #expect(throws: IdentityFlowError(.registrationCheckpointNotFound)) {
            _ = try await client.registerUser(.resume, answering: Self.createPin)
        }
    }

    @Test("a cancel after resume ends with actionCancelled and deletes the checkpoint")
    func cancelAfterResume() async throws {
        let server = ReferenceIdentityService()
        let killed = try await Self.killedWhileInBrowser(server: server)
        let client = Self.client(on: killed.storage, server: server)
        try await client.start()
        await #expect(throws: IdentityFlowError(.actionCancelled)) {
            _ = try await client.registerUser(.resume) { challenge in
                if case .browserRegistration = challenge { client.cancelCurrentFlow() }
            }
        }
        #expect(try killed.storage.keys().isEmpty)
        #expect(server.activeAccessTokenCount == 0)
    }

    @Test("the checkpoint's secrets never reach logs or descriptions; it records what resuming needs")
    func checkpointContents() async throws {
        let server = ReferenceIdentityService()
        let killed = try await Self.killedWhileInBrowser(server: server)
        let data = try #require(try killed.storage.data(forKey: Self.checkpointKey))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["version"] as? Int == 1)
        #expect(json["kind"] as? String == "registration.browser")
        for field in ["profileId", "providerIdentifier", "redirectURI", "scopes", "state", "nonce", "codeVerifier", "createdAt", "expiresAt"] {
            #expect(json[field] != nil, "\(field)")
        }
        let secrets = [json["state"], json["nonce"], json["codeVerifier"]].compactMap { $0 as? String }
        let logs = LogCapture()
        let client = Self.client(on: killed.storage, server: server, logs: logs)
        let transitions = TransitionCollector(log: client.transitionLog)
        let report = try await client.start()
        #expect(client.handleRedirect(try server.logIn(at: killed.browserURL)))
        _ = try await client.registerUser(.resume, answering: Self.createPin)
        var dumped = ""
        dump(report, to: &dumped)
        let texts = [String(describing: report), dumped] + logs.messages + transitions.all.map(\.description)
        for text in texts {
            for secret in secrets { #expect(!text.contains(secret)) }
        }
    }

    @Test("an unreadable checkpoint is removed and nothing is resumable")
    func unreadableCheckpoint() async throws {
        let storage = InMemoryStorage()
        try storage.setData(Data("{\"version\":99}".utf8), forKey: Self.checkpointKey)
        let client = Self.client(on: storage, server: ReferenceIdentityService())
        let report = try await client.start()
        #expect(report.resumableRegistrations.isEmpty)
        #expect(try storage.data(forKey: Self.checkpointKey) == nil)
    }
}
