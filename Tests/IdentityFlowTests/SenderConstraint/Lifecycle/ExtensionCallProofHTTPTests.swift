import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Statechart
import Testing
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// Over HTTP: the extension calls that carry the user's access token (`pin/enrol`,
/// `biometric/enrol`, `mobile-auth/enrol`, `mobile-auth/push`, `implicit/enrol`) send a
/// DPoP-bound token as `Authorization: DPoP` with a proof naming it (RFC 9449 §7), and retry once
/// when the extension server asks for a nonce as a resource server does.
@Suite("DPoP proofs on the extension calls that carry an access token, over HTTP")
struct ExtensionCallProofHTTPTests {
    /// One extension call that carries the access token `access-1`.
    struct Call: Sendable, CustomTestStringConvertible {
        let path: String
        let send: @Sendable (HTTPIdentityService, DPoPKey?) async throws(IdentityFlowError) -> Void
        var testDescription: String { path }
    }

    /// How the scripted server asks for a nonce.
    enum NonceAsk: String, CaseIterable, Sendable {
        /// `401` with `WWW-Authenticate: DPoP error="use_dpop_nonce"`, as a resource server asks.
        case challenge
        /// `400 {"error": "use_dpop_nonce"}`, as a token endpoint asks.
        case json
    }

    static let profile = UserProfile(profileId: "P1")
    static let token = Redacted("access-1")
    static let authorization = PinKeyAuthorization(nonce: [1, 2, 3], proof: [UInt8](repeating: 2, count: 64))
    static let publicKey = [UInt8](repeating: 4, count: 65)

    static let calls: [Call] = [
        Call(path: "pin/enrol") { service, key throws(IdentityFlowError) in
            let enrolment = PinEnrolment(profile: profile, salt: Array(0..<16), iterations: 1, publicKey: publicKey)
            _ = try await service.enrolPin(enrolment, accessToken: token, proofKey: key)
        },
        Call(path: "biometric/enrol") { service, key throws(IdentityFlowError) in
            try await service.enrolBiometricKey(publicKey, for: profile, authorization: authorization, accessToken: token, proofKey: key)
        },
        Call(path: "mobile-auth/enrol") { service, key throws(IdentityFlowError) in
            try await service.enrolMobileAuthentication(publicKey: publicKey, for: profile, authorization: authorization, accessToken: token, proofKey: key)
        },
        Call(path: "mobile-auth/push") { service, key throws(IdentityFlowError) in
            try await service.enrolPushMobileAuthentication(deviceToken: [9, 9], for: profile, accessToken: token, proofKey: key)
        },
        Call(path: "implicit/enrol") { service, key throws(IdentityFlowError) in
            try await service.enrolImplicitAuthentication(publicKey: publicKey, for: profile, authorization: authorization, accessToken: token, proofKey: key)
        },
    ]

