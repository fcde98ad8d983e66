import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

extension InteropSuite {
    @Suite("Interop: mobile authentication, implicit authentication and stateless registration against the fixture")
    struct MobileAuthInteropTests {
        /// The fixture's back office: sends a request (or makes a one-time code) and reads a decision.
        struct BackOffice {
            let base: URL

            init() throws {
                let issuer = try #require(InteropEnvironment.issuer)
                base = URL(string: issuer.absoluteString.replacingOccurrences(of: "/o", with: "/identityflow/testing/mobile-auth"))!
            }

            func send(to profile: UserProfile, message: String, type: MobileAuthType, expiresIn: Int = 300, otp: Bool = false) async throws -> (
                id: String, otp: String?, pushed: Bool
            ) {
                let body: [String: Any] = ["profile_id": profile.profileId, "message": message, "type": type.rawValue, "expires_in": expiresIn, "otp": otp]
                let json = try await call(base.appendingPathComponent("send"), body: body)
                return (try #require(json["id"] as? String), json["otp"] as? String, json["pushed"] as? Bool ?? false)
            }

            func decision(of id: String) async throws -> Bool? {
                try await call(base.appendingPathComponent("requests/\(id)"), body: nil)["decision"] as? Bool
            }

            private func call(_ url: URL, body: [String: Any]?) async throws -> [String: Any] {
                var request = URLRequest(url: url)
                if let body {
                    request.httpMethod = "POST"
                    request.httpBody = try JSONSerialization.data(withJSONObject: body)
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                }
                let session = URLSession(configuration: .ephemeral)
                defer { session.invalidateAndCancel() }
                let (data, _) = try await session.data(for: request)
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
        }

        /// A client with a registered, logged-in profile enrolled for push mobile authentication.
        private func enrolledClient() async throws -> (UserClient, UserProfile) {
            let service = try InteropEnvironment.service()
            let client = try await InteropEnvironment.client(service)
            let profile = try await client.registerUser(
                .provider(IdentityProvider(identifier: "custom-one", name: "C", kind: .custom(.oneStep))), responder: InteropResponder(customData: ["me"])
            ).profile
            try await client.enrollMobileAuthentication()
            try await client.enrollPushMobileAuthentication(deviceToken: Data([0xAB, 0xCD, 0xEF]))
            return (client, profile)
        }

        @Test("a pushed PIN request: confirm, a wrong PIN (counted), the right PIN; a replay finds it answered")
        func pushWithPin() async throws {
            let office = try BackOffice()
            let (client, profile) = try await enrolledClient()
            let sent = try await office.send(to: profile, message: "Log in to shop.example?", type: .pin)
            #expect(sent.pushed)
            let responder = ScriptedResponder([
                .mobileAuthConfirmation(
                    .respondWith { challenge in
                        #expect(challenge.request.message == "Log in to shop.example?")
                        return true
                    }),
                .pin(.respond("11223")),
                .pin(.respond("73914"), expecting: .invalidPin),
            ])
            let result = try await client.handleMobileAuthRequest(.push(MobileAuthPush(requestId: sent.id, userProfile: profile)), responder: responder)
            try responder.verify()
            #expect(result.accepted && result.authenticator == .pin)
            #expect(try await office.decision(of: sent.id) == true)
            await InteropEnvironment.expectError(.mobileAuthRequestNotFound) { () throws(IdentityFlowError) in
                _ = try await client.handleMobileAuthRequest(.push(MobileAuthPush(requestId: sent.id, userProfile: profile)), responder: ScriptedResponder([]))
            }
        }

        @Test("a denied request, a one-time code, and the pending list")
        func denyOtpAndPending() async throws {
            let office = try BackOffice()
            let (client, profile) = try await enrolledClient()
            let denied = try await office.send(to: profile, message: "Pay 500 EUR?", type: .biometric)
            let listed = try await client.pendingMobileAuthRequests(for: profile)
            #expect(listed.map(\.id) == [denied.id])
            let result = try await client.handleMobileAuthRequest(
                .request(try #require(listed.first)), responder: ScriptedResponder([.mobileAuthConfirmation(.respond(false))]))
            #expect(!result.accepted)
            #expect(try await office.decision(of: denied.id) == false)
            let coded = try await office.send(to: profile, message: "Log in at the desk?", type: .confirmation, otp: true)
            let otp = try #require(coded.otp)
            #expect(client.canHandleMobileAuthOTP(otp))
            let accepted = try await client.handleMobileAuthRequest(.otp(otp), responder: ScriptedResponder([.mobileAuthConfirmation(.respond(true))]))
            #expect(accepted.accepted && accepted.request.id == coded.id)
        }

        @Test("an expired request is refused by the server")
        func expired() async throws {
            let office = try BackOffice()
            let (client, profile) = try await enrolledClient()
            let sent = try await office.send(to: profile, message: "Too late", type: .confirmation, expiresIn: -5)
            await InteropEnvironment.expectError(.mobileAuthRequestExpired) { () throws(IdentityFlowError) in
                _ = try await client.handleMobileAuthRequest(.push(MobileAuthPush(requestId: sent.id, userProfile: profile)), responder: ScriptedResponder([]))
            }
        }

        @Test("wrong step-up PINs until lockout deregister the profile on both sides")
        func lockout() async throws {
            let office = try BackOffice()
            let (client, profile) = try await enrolledClient()
            let sent = try await office.send(to: profile, message: "Pay?", type: .pin)
            // As many wrong PINs as the server allows (its IDENTITYFLOW_PIN_MAX_FAILURES, 3 unless set).
            let challenges = Locked<[PinChallenge]>([])
            await InteropEnvironment.expectError(.userDeregistered) { () throws(IdentityFlowError) in
                _ = try await client.handleMobileAuthRequest(.push(MobileAuthPush(requestId: sent.id, userProfile: profile))) { challenge in
                    switch challenge {
                    case .mobileAuthConfirmation(let confirm): confirm.sender.respond(with: true, to: confirm)
                    case .pin(let pin):
                        let count = challenges.withLock {
                            $0.append(pin); return $0.count
                        }
                        pin.sender.respond(with: String(repeating: String(count), count: 5), to: pin)
                    default: challenge.cancel()
                    }
                }
            }
            let asked = challenges.current
            #expect(asked.count == asked.first?.maxFailureCount)
            #expect(asked.dropFirst().allSatisfy { $0.error?.code == .invalidPin })
            #expect(!client.userProfiles.contains(profile))
            #expect(try await !InteropEnvironment.service().profileExists(profile))
        }

        @Test("implicit tokens for implicit scopes only, and 9003 for a profile the server deregistered")
        func implicit() async throws {
            let service = try InteropEnvironment.service()
            let storage = InMemoryStorage()
            let client = try await InteropEnvironment.client(service, storage: storage)
            let profile = try await client.registerUser(
                .provider(IdentityProvider(identifier: "custom-one", name: "C", kind: .custom(.oneStep))), responder: InteropResponder(customData: ["me"])
            ).profile
            try await client.logout()
            let implicit = try await client.implicitlyAuthenticate(profile, scopes: ["read"])
            #expect(implicit.tokens.scopes == ["read"] && implicit.tokens.refreshToken == nil)
            #expect(client.authenticatedUserProfile == nil)
            await InteropEnvironment.expectError(.requestInvalid) { () throws(IdentityFlowError) in
                _ = try await client.implicitlyAuthenticate(profile, scopes: ["read", "openid"])
            }
            // Another copy of the device keeps the profile after this one deregistered it on the server.
            let copy = InMemoryStorage()
            for key in try storage.keys() { try copy.setData(try #require(try storage.data(forKey: key)), forKey: key) }
            let stale = try await InteropEnvironment.client(service, storage: copy)
            _ = try await client.authenticateUser(profile, responder: ScriptedPins(["73914"]))
            try await client.deregister(profile)
            let error = await InteropEnvironment.expectError(.userDeregistered) { () throws(IdentityFlowError) in
                _ = try await stale.implicitlyAuthenticate(profile, scopes: ["read"])
            }
            #expect(error?.userProfile == profile)
            #expect(!stale.userProfiles.contains(profile))
        }

        @Test("a stateless registration against the fixture: no PIN, nothing stored, an authenticated request, revoked at logout")
        func stateless() async throws {
            let service = try InteropEnvironment.service()
            let storage = InMemoryStorage()
            let client = try await InteropEnvironment.client(service, storage: storage)
            let responder = InteropResponder(customData: ["me"])
            let result = try await client.registerUser(
                .provider(IdentityProvider(identifier: "custom-one", name: "C", kind: .custom(.oneStep))).stateless(), responder: responder)
            #expect(result.profile.isStateless)
            #expect(!responder.seen.current.contains("createPin"))
            #expect(try storage.keys().isEmpty)
            #expect(try await !service.profileExists(result.profile), "a stateless registration enrolled a profile on the server")
            let issuer = try #require(InteropEnvironment.issuer)
            let userinfo = URL(string: issuer.absoluteString + "/userinfo/")!
            let (_, response) = try await client.authenticatedRequest(URLRequest(url: userinfo))
            #expect(response.statusCode == 200)
            try await client.logout()
            #expect(client.authenticatedUserProfile == nil)
        }
    }
}
