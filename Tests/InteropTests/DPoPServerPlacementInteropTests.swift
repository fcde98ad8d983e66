import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@_spi(Integrator) @testable import IdentityFlow
import Statechart

/// Issue 40 in the server placement (the default: the server verifies the PIN) against the same
/// provider as ``DPoPInteropTests``: idpyoidc with PAR and DPoP required, and the IdentityFlow
/// extension API served beside it by the fixture's add-on, which mints idpyoidc's own tokens at a
/// PIN or biometric login and checks DPoP proofs at every endpoint that takes a token or issues
/// one (`Tests/Fixtures/oidc-dpop/README.md`).
@Suite("Interop: DPoP and PAR in the server placement against idpyoidc", .serialized, DPoPFixture.enabled)
struct DPoPServerPlacementInteropTests {
    /// A server-placement client of a new service for the fixture (DPoP and PAR required, or
    /// `profile`) on `storage`, started, with alice registered through the browser (PIN 73914).
    static func registered(storage: InMemoryStorage, profile security: SecurityProfile = .standard) async throws -> (UserClient, UserProfile) {
        let client = try await DPoPFixture.client(try DPoPFixture.service(profile: security), storage: storage, placement: .server)
        let profile = try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: InteropResponder()).profile
        return (client, profile)
    }

    /// `POST /identityflow/pin/enrol` by hand with `authorization` (and `proof`, when given) for
    /// a made-up profile: what a thief holding a copied access token sends.
    static func enrolPin(authorization: String, proof: Redacted<String>?) async throws -> (status: Int, headers: [String: String]) {
        let issuer = try #require(DPoPFixture.issuer)
        var request = URLRequest(url: issuer.appendingPathComponent("identityflow/pin/enrol"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        if let proof { request.setValue(proof.value, forHTTPHeaderField: "DPoP") }
        let publicKey = try DeviceKey.random().publicKey
        let body: [String: Any] = [
            "profile_id": "thief-\(UUID().uuidString.prefix(8))", "salt": Base64URL.encode([UInt8](repeating: 7, count: 16)),
            "iterations": 1000, "public_key": Base64URL.encode(publicKey),
        ]
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let (_, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields { headers["\(name)".lowercased()] = "\(value)" }
        return (http.statusCode, headers)
    }

    @Test(
        "server placement: registration with PAR and DPoP, the PIN enrolled with a proof, API, logout, PIN login with the nonce round, biometric registration and login, PIN change, relaunch, refresh with the bound token, deregistration"
    )
    func lifecycle() async throws {
        let storage = InMemoryStorage()
        let service = try DPoPFixture.service()
        let client = try await DPoPFixture.client(service, storage: storage, placement: .server)
        let responder = InteropResponder()
        let profile = try await client.registerUser(.provider(InteropEnvironment.browserProvider), responder: responder).profile
        #expect(responder.seen.current == ["browser", "createPin"])
        #expect(try await service.profileExists(profile), "the PIN was enrolled at the extension API, with a DPoP proof")
        let registered = try client.sessionTokens()
        #expect(registered.isSenderConstrained)

        let api = URLRequest(url: try #require(DPoPFixture.resource))
        #expect(try await client.authenticatedRequest(api).1.statusCode == 200)

        try await client.logout()
        #expect(try await !DPoPFixture.isActive(try #require(registered.refreshToken)), "logout revoked the bound refresh token")

        // The extension API mints idpyoidc's tokens at the PIN login, bound to the profile's key
        // after a round for its nonce.
        try await client.authenticateUser(profile, responder: ScriptedAnswers(["11111", "73914"]))
        let loggedIn = try client.sessionTokens()
        #expect(loggedIn.isSenderConstrained && loggedIn.accessToken != registered.accessToken)
        #expect(try await client.authenticatedRequest(api).1.statusCode == 200)

        // A biometric key registered with the bound token's proof; its login is bound too.
        try await client.registerBiometricAuthenticator(for: profile, responder: ScriptedAnswers(["73914"], biometric: true))
        try await client.logout()
        try await client.authenticateUser(profile, authenticator: .biometric, responder: ScriptedAnswers([], biometric: true))
        let biometric = try client.sessionTokens()
        #expect(biometric.isSenderConstrained && biometric.accessToken != loggedIn.accessToken)
        #expect(try await client.authenticatedRequest(api).1.statusCode == 200)

        // A PIN change re-enrols at the extension API with the bound token and the old key's proof.
        _ = try await client.changePin(responder: ScriptedAnswers(["73914"], newPin: "80426"))
        let relaunched = try await DPoPFixture.client(service, storage: storage, placement: .server)
        try await relaunched.authenticateUser(profile, authenticator: .pin, responder: ScriptedAnswers(["80426"]))
        let refreshed = try await DPoPFixture.refreshThroughAPI(relaunched, profile, "refreshed at idpyoidc with the key, after a relaunch")

        try await relaunched.deregister(profile)
        #expect(try storage.keys().isEmpty, "the profile and its DPoP key are gone")
        #expect(try await !service.profileExists(profile))
        #expect(try await !DPoPFixture.isActive(try #require(refreshed.refreshToken)), "deregistration revoked the refresh token")
    }

    @Test("a PIN login's copied tokens: the access token refused at the resource server and at the extension API, the refresh token at the provider")
    func copiedTokens() async throws {
        let storage = InMemoryStorage()
        let (client, profile) = try await Self.registered(storage: storage)
        try await client.logout()
        try await client.authenticateUser(profile, responder: ScriptedAnswers(["73914"]))
        let copied = try client.sessionTokens()
        let thief = try DPoPKey.generate()

        // The resource server: as Bearer, and with the thief's own proof.
        #expect(try await DPoPFixture.call(authorization: "Bearer \(copied.accessToken.value)", proof: nil).status == 401)
        let nonce = try await DPoPFixture.nonce(thief, copied.accessToken)
        let stolen = try DPoPFixture.resourceProof(thief, copied.accessToken, nonce: nonce)
        #expect(try await DPoPFixture.call(authorization: "DPoP \(copied.accessToken.value)", proof: stolen).status == 401)

        // The extension API: a copied token cannot enrol a PIN of the thief's, as Bearer or with
        // the thief's key.
        let asBearer = try await Self.enrolPin(authorization: "Bearer \(copied.accessToken.value)", proof: nil)
        #expect(asBearer.status == 401)
        let enrolURL = try #require(DPoPFixture.issuer).appendingPathComponent("identityflow/pin/enrol")
        let withoutNonce = try thief.proof(method: "POST", url: enrolURL, accessToken: copied.accessToken, nonce: nil, at: Date())
        let asked = try await Self.enrolPin(authorization: "DPoP \(copied.accessToken.value)", proof: withoutNonce)
        let thiefProof = try thief.proof(method: "POST", url: enrolURL, accessToken: copied.accessToken, nonce: asked.headers["dpop-nonce"], at: Date())
        let byThief = try await Self.enrolPin(authorization: "DPoP \(copied.accessToken.value)", proof: thiefProof)
        #expect(byThief.status == 401 && byThief.headers["www-authenticate"]?.hasPrefix("DPoP") == true, "the token is bound to another key")

        // The provider: the login's refresh token with the thief's key, and without a proof.
        let refreshToken = try #require(copied.refreshToken)
        let thiefService = try DPoPFixture.service()
        await InteropEnvironment.expectError(.dpopProofRefused) { () throws(IdentityFlowError) in
            try await thiefService.refresh(refreshToken, proofKey: thief)
        }
        await #expect(throws: IdentityFlowError.self) { try await DPoPFixture.bearerService().refresh(refreshToken, proofKey: nil) }

        #expect(try await client.authenticatedRequest(URLRequest(url: try #require(DPoPFixture.resource))).1.statusCode == 200, "the owner still can")
        try await client.deregister(profile)
        #expect(try storage.keys().isEmpty)
    }

    @Test("the FAPI 2.0 profile in the server placement: registration, PIN login and the API, every token bound")
    func fapi2() async throws {
        let storage = InMemoryStorage()
        let (client, profile) = try await Self.registered(storage: storage, profile: .fapi2)
        try await client.logout()
        try await client.authenticateUser(profile, responder: ScriptedAnswers(["73914"]))
        #expect(try client.sessionTokens().isSenderConstrained)
        #expect(try await client.authenticatedRequest(URLRequest(url: try #require(DPoPFixture.resource))).1.statusCode == 200)
        try await client.deregister(profile)
        #expect(try storage.keys().isEmpty)
    }

    /// Sends `request` as a host's own HTTP stack would.
    static func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }

    @Test("a host's own HTTP stack: authorize, the nonce answer handled, the retry accepted, a replayed request refused")
    func hostHTTPStack() async throws {
        let storage = InMemoryStorage()
        let (client, profile) = try await Self.registered(storage: storage)
        let resource = try #require(DPoPFixture.resource)

        var request = try await client.authorize(URLRequest(url: resource))
        #expect(request.value(forHTTPHeaderField: "Authorization")?.hasPrefix("DPoP ") == true && request.value(forHTTPHeaderField: "DPoP") != nil)
        var (data, response) = try await Self.send(request)
        #expect(response.statusCode == 401, "no nonce from this server yet")
        #expect(try await client.handleResponse(response, body: data, to: request) == .retry)
        request = try await client.authorize(request)
        (data, response) = try await Self.send(request)
        #expect(response.statusCode == 200)
        #expect(try await client.handleResponse(response, body: data, to: request) == .accept)

        #expect(try await Self.send(request).1.statusCode == 401, "the same proof twice: a replay")
        let next = try await client.authorize(URLRequest(url: resource))
        #expect(try await Self.send(next).1.statusCode == 200, "the remembered nonce: accepted at once")
        try await client.deregister(profile)
    }

    @Test("three wrong PINs at the extension API deregister the profile there, revoke its tokens and remove it here")
    func lockout() async throws {
        let storage = InMemoryStorage()
        let (client, profile) = try await Self.registered(storage: storage)
        let registered = try client.sessionTokens()
        try await client.logout()
        await InteropEnvironment.expectError(.userDeregistered) { () throws(IdentityFlowError) in
            try await client.authenticateUser(profile, responder: ScriptedAnswers(["11111", "11111", "11111"]))
        }
        #expect(client.userProfiles.isEmpty)
        #expect(try storage.keys().isEmpty)
        #expect(try await !DPoPFixture.service().profileExists(profile))
        #expect(try await !DPoPFixture.isActive(try #require(registered.refreshToken)))
    }
}
