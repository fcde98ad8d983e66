import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Integrator) @testable import IdentityFlow
import Statechart

extension InteropSuite {
    /// Device-mode authenticators on every CI provider, in its stock configuration: the whole
    /// lifecycle with PIN and biometrics, and not one extension endpoint (the django-oauth-toolkit
    /// fixture serves them, and device mode still calls none).
    @Suite("Interop: device-mode authenticators on every provider", .enabled(if: !InteropProvider.all.isEmpty, "no provider issuer is set"))
    struct DeviceModeInteropTests {
        /// A device-mode client of `provider` on `storage`, started.
        static func client(_ provider: InteropProvider, storage: InMemoryStorage, policy: LaunchPolicy = .requireAuthentication, maxPinFailures: Int = 3)
            async throws -> (UserClient, LaunchReport)
        {
            var configuration = ClientConfiguration(redirectURI: InteropEnvironment.redirectURI, defaultScopes: ["openid", "profile", "email"])
            configuration.callbackExecutor = .immediate
            configuration.authenticators = .device(maxPinFailures: maxPinFailures)
            configuration.launchPolicy = policy
            configuration.logger = .disabled
            let client = UserClient(configuration: configuration, service: try provider.service(), storage: storage)
            return (client, try await client.start())
        }

        /// The provider's userinfo endpoint: the API the tests call with the session's token.
        static func api(_ provider: InteropProvider) async throws -> URLRequest {
            URLRequest(url: try #require(try await provider.service().providerMetadata().userinfoEndpoint))
        }

        static func pin(_ answers: [String]) -> ScriptedAnswers { ScriptedAnswers(answers) }

        /// Canaille issues one user the same access token within a second and answers a second
        /// issuance in that second with HTTP 500 (``HeadlessBrowser/waitForNextSecond()``): a refresh
        /// there waits for a fresh second. An artefact of a test refreshing several times a second.
        static func beforeRefresh(_ provider: InteropProvider) async throws {
            if provider.issuesOneTokenPerSecond { try await HeadlessBrowser.waitForNextSecond() }
        }

        @Test("register, API, logout, wrong PINs, login, change PIN, biometrics, relaunch both ways, deregister", arguments: InteropProvider.all)
        func lifecycle(_ provider: InteropProvider) async throws {
            let storage = InMemoryStorage()
            let api = try await Self.api(provider)
            var (client, _) = try await Self.client(provider, storage: storage)
            let profile = try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: InteropResponder()).profile
            #expect(try await client.authenticatedRequest(api).1.statusCode == 200)

            try await client.logout()
            try await client.authenticateUser(profile, responder: Self.pin(["11111", "73914"]))
            try await Self.beforeRefresh(provider)
            #expect(try await client.authenticatedRequest(api).1.statusCode == 200, "the next login refreshes the spent access token")

            _ = try await client.changePin(responder: ScriptedAnswers(["73914"], newPin: "80426"))
            try await client.logout()
            try await client.authenticateUser(profile, authenticator: .pin, responder: Self.pin(["80426"]))
            try await client.registerBiometricAuthenticator(for: profile, responder: Self.pin(["80426"]))
            try await client.logout()
            try await client.authenticateUser(profile, authenticator: .biometric, responder: ScriptedAnswers([], biometric: true))
            try await Self.beforeRefresh(provider)
            #expect(try await client.authenticatedRequest(api).1.statusCode == 200)

            // Launched again: nobody until the PIN.
            var report: LaunchReport
            (client, report) = try await Self.client(provider, storage: storage)
            #expect(report.resumedProfile == nil && client.authenticatedUserProfile == nil)
            try await client.authenticateUser(profile, authenticator: .pin, responder: Self.pin(["80426"]))

            // Launched again with resumeLastUser: the session is back while the provider refreshes it.
            (client, _) = try await Self.client(provider, storage: storage, policy: .resumeLastUser)
            try await client.authenticateUser(profile, authenticator: .pin, responder: Self.pin(["80426"]))
            try await Self.beforeRefresh(provider)  // the resume refreshes
            (client, report) = try await Self.client(provider, storage: storage, policy: .resumeLastUser)
            #expect(report.resumedProfile == profile)
            #expect(try await client.authenticatedRequest(api).1.statusCode == 200)

            do {
                try await client.deregister(profile)
                #expect(provider.revocation == .offered, "deregistration revoked the tokens at the provider")
            } catch {
                #expect(provider.revocation != .offered && error.code == .localDeregistration, "\(error)")
            }
            #expect(try storage.keys().isEmpty)
        }

        @Test("wrong PINs to the lockout: the profile is removed with 9003 (registered naming no provider)", arguments: InteropProvider.all)
        func lockout(_ provider: InteropProvider) async throws {
            let storage = InMemoryStorage()
            let (client, _) = try await Self.client(provider, storage: storage, maxPinFailures: 2)
            let profile = try await client.registerUser(responder: InteropResponder()).profile
            try await client.logout()
            do {
                try await client.authenticateUser(profile, responder: Self.pin(["11111", "22222"]))
                Issue.record("two wrong PINs logged in")
            } catch {
                #expect(error.code == .userDeregistered)
            }
            #expect(client.userProfiles.isEmpty)
            #expect(try storage.keys().isEmpty)
        }

