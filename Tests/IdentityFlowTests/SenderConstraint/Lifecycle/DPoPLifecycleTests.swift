import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Statechart
import Testing
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// A profile's DPoP key from its registration to its removal, in both placements, against the
/// reference server with DPoP required and every authorization request pushed (the FAPI 2.0 set).
@Suite("DPoP key lifecycle")
struct DPoPLifecycleTests {
    enum Placement: String, CaseIterable, Sendable {
        case server, device
    }

    static let api = URLRequest(url: URL(string: "https://api.example/me")!)
    static let dpopPrefix = "identityflow.dpop."

    struct Setup {
        let date: ManualDate
        let server: ReferenceIdentityService
        let storage: InMemoryStorage
        let client: UserClient
        let resource: ReferenceResourceServer
        let placement: Placement

        init(
            _ placement: Placement, policy: LaunchPolicy = .requireAuthentication, requiresNonce: Bool = false, date: ManualDate = ManualDate(),
            server: ReferenceIdentityService? = nil, storage: InMemoryStorage = InMemoryStorage()
        ) async throws {
            self.date = date
            self.placement = placement
            let server = server ?? ReferenceIdentityService(accessTokenLifetime: 60, now: date.now)
            server.senderConstraint = .fapi2
            self.server = server
            self.storage = storage
            resource = ReferenceResourceServer(trusting: server, requiresNonce: requiresNonce)
            var configuration = ClientConfiguration.testing(now: date.now)
            if placement == .device { configuration.authenticators = .device() }
            configuration.launchPolicy = policy
            configuration.checkpointLifetime = .seconds(600)
            client = UserClient(configuration: configuration, service: server, storage: storage, transport: resource)
            try await client.start()
        }

        /// The same storage and server in a new client: the app launched again.
        func relaunched() async throws -> Setup {
            try await Setup(placement, date: date, server: server, storage: storage)
        }

        func register(pin: String = "24680") async throws -> UserProfile {
            try await client.registerUser(
                .provider(ReferenceIdentityService.browserProvider),
                responder: ScriptedResponder([.browserRegistration(.respondWith { [server] in try server.logIn(at: $0.url) }), .createPin(.respond(pin))])
            ).profile
        }

        func logIn(_ profile: UserProfile, pin: String = "24680") async throws {
            let responder = ScriptedResponder([.pin(.respond(pin))])
            _ = try await client.authenticateUser(profile, responder: responder)
            try responder.verify()
        }

        /// The thumbprint the session's access token is bound to at the server.
        var sessionBinding: String? { (try? client.sessionTokens()).flatMap { server.dpopKeyThumbprint(ofAccessToken: $0.accessToken.value) } }

        /// Every byte the storage holds.
        var storedBytes: [UInt8] { ((try? storage.keys()) ?? []).flatMap { key in ((try? storage.data(forKey: key)) ?? nil).map(Array.init) ?? [] } }

        var dpopItems: [String] { ((try? storage.keys()) ?? []).filter { $0.hasPrefix(DPoPLifecycleTests.dpopPrefix) } }
    }

    /// Whether `bytes` hold `scalar` in any form a writer would use: raw, base64 (also with `JSONEncoder`'s escaped `/`), base64url, hex, an array of numbers.
    static func holds(_ bytes: [UInt8], _ scalar: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        let forms = [
            Data(scalar).base64EncodedString(), Data(scalar).base64EncodedString().replacingOccurrences(of: "/", with: #"\/"#), Base64URL.encode(scalar),
            scalar.map { String(format: "%02x", $0) }.joined(),
            scalar.map(String.init).joined(separator: ","),
        ]
        if forms.contains(where: { text.contains($0) }) { return true }
        return bytes.count >= scalar.count && (0...(bytes.count - scalar.count)).contains { Array(bytes[$0..<($0 + scalar.count)]) == scalar }
    }

    @Test("registration with PAR and DPoP binds the tokens to the profile's key, kept where its placement says", arguments: Placement.allCases)
    func registration(placement: Placement) async throws {
        let setup = try await Setup(placement)
        let profile = try await setup.register()
        let key = try #require(setup.client.sessions.dpopKey(for: profile))
        #expect(setup.sessionBinding == key.thumbprint)
        #expect(try setup.client.sessionTokens().isSenderConstrained)
        #expect(setup.server.pendingPushedRequestCount == 0, "the browser used the pushed request")
        switch placement {
        case .server: #expect(setup.dpopItems == [Self.dpopPrefix + profile.profileId])
        case .device:
            #expect(setup.dpopItems.isEmpty)
            #expect(setup.client.sessions.withState { $0.profiles[profile]?.vault?.sealedDPoPKey } != nil)
        }
        let (_, response) = try await setup.client.authenticatedRequest(Self.api)
        #expect(response.statusCode == 200)
    }

    @Test(
        "device mode: a copy of the storage holds the DPoP key's private scalar in no form", arguments: [LaunchPolicy.requireAuthentication, .resumeLastUser])
    func deviceStorageHoldsNoClearKey(policy: LaunchPolicy) async throws {
        let setup = try await Setup(.device, policy: policy)
        let profile = try await setup.register()
        guard case .software(let scalar) = try #require(setup.client.sessions.dpopKey(for: profile)).storedForm else {
            Issue.record("Linux keys are software keys")
            return
        }
        #expect(!Self.holds(setup.storedBytes, scalar.value))
        try await setup.client.logout()
        try await setup.logIn(profile)
        _ = try await setup.client.changePin(responder: ScriptedResponder([.pin(.respond("24680")), .createPin(.respond("80426"))]))
        #expect(!Self.holds(setup.storedBytes, scalar.value))
        #expect(Self.holds(Array(try JSONEncoder().encode(StoredDPoPKey.software(privateKey: scalar))), scalar.value), "the search finds the stored form")
    }