    /// A server that asks the first request for a nonce (`n-1`) and accepts the next.
    static func server(asking ask: NonceAsk) throws -> LoopbackHTTPServer {
        let count = Locked(0)
        return try LoopbackHTTPServer(maxRequests: 8) { _ in
            let first = count.withLock { value in
                value += 1
                return value == 1
            }
            guard first else { return .json(200, #"{"max_failure_count": 3}"#) }
            switch ask {
            case .challenge:
                return .response(
                    status: 401,
                    headers: [
                        "WWW-Authenticate": #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#,
                        "DPoP-Nonce": "n-1", "Content-Type": "application/json",
                    ],
                    body: Data(#"{"error": "use_dpop_nonce"}"#.utf8))
            case .json:
                return .response(
                    status: 400, headers: ["DPoP-Nonce": "n-1", "Content-Type": "application/json"], body: Data(#"{"error": "use_dpop_nonce"}"#.utf8))
            }
        }
    }

    static func service(_ server: LoopbackHTTPServer, fapi2: Bool = false) throws -> HTTPIdentityService {
        var configuration = HTTPServiceConfiguration(
            issuer: server.baseURL.appendingPathComponent("o"), clientID: "c", redirectURI: URL(string: "identityflow://callback")!)
        if fapi2 { configuration.securityProfile = .fapi2 }
        return try HTTPIdentityService(configuration: configuration)
    }

    @Test(
        "with a key: Authorization: DPoP and a proof of POST at the call's URL with ath; a nonce request (401 DPoP challenge or 400 JSON) retried once with it",
        arguments: calls, NonceAsk.allCases)
    func provenCall(_ call: Call, ask: NonceAsk) async throws {
        let server = try Self.server(asking: ask)
        defer { server.stop() }
        let key = DPoPTestSupport.knownKey
        try await call.send(try Self.service(server), key)
        let requests = server.requests
        #expect(requests.count == 2, "one retry with the nonce")
        for (index, request) in requests.enumerated() {
            #expect(request.path == "/identityflow/" + call.path)
            #expect(request.headers["authorization"] == "DPoP access-1")
            let proof = try #require(try DPoPTestSupport.proof(of: request, key: key), "every request carries a proof by the key")
            #expect(proof.claims["htm"]?.stringValue == "POST")
            #expect(proof.claims["htu"]?.stringValue == server.baseURL.appendingPathComponent("identityflow/" + call.path).absoluteString)
            #expect(proof.claims["ath"]?.stringValue == DPoPKey.accessTokenHash(Self.token))
            #expect(proof.claims["nonce"]?.stringValue == (index == 0 ? nil : "n-1"))
        }
        #expect(requests[0].headers["dpop"] != requests[1].headers["dpop"], "a fresh proof for the retry")
    }

    @Test("without a key: Authorization: Bearer and no proof, as before", arguments: calls)
    func bearerCall(_ call: Call) async throws {
        let server = try LoopbackHTTPServer(maxRequests: 4) { _ in .json(200, #"{"max_failure_count": 3}"#) }
        defer { server.stop() }
        try await call.send(try Self.service(server), nil)
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.headers["authorization"] == "Bearer access-1")
        #expect(request.headers["dpop"] == nil)
    }

    @Test("a second nonce request after the retry is 11083, not a third request", arguments: calls)
    func secondNonceRequest(_ call: Call) async throws {
        let server = try LoopbackHTTPServer(maxRequests: 4) { _ in
            .response(
                status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "n-2"],
                body: Data())
        }
        defer { server.stop() }
        let service = try Self.service(server)
        let refused = await HTTPTestSupport.expectError(.dpopProofRefused) { () throws(IdentityFlowError) in
            try await call.send(service, DPoPTestSupport.knownKey)
        }
        #expect(refused?.oauthError == "use_dpop_nonce")
        #expect(server.requests.count == 2)
    }

    @Test("a bearer-only extension server (its 401 challenge offers no DPoP scheme) is 11083 naming the cause, not a refused session", arguments: calls)
    func bearerOnlyServer(_ call: Call) async throws {
        let server = try LoopbackHTTPServer(maxRequests: 4) { _ in
            .response(
                status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#, "Content-Type": "application/json"],
                body: Data(#"{"error": "invalid_token"}"#.utf8))
        }
        defer { server.stop() }
        let service = try Self.service(server)
        let refused = await HTTPTestSupport.expectError(.dpopProofRefused) { () throws(IdentityFlowError) in
            try await call.send(service, DPoPTestSupport.knownKey)
        }
        #expect(refused?.message.contains("bearer tokens only") == true)
        #expect(refused?.oauthError == "invalid_token")
        #expect(server.requests.count == 1)
        await HTTPTestSupport.expectError(.userNotAuthenticated) { () throws(IdentityFlowError) in
            try await call.send(service, nil)
        }
    }

    /// The flows over HTTP: a server-mode registration against the scripted DPoP provider with an
    /// extension API, then the mobile authentication enrolment. The first `pin/enrol` asks for a
    /// nonce (`401`); every enrolment carries the registration's bound token with the profile's proof.
    @Test("server mode over HTTP: the registration's PIN and implicit enrolments and the mobile enrolment send the bound token with the profile's proof")
    func flowsOverHTTP() async throws {
        let provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        let enrolments = Locked<[LoopbackHTTPServer.Request]>([])
        let server = try LoopbackHTTPServer(maxRequests: 48) { request in
            guard request.path.hasPrefix("/identityflow/") else { return provider.handler(request) }
            switch request.path {
            case "/identityflow/identity-providers": return .json(200, #"[{"id": "idp", "name": "IdP", "type": "browser"}]"#)
            case "/identityflow/pin/challenge":
                let nonce = Base64URL.encode([UInt8](repeating: 7, count: 32)), salt = Base64URL.encode([UInt8](repeating: 5, count: 16))
                return .json(
                    200, #"{"nonce": "\#(nonce)", "salt": "\#(salt)", "iterations": 16, "max_failure_count": 3, "failure_count": 0, "version": 2}"#)
            case "/identityflow/pin/enrol", "/identityflow/implicit/enrol", "/identityflow/mobile-auth/enrol":
                let first = enrolments.withLock { list in
                    list.append(request)
                    return list.count == 1
                }
                guard !first else {
                    return .response(
                        status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "n-ext"], body: Data())
                }
                return .json(200, #"{"max_failure_count": 3}"#)
            default: return .json(404, #"{"error": "not_found", "error_description": "x"}"#)
            }
        }
        defer { server.stop() }
        let configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"),
            clientID: "client-1", redirectURI: URL(string: "identityflow://callback")!, scopes: ["profile"], requestTimeout: 10)
        var clientConfiguration = ClientConfiguration.testing()
        clientConfiguration.redirectURI = URL(string: "identityflow://callback")!
        let client = UserClient(configuration: clientConfiguration, service: try HTTPIdentityService(configuration: configuration), storage: InMemoryStorage())
        try await client.start()
        let result = try await client.registerUser(.provider(IdentityProvider(identifier: "idp", name: "IdP", kind: .browser), scopes: ["profile"])) {
            challenge in
            switch challenge {
            case .browserRegistration(let browser):
                let state = provider.requests(to: "/o/par/").last?.form["state"] ?? ""
                browser.sender.respond(with: URL(string: "identityflow://callback?code=code-1&state=\(state)&iss=https%3A%2F%2Fissuer.test")!, to: browser)
            case .createPin(let create): create.sender.respond(with: "24680", to: create)
            default: challenge.cancel()
            }
        }
        try await client.enrollMobileAuthentication()
        let key = try #require(client.sessions.dpopKey(for: result.profile))
        let sent = enrolments.current
        #expect(sent.map(\.path) == ["/identityflow/pin/enrol", "/identityflow/pin/enrol", "/identityflow/implicit/enrol", "/identityflow/mobile-auth/enrol"])
        for (index, request) in sent.enumerated() {
            #expect(request.headers["authorization"] == "DPoP access-1")
            let proof = try #require(try DPoPTestSupport.proof(of: request, key: key), "proven with the profile's key")
            #expect(proof.claims["ath"]?.stringValue == DPoPKey.accessTokenHash(Self.token))
            #expect(proof.claims["htu"]?.stringValue == server.baseURL.appendingPathComponent(String(request.path.dropFirst())).absoluteString)
            #expect(proof.claims["nonce"]?.stringValue == (index == 0 ? nil : "n-ext"), "the nonce asked for, remembered for the origin")
        }
    }

    @Test("under FAPI 2.0 a call without a key is refused with 11080; nothing is sent", arguments: calls)
    func keylessUnderFAPI2(_ call: Call) async throws {
        let server = try LoopbackHTTPServer(maxRequests: 4) { _ in .json(200, #"{"max_failure_count": 3}"#) }
        defer { server.stop() }
        let service = try Self.service(server, fapi2: true)
        await HTTPTestSupport.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in
            try await call.send(service, nil)
        }
        #expect(server.requests.isEmpty)
    }
}
