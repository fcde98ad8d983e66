import Foundation
import Testing
import Statechart
import ChildProcessSupport
@_spi(Integrator) @testable import IdentityFlow

/// `identityflow demo --issuer … --sign-in-only` against a scripted provider on 127.0.0.1 without
/// IdentityFlow's extension endpoints: the OpenID Connect part alone (sign-in, code exchange with ID token
/// validation, userinfo, revocation), driven as a person at a terminal would.
@Suite("identityflow demo: the OpenID Connect part", .enabled(if: DemoProcess.binary != nil, "the identityflow executable was not built beside the tests"))
struct OpenIDDemoTests {
    /// What the scripted provider does.
    struct Script: Sendable {
        var userinfoSubject = "user-1"
        var offersRevocation = true
        /// Revocation for confidential clients only, refused to this public client with a bare
        /// `401` (glewlwyd), as its discovery says.
        var revokesForConfidentialClientsOnly = false
    }

    /// A provider for the demo: discovery, JWKS, a token endpoint issuing an ES256 ID token for
    /// the nonce the demo sent, userinfo, and (when offered) revocation; 404 elsewhere.
    final class Provider: Sendable {
        let signer = ES256TokenSigner()
        let script: Script
        let nonce = Locked<String?>(nil)
        let revoked = Locked<[String]>([])

        init(_ script: Script) { self.script = script }

        func handle(_ request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply {
            let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
            switch request.path {
            case "/o/.well-known/openid-configuration":
                var document: [String: Any] = [
                    "issuer": "\(origin)/o", "authorization_endpoint": "\(origin)/o/authorize/", "token_endpoint": "\(origin)/o/token/",
                    "userinfo_endpoint": "\(origin)/o/userinfo/", "jwks_uri": "\(origin)/o/jwks/", "code_challenge_methods_supported": ["S256"],
                ]
                if script.offersRevocation { document["revocation_endpoint"] = "\(origin)/o/revoke/" }
                if script.revokesForConfidentialClientsOnly { document["revocation_endpoint_auth_methods_supported"] = ["client_secret_basic"] }
                return .json(200, object: document)
            case "/o/jwks/":
                return .json(200, signer.jwks)
            case "/o/token/":
                let idToken = signer.idToken(issuer: "\(origin)/o", clientID: "demo-client", subject: "user-1", nonce: nonce.current)
                return .json(200, object: ["access_token": "access-demo", "token_type": "Bearer", "expires_in": 300, "id_token": idToken])
            case "/o/userinfo/":
                return .json(200, object: ["sub": script.userinfoSubject, "email": "alice@example.test"])
            case "/o/revoke/" where script.revokesForConfidentialClientsOnly:
                return .response(status: 401, headers: [:], body: Data())
            case "/o/revoke/" where script.offersRevocation:
                revoked.withLock { $0.append(request.form["token"] ?? "") }
                return .response(status: 200, headers: [:], body: Data())
            default:
                return .response(status: 404, headers: [:], body: Data())
            }
        }
    }

    /// Runs the demo against `script`: waits for the authorization URL, answers its redirect with a
    /// code and the state it carries. Returns the exit status, the output and the provider.
    static func run(_ script: Script) async throws -> (Int32, String, Provider) {
        let provider = Provider(script)
        let server = try LoopbackHTTPServer(maxRequests: 32, handler: provider.handle)
        defer { server.stop() }
        let demo = try DemoProcess(arguments: [
            "demo", "--issuer", server.baseURL.appendingPathComponent("o").absoluteString,
            "--client-id", "demo-client", "--redirect-uri", "identityflow://callback", "--scope", "openid", "--sign-in-only",
        ])
        let shown = try #require(await demo.output(containing: "redirected to"), "\(demo.text)")
        let line = try #require(shown.split(separator: "\n").first { $0.contains("  open  ") })
        let url = try #require(URL(string: String(line.split(separator: " ").last ?? "")))
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let state = try #require(query.first { $0.name == "state" }?.value)
        provider.nonce.withLock { $0 = query.first { $0.name == "nonce" }?.value }
        demo.type("identityflow://callback?code=code-1&state=\(URLQuery.encode(state))")
        let (status, output) = await demo.finished()
        return (status, output, provider)
    }

    @Test("a provider without a revocation endpoint: sign-in, validation and userinfo succeed, the logout is local, and the demo exits 0")
    func noRevocationEndpoint() async throws {
        let (status, output, _) = try await Self.run(Script(offersRevocation: false))
        #expect(status == 0, "\(output)")
        #expect(output.contains("IdTokenInfo(sub: user-1"), "\(output)")
        #expect(output.contains("userinfo"), "\(output)")
        #expect(output.contains("on this device only"), "\(output)")
        #expect(output.contains("revocation_endpoint"), "\(output)")
    }

    @Test("a userinfo answer for another subject than the ID token's is refused (OpenID Connect Core §5.3.2): exit 1, claims not shown")
    func userinfoForAnotherSubject() async throws {
        let (status, output, provider) = try await Self.run(Script(userinfoSubject: "someone-else"))
        #expect(status == 1, "\(output)")
        #expect(output.contains("[generic 11001]"), "\(output)")
        #expect(output.contains("5.3.2"), "\(output)")
        #expect(!output.contains("email"), "the refused answer's claims were used: \(output)")
        #expect(provider.revoked.current.contains("access-demo"), "the tokens of the refused session are revoked")
    }

    @Test("a userinfo answer for the ID token's subject is shown and the tokens are revoked: exit 0")
    func userinfoForTheSubject() async throws {
        let (status, output, provider) = try await Self.run(Script())
        #expect(status == 0, "\(output)")
        #expect(output.contains("email, sub"), "\(output)")
        #expect(output.contains("signed in, validated and revoked"), "\(output)")
        #expect(provider.revoked.current == ["access-demo"])
    }

    @Test("a revocation endpoint that refuses this public client with a bare 401 (its discovery lists client_secret_basic only): explained, exit 0")
    func revocationForConfidentialClientsOnly() async throws {
        let (status, output, _) = try await Self.run(Script(revokesForConfidentialClientsOnly: true))
        #expect(status == 0, "\(output)")
        #expect(output.contains("lets only clients with a secret revoke tokens"), "\(output)")
        #expect(output.contains("on this device only"), "\(output)")
    }
}
