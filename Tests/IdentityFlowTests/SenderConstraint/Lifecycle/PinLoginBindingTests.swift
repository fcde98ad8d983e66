import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Statechart
import Testing
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// Server placement: a PIN or biometric login's tokens come from the extension API, which now
/// carries a DPoP proof by the profile's key, so they are bound from the login on, not only from
/// the next refresh.
@Suite("DPoP binding of server-side PIN and biometric logins")
struct PinLoginBindingTests {
    /// The reference server requires DPoP: the login's access token is bound to the profile's
    /// key, and a copy of it presented without the key is refused by the resource server.
    @Test("server mode: a PIN or biometric login's access token is bound to the profile's key; a bearer copy is refused", arguments: [false, true])
    func loginBindsTokens(biometric: Bool) async throws {
        let setup = try await DPoPLifecycleTests.Setup(.server)
        let profile = try await setup.register()
        let key = try #require(setup.client.sessions.dpopKey(for: profile))
        if biometric {
            try await setup.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        }
        try await setup.client.logout()
        let steps: [ScriptStep] = biometric ? [.biometric(.respond(.confirmed))] : [.pin(.respond("24680"))]
        let responder = ScriptedResponder(steps)
        _ = try await setup.client.authenticateUser(profile, authenticator: biometric ? .biometric : .pin, responder: responder)
        try responder.verify()
        #expect(setup.server.calls.contains(biometric ? .verifyBiometricProof : .verifyPinProof))
        #expect(!setup.server.calls.contains(.refresh), "bound by the login itself, not by a refresh")
        let tokens = try setup.client.sessionTokens()
        #expect(tokens.tokenType == "DPoP")
        #expect(setup.server.dpopKeyThumbprint(ofAccessToken: tokens.accessToken.value) == key.thumbprint)
        var stolen = DPoPLifecycleTests.api
        stolen.setValue("Bearer \(tokens.accessToken.value)", forHTTPHeaderField: "Authorization")
        let (_, refused) = try await setup.resource.send(stolen)
        #expect(refused.statusCode == 401)
        let (_, response) = try await setup.client.authenticatedRequest(DPoPLifecycleTests.api)
        #expect(response.statusCode == 200)
    }

    /// A PIN proof v1 profile (the stored v1 fixture) with a DPoP key: its v1 login carries the
    /// key's proof too, so its tokens are bound and the upgrade's enrolment (`pin/enrol`, which
    /// carries the login's access token) proves them; the reference server requires DPoP, so an
    /// unproven v1 login or enrolment would be refused.
    @Test(
        "server mode: a PIN proof v1 login (PIN or biometric) is bound to the profile's key; the PIN login's upgrade proves the bound token",
        arguments: [false, true])
    func legacyLoginBindsTokens(biometric: Bool) async throws {
        let (client, server, directory) = try await PinMigrationTests.v1Client()
        defer { try? FileManager.default.removeItem(at: directory) }
        server.senderConstraint = .fapi2
        let profile = PinMigrationTests.profile
        let key = DPoPTestSupport.knownKey
        try client.sessions.store.saveDPoPKey(key.storedForm, for: profile)
        let steps: [ScriptStep] = biometric ? [.biometric(.respond(.confirmed))] : [.pin(.respond("24680"))]
        _ = try await client.authenticateUser(profile, authenticator: biometric ? .biometric : .pin, responder: ScriptedResponder(steps))
        let tokens = try client.sessionTokens()
        #expect(tokens.tokenType == "DPoP")
        #expect(server.dpopKeyThumbprint(ofAccessToken: tokens.accessToken.value) == key.thumbprint)
        #expect(server.pinProofVersion(of: profile) == (biometric ? 1 : 2), "a PIN login upgrades the profile; its enrolment went through with a proof")
    }

    @Test("the reference server requiring DPoP refuses a PIN login without a proof")
    func keylessLoginRefused() async throws {
        let setup = try await DPoPLifecycleTests.Setup(.server)
        let profile = try await setup.register()
        try await setup.client.logout()
        let challenge = try await setup.server.pinLoginChallenge(for: profile)
        await #expect(throws: IdentityFlowError.self) {
            _ = try await setup.server.verifyPinProof(Redacted([UInt8](repeating: 1, count: 64)), for: profile, nonce: challenge.nonce, proofKey: nil)
        }
    }

    /// Over HTTP: the extension API's PIN login carries a `DPoP` proof for its method and URL
    /// when a key is given (and the `DPoP` answer is accepted), and none without one.
    @Test("HTTP: pin/verify carries a DPoP proof for its URL with a key, none without; a Bearer answer to a proof is 11081")
    func httpPinVerifyProof() async throws {
        let server = try LoopbackHTTPServer(maxRequests: 8) { request in
            // Profile "B" stands for a server that cannot bind: it answers Bearer to a proof.
            let cannotBind = String(decoding: request.body, as: UTF8.self).contains(#""B""#)
            let type = request.headers["dpop"] == nil || cannotBind ? "Bearer" : "DPoP"
            let body = #"{"access_token": "access-1", "refresh_token": "refresh-1", "token_type": "\#(type)", "expires_in": 300}"#
            guard request.path == "/identityflow/pin/verify" else { return .json(404, #"{"error": "unknown_profile", "error_description": "x"}"#) }
            return .response(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        defer { server.stop() }
        let service = try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(
                issuer: server.baseURL.appendingPathComponent("o"), clientID: "c", redirectURI: URL(string: "identityflow://callback")!))
        let key = DPoPTestSupport.knownKey
        let profile = UserProfile(profileId: "P1")
        let proof = Redacted([UInt8](repeating: 7, count: 64))
        guard case .accepted(let bound) = try await service.verifyPinProof(proof, for: profile, nonce: [1], proofKey: key) else {
            Issue.record("the PIN login was not accepted")
            return
        }
        #expect(bound.tokenType == "DPoP")
        let first = try #require(server.requests.first)
        let token = try #require(try DPoPTestSupport.proof(of: first, key: key), "the PIN login proves with the key")
        #expect(token.claims["htm"]?.stringValue == "POST")
        #expect(token.claims["htu"]?.stringValue == server.baseURL.appendingPathComponent("identityflow/pin/verify").absoluteString)
        guard case .accepted(let bearer) = try await service.verifyPinProof(proof, for: profile, nonce: [1], proofKey: nil) else {
            Issue.record("the PIN login was not accepted")
            return
        }
        #expect(bearer.tokenType == "Bearer")
        #expect(server.requests[1].headers["dpop"] == nil, "no key, no proof")
        let refused = await HTTPTestSupport.expectError(.tokenNotSenderConstrained) { () throws(IdentityFlowError) in
            _ = try await service.verifyPinProof(proof, for: UserProfile(profileId: "B"), nonce: [1], proofKey: key)
        }
        #expect(refused != nil)
    }
}