    @Test("after a PIN login the refresh proves with the same key and keeps the binding; the API answers", arguments: Placement.allCases)
    func pinLoginAndRefresh(placement: Placement) async throws {
        let setup = try await Setup(placement)
        let profile = try await setup.register()
        let thumbprint = try #require(setup.client.sessions.dpopKey(for: profile)).thumbprint
        try await setup.client.logout()
        try await setup.logIn(profile)
        setup.date.advance(by: 120)
        let (_, response) = try await setup.client.authenticatedRequest(Self.api)
        #expect(response.statusCode == 200)
        #expect(setup.server.calls.contains(.refresh))
        #expect(setup.sessionBinding == thumbprint)
        let refresh = try #require(try setup.client.sessionTokens().refreshToken)
        #expect(setup.server.dpopKeyThumbprint(ofRefreshToken: refresh.value) == thumbprint)
    }

    @Test("a resource server that asks for a nonce gets one retry; the nonce is remembered for its origin", arguments: Placement.allCases)
    func nonceRetry(placement: Placement) async throws {
        let setup = try await Setup(placement, requiresNonce: true)
        _ = try await setup.register()
        #expect(try await setup.client.authenticatedRequest(Self.api).1.statusCode == 200)
        #expect(setup.resource.nonceRequestCount == 1)
        #expect(try await setup.client.authenticatedRequest(Self.api).1.statusCode == 200)
        #expect(setup.resource.nonceRequestCount == 1, "the second request carried the remembered nonce")
        setup.resource.rotateNonce()
        #expect(try await setup.client.authenticatedRequest(Self.api).1.statusCode == 200)
        #expect(setup.resource.nonceRequestCount == 2)
    }

