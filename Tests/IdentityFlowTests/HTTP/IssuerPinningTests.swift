import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// The issuer is pinned once and checked everywhere: in the authorization response (RFC 9207),
/// in every ID token, and for a configuration that names only a discovery URL.
@Suite("Issuer pinning")
struct IssuerPinningTests {
    static let redirect = URL(string: "identityflow://callback")!

    /// A provider whose discovery document names `issuer` and, when `promisesIss`, advertises
    /// `authorization_response_iss_parameter_supported`.
    private static func provider(
        issuer: @escaping @Sendable (String) -> String, promisesIss: Bool?,
        revocationOnlyIn8414: Bool = false
    ) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            let origin = "http://\(request.headers["host"] ?? "")"
            var document: [String: Any] = [
                "issuer": issuer(origin), "authorization_endpoint": "\(origin)/o/authorize/", "token_endpoint": "\(origin)/o/token/",
                "jwks_uri": "\(origin)/o/jwks/", "userinfo_endpoint": "\(origin)/o/userinfo/",
            ]
            if let promisesIss { document["authorization_response_iss_parameter_supported"] = promisesIss }
            switch request.path {
            case "/custom/discovery.json":
                return .json(200, object: document)
            case "/.well-known/oauth-authorization-server/o" where revocationOnlyIn8414:
                return .json(
                    200,
                    object: [
                        "issuer": issuer(origin), "authorization_endpoint": "\(origin)/o/authorize/",
                        "token_endpoint": "\(origin)/o/token/", "revocation_endpoint": "\(origin)/o/revoke/",
                    ])
            case "/o/token/":
                return HTTPTestSupport.tokenReply(idToken: nil)
            default:
                return .json(404, #"{"error": "not_found"}"#)
            }
        }
    }

    private static func service(_ server: LoopbackHTTPServer) throws -> HTTPIdentityService {
        try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(
                discoveryURL: server.baseURL.appendingPathComponent("custom/discovery.json"), clientID: "c", redirectURI: redirect))
    }

    @Test(
        "RFC 9207: with iss promised, a redirect without iss or with another issuer's fails with 11012; the right one passes",
        arguments: [true, false])
    func authorizationResponseIssuer(promised: Bool) async throws {
        let server = try Self.provider(issuer: { "\($0)/o" }, promisesIss: promised)
        defer { server.stop() }
        let service = try Self.service(server)
        let issuer = try await service.providerMetadata().issuer
        try await service.checkAuthorizationResponseIssuer(issuer)
        await HTTPTestSupport.expectError(.issuerMismatch) { () throws(IdentityFlowError) in
            try await service.checkAuthorizationResponseIssuer("https://attacker.example")
        }
        // A spelling that is equal as Swift Strings but not as bytes is another issuer too.
        await HTTPTestSupport.expectError(.issuerMismatch) { () throws(IdentityFlowError) in
            try await service.checkAuthorizationResponseIssuer(issuer.precomposedStringWithCanonicalMapping + "/")
        }
        if promised {
            await HTTPTestSupport.expectError(.issuerMismatch) { () throws(IdentityFlowError) in
                try await service.checkAuthorizationResponseIssuer(nil)
            }
        } else {
            try await service.checkAuthorizationResponseIssuer(nil)
        }
        #expect(!server.requests.contains { $0.path == "/o/token/" }, "nothing is exchanged by the check")
    }

    @Test("a discovery-only configuration pins the issuer the document names and asks its RFC 8414 document for revocation")
    func discoveryOnlyPinsIssuer() async throws {
        let server = try Self.provider(issuer: { "\($0)/o" }, promisesIss: nil, revocationOnlyIn8414: true)
        defer { server.stop() }
        let service = try Self.service(server)
        let metadata = try await service.providerMetadata()
        #expect(metadata.issuer == "\(server.baseURL.absoluteString.trimmingSuffix("/"))/o")
        #expect(metadata.revocationEndpoint?.absoluteString.hasSuffix("/o/revoke/") == true, "taken from the issuer's RFC 8414 document")
    }

    @Test("a discovery-only configuration checks every ID token against the pinned issuer")
    func discoveryOnlyChecksTokens() async throws {
        let vectors = try IdTokenVectors.load()
        // The document names the vectors' issuer: their tokens pass, a token of another issuer does not.
        let provider = ScriptedProvider(issuer: vectors.issuer, jwks: { _ in vectors.jwksK1 }, token: { _ in .close })
        let server = try LoopbackHTTPServer(maxRequests: 16, handler: provider.handler)
        defer { server.stop() }
        let service = try HTTPTestSupport.service(server, clientID: vectors.clientID, now: vectors.now)
        #expect(service.configuration.issuer == nil, "only a discovery URL is configured")
        _ = try await service.validateIdToken(try vectors.token("valid"), nonce: vectors.nonce)
        let stranger = try vectors.token("wrong_iss")
        let error = await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
            _ = try await service.validateIdToken(stranger, nonce: vectors.nonce)
        }
        #expect(error?.message.contains("issuer") == true)
    }

    @Test("with an issuer at the site's root, the extension probe asks <origin>/identityflow: the list means present, any other answer absent")
    func extensionEndpointsAtTheRoot() async throws {
        for (status, expected) in [(404, false), (200, true), (500, false), (401, false)] {
            let server = try LoopbackHTTPServer { request in
                request.path == "/identityflow/identity-providers" && status == 200 ? .json(200, "[]") : .json(status, #"{"error": "x"}"#)
            }
            defer { server.stop() }
            let service = try HTTPIdentityService(
                configuration: HTTPServiceConfiguration(
                    issuer: server.baseURL, clientID: "c", redirectURI: Self.redirect))
            #expect(try await service.servesExtensionEndpoints(logger: .disabled) == expected, "HTTP \(status)")
        }
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