        @Test("the provider revoking the session: the next refresh is refused and the user is logged out, never a hang", arguments: InteropProvider.all)
        func providerRevokes(_ provider: InteropProvider) async throws {
            guard provider.revocation == .offered else { return }
            let (client, _) = try await Self.client(provider, storage: InMemoryStorage())
            let profile = try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: InteropResponder()).profile
            let events = client.sessionEvents()
            // Behind the app's back: the provider revokes the refresh token (RFC 7009), the access token expires.
            let tokens = try client.sessionTokens()
            try await provider.service().revoke(TokenSet(accessToken: tokens.accessToken.value, refreshToken: tokens.refreshToken?.value))
            client.withState { $0.profiles[profile]?.tokens.expiresAt = .distantPast }
            await #expect(throws: IdentityFlowError.self) { _ = try await client.authenticatedRequest(try await Self.api(provider)) }
            var iterator = events.makeAsyncIterator()
            guard case .loggedOut(let loggedOut, _)? = await iterator.next() else {
                Issue.record("no loggedOut event")
                return
            }
            #expect(loggedOut == profile && client.authenticatedUserProfile == nil)
        }

        @Test(
            "launch, PIN login, deregister: the refresh token and the last access token are revoked (no empty token is sent), or 10003 where the provider does not revoke",
            arguments: InteropProvider.all)
        func deregisterAfterPinLogin(_ provider: InteropProvider) async throws {
            let storage = InMemoryStorage()
            let (first, _) = try await Self.client(provider, storage: storage)
            let profile = try await first.registerUser(.provider(InteropEnvironment.browserProvider), responder: InteropResponder()).profile
            let (client, _) = try await Self.client(provider, storage: storage)
            try await client.authenticateUser(profile, responder: Self.pin(["73914"]))
            do {
                try await client.deregister(profile)
                #expect(provider.revocation == .offered, "deregistration revoked the tokens at the provider")
            } catch {
                #expect(provider.revocation != .offered && error.code == .localDeregistration, "\(error)")
            }
            #expect(try storage.keys().isEmpty)
        }

        @Test(
            "a provider logout ends the sign-in: the next PIN login fails with 11042 before any API call and removes the profile",
            arguments: InteropProvider.all)
        func providerLogoutEndsSignIn(_ provider: InteropProvider) async throws {
            let storage = InMemoryStorage()
            let (client, _) = try await Self.client(provider, storage: storage)
            let profile = try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: InteropResponder()).profile
            // The responder does not open the logout page: the session and the sign-in end on the device all the same.
            await #expect(throws: IdentityFlowError.self) { try await client.providerLogout(responder: InteropResponder()) }
            do {
                try await client.authenticateUser(profile, responder: Self.pin(["73914"]))
                Issue.record("a PIN login after the provider logout opened a session")
            } catch {
                #expect(error.code == .signInEnded, "\(error)")
            }
            #expect(!client.userProfiles.contains(profile))
            #expect(try storage.keys().isEmpty)
        }

        @Test("a server-mode client of a provider without the extension API fails before the browser opens (11020)", arguments: InteropProvider.all)
        func serverModeRefusedEarly(_ provider: InteropProvider) async throws {
            guard !provider.servesExtensionAPI else { return }
            var configuration = ClientConfiguration(redirectURI: InteropEnvironment.redirectURI)
            configuration.callbackExecutor = .immediate
            configuration.logger = .disabled
            let client = UserClient(configuration: configuration, service: try provider.service(), storage: InMemoryStorage())
            try await client.start()
            let responder = InteropResponder()
            do {
                _ = try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: responder)
                Issue.record("a server-mode registration went through without the extension API")
            } catch {
                #expect(error.code == .featureNotSupported)
            }
            #expect(responder.seen.current.isEmpty, "no challenge before the refusal")
        }
    }
}

/// Answers PIN challenges from a list (then cancels), a new PIN with `newPin`, and biometric
/// challenges by confirming when `biometric`.
struct ScriptedAnswers: ChallengeResponder {
    private let remaining: Locked<[String]>
    let newPin: String?
    let biometric: Bool

    init(_ pins: [String], newPin: String? = nil, biometric: Bool = false) {
        remaining = Locked(pins)
        self.newPin = newPin
        self.biometric = biometric
    }

    func receive(_ challenge: Challenge) async {
        switch challenge {
        case .pin(let pin):
            guard let next = remaining.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
                challenge.cancel()
                return
            }
            pin.sender.respond(with: next, to: pin)
        case .createPin(let create) where newPin != nil:
            create.sender.respond(with: newPin ?? "", to: create)
        case .biometric(let prompt) where biometric:
            prompt.sender.respond(to: prompt)
        default:
            challenge.cancel()
        }
    }
}