    /// An API that asks for a new nonce at every request, however many it gave.
    struct NonceHungryAPI: ResourceTransport {
        func send(_ request: URLRequest) async throws(IdentityFlowError) -> (Data, HTTPURLResponse) {
            let headers = ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "n-\(UUID().uuidString)"]
            guard let response = HTTPURLResponse(url: request.url!, statusCode: 401, httpVersion: "HTTP/1.1", headerFields: headers) else {
                throw IdentityFlowError(.unknown)
            }
            return (Data(), response)
        }
    }

    @Test("a resource server that asks for a nonce again after the retry fails the request with 11083")
    func secondNonceRequest() async throws {
        let date = ManualDate()
        let server = ReferenceIdentityService(accessTokenLifetime: 60, now: date.now)
        server.senderConstraint = .fapi2
        let client = UserClient(configuration: .testing(now: date.now), service: server, storage: InMemoryStorage(), transport: NonceHungryAPI())
        try await client.start()
        _ = try await client.registerUser(
            .provider(ReferenceIdentityService.browserProvider),
            responder: ScriptedResponder([.browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680"))]))
        let error = await #expect(throws: IdentityFlowError.self) { try await client.authenticatedRequest(Self.api) }
        #expect(error?.code == .dpopProofRefused)
    }

    @Test("server mode: logout revokes the bound tokens with a proof (the server refuses a revocation without one)")
    func logoutRevokesWithProof() async throws {
        let setup = try await Setup(.server)
        _ = try await setup.register()
        try await setup.client.logout()
        #expect(setup.server.calls.contains(.revoke))
        #expect(setup.server.activeAccessTokenCount == 0)
        #expect(setup.server.activeRefreshTokenCount == 0)
    }

    @Test("server mode: the next launch revokes a session left behind (the app killed) with the profile's key from its item")
    func leftSessionRevokedWithProof() async throws {
        let setup = try await Setup(.server)
        let profile = try await setup.register()
        #expect(setup.server.activeRefreshTokenCount == 1)
        let again = try await setup.relaunched()
        #expect(setup.server.activeRefreshTokenCount == 0, "the bound tokens were revoked, which needs their key's proof")
        #expect(again.dpopItems == [Self.dpopPrefix + profile.profileId], "the key stays with the profile")
        try await again.logIn(profile)
        again.date.advance(by: 120)
        #expect(try await again.client.authenticatedRequest(Self.api).1.statusCode == 200)
    }

    @Test("userinfo proves with the key", arguments: Placement.allCases)
    func userInfo(placement: Placement) async throws {
        let setup = try await Setup(placement)
        _ = try await setup.register()
        #expect(try await setup.client.userInfo().subject == "alice")
    }

    @Test("deregistration revokes with a proof and deletes the key", arguments: Placement.allCases)
    func deregistration(placement: Placement) async throws {
        let setup = try await Setup(placement)
        let profile = try await setup.register()
        try await setup.client.deregister(profile)
        #expect(setup.dpopItems.isEmpty)
        #expect(setup.client.sessions.dpopKey(for: profile) == nil)
        #expect(setup.server.activeRefreshTokenCount == 0)
        #expect(try setup.storage.keys().isEmpty)
    }

    @Test("a cancelled or failed registration leaves no key behind", arguments: Placement.allCases)
    func failedRegistration(placement: Placement) async throws {
        let setup = try await Setup(placement)
        await #expect(throws: IdentityFlowError.self) {
            try await setup.client.registerUser(
                .provider(ReferenceIdentityService.browserProvider),
                responder: ScriptedResponder([
                    .browserRegistration(.respondWith { [server = setup.server] in try server.logIn(at: $0.url) }), .createPin(.cancel),
                ]))
        }
        setup.server.inject(.networkError, into: .exchangeCode)
        await #expect(throws: IdentityFlowError.self) {
            try await setup.client.registerUser(
                .provider(ReferenceIdentityService.browserProvider),
                responder: ScriptedResponder([.browserRegistration(.respondWith { [server = setup.server] in try server.logIn(at: $0.url) })]))
        }
        #expect(try setup.storage.keys().isEmpty)
        #expect(setup.client.sessions.withState { $0.dpopKeys.isEmpty })
        #expect(setup.server.activeRefreshTokenCount == 0)
    }

    @Test("server mode: a registration resumed in a new process exchanges its code with the same key")
    func resumedRegistration() async throws {
        let setup = try await Setup(.server)
        let (copy, url) = try await Self.killedInBrowser(setup)
        let resumed = try await Setup(.server, date: setup.date, server: setup.server, storage: copy)
        #expect(resumed.client.handleRedirect(try setup.server.logIn(at: url)))
        let result = try await resumed.client.registerUser(.resume, responder: ScriptedResponder([.createPin(.respond("24680"))]))
        let key = try #require(resumed.client.sessions.dpopKey(for: result.profile))
        #expect(resumed.sessionBinding == key.thumbprint)
        #expect(try await resumed.client.authenticatedRequest(Self.api).1.statusCode == 200)
    }

    @Test("device mode: the checkpoint keeps no software key, so a redirect handed to a new process cannot be exchanged: 11010, leaving nothing")
    func deviceResumeNeedsTheProcess() async throws {
        let setup = try await Setup(.device)
        let (copy, url) = try await Self.killedInBrowser(setup)
        let checkpoint = try #require(try copy.data(forKey: "identityflow.checkpoint.registration"))
        #expect(String(decoding: checkpoint, as: UTF8.self).contains("dpopKeyThumbprint"))
        #expect(!String(decoding: checkpoint, as: UTF8.self).contains("software"))
        let resumed = try await Setup(.device, date: setup.date, server: setup.server, storage: copy)
        #expect(resumed.client.handleRedirect(try setup.server.logIn(at: url)))
        let error = await #expect(throws: IdentityFlowError.self) {
            try await resumed.client.registerUser(.resume, responder: ScriptedResponder([.createPin(.respond("24680"))]))
        }
        #expect(error?.code == .registrationCheckpointExpired)
        #expect(try copy.keys().isEmpty)
    }

    @Test(
        "a resume that asks for the browser again pushes the request anew (the old request_uri is spent) and, in device mode, creates its key anew",
        arguments: Placement.allCases)
    func resumeAsksForTheBrowserAgain(placement: Placement) async throws {
        let setup = try await Setup(placement)
        let (copy, killedURL) = try await Self.killedInBrowser(setup)
        let checkpoint = try #require(try copy.data(forKey: "identityflow.checkpoint.registration"))
        let kept = try #require(RegistrationCheckpoint(jsonData: checkpoint))
        _ = try setup.server.logIn(at: killedURL)  // the browser opened the pushed request before the app was killed
        let resumed = try await Setup(placement, date: setup.date, server: setup.server, storage: copy)
        let browserURLs = Locked<[URL]>([])
        let result = try await resumed.client.registerUser(.resume) { [server = setup.server, client = resumed.client] challenge in
            switch challenge {
            case .browserRegistration(let browser):
                browserURLs.withLock { $0.append(browser.url) }
                #expect(client.handleRedirect(try! server.logIn(at: browser.url)))
            case .createPin(let create): create.sender.respond(with: "24680", to: create)
            default: challenge.cancel()
            }
        }
        #expect(browserURLs.current.count == 1)
        #expect(browserURLs.current.first != killedURL, "a new request_uri")
        let key = try #require(resumed.client.sessions.dpopKey(for: result.profile))
        #expect(resumed.sessionBinding == key.thumbprint)
        switch placement {
        case .server: #expect(key.thumbprint == kept.dpopKeyThumbprint, "the checkpoint's key, used again")
        case .device: #expect(key.thumbprint != kept.dpopKeyThumbprint, "a new key: the first lived in the killed process only")
        }
        #expect(try await resumed.client.authenticatedRequest(Self.api).1.statusCode == 200)
    }

    @Test("device mode: every vault rotation keeps the same key, and the rotated vault's key keeps working")
    func rotationKeepsTheKey() async throws {
        let setup = try await Setup(.device, policy: .resumeLastUser)
        let profile = try await setup.register()
        let thumbprint = try #require(setup.client.sessions.dpopKey(for: profile)).thumbprint
        _ = try await setup.client.changePin(responder: ScriptedResponder([.pin(.respond("24680")), .createPin(.respond("80426"))]))
        #expect(setup.client.sessions.dpopKey(for: profile)?.thumbprint == thumbprint)
        // The end of a resumable session rotates without the PIN.
        try await setup.client.logout()
        try await setup.logIn(profile, pin: "80426")
        #expect(setup.client.sessions.dpopKey(for: profile)?.thumbprint == thumbprint)
        setup.date.advance(by: 120)
        #expect(try await setup.client.authenticatedRequest(Self.api).1.statusCode == 200)
        #expect(setup.sessionBinding == thumbprint)
        let again = try await setup.relaunched()
        try await again.logIn(profile, pin: "80426")
        #expect(again.client.sessions.dpopKey(for: profile)?.thumbprint == thumbprint)
    }

    @Test("a vault written before DPoP (no sealedDPoPKey) reads as whole, and one with its key box removed is damage")
    func vaultField() async throws {
        let setup = try await Setup(.device)
        let profile = try await setup.register()
        let stored = try #require(setup.client.sessions.withState { $0.profiles[profile] })
        var vault = try #require(stored.vault)
        #expect(vault.sealedDPoPKey != nil)
        let decoded = try JSONDecoder().decode(StoredProfile.self, from: try stored.jsonData())
        #expect(decoded.vault == vault)
        vault.sealedDPoPKey = nil
        #expect(vault.damage(deviceSecret: stored.deviceSecret, profile: profile, acceptedIterations: 1...10_000_000, maxPinFailures: 3) != nil)
    }

    /// Runs a browser registration up to its challenge and copies the storage there: the process killed in the browser.
    static func killedInBrowser(_ setup: Setup) async throws -> (InMemoryStorage, URL) {
        let copy = InMemoryStorage()
        let seen = Locked<URL?>(nil)
        let storage = setup.storage
        _ = try? await setup.client.registerUser(.provider(ReferenceIdentityService.browserProvider)) { challenge in
            guard case .browserRegistration(let browser) = challenge else { challenge.cancel(); return }
            for key in (try? storage.keys()) ?? [] {
                if let data = try? storage.data(forKey: key) { try? copy.setData(data, forKey: key) }
            }
            seen.withLock { $0 = browser.url }
            _ = browser.sender.cancel(browser)
        }
        return (copy, try #require(seen.current))
    }
}
