import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The host's transport: its headers on every request, its `URLSessionConfiguration` and
/// delegate, and the options' checks and file keys.
@Suite("The host's transport options")
struct TransportOptionsTests {
    /// Records the challenges it is given; answers them with `credential`.
    final class HostDelegate: NSObject, URLSessionTaskDelegate, Sendable {
        let challenges = Locked<[String]>([])
        let credential: URLCredential?

        init(credential: URLCredential?) { self.credential = credential }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @Sendable @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            challenges.withLock { $0.append(challenge.protectionSpace.authenticationMethod) }
            if let credential, challenge.previousFailureCount == 0 {
                completionHandler(.useCredential, credential)
            } else {
                completionHandler(.performDefaultHandling, nil)
            }
        }
    }

    /// A session-level delegate only (no task delegate methods), as pinning code often is.
    final class SessionLevelDelegate: NSObject, URLSessionDelegate, Sendable {
        let challenges = Locked(0)

        func urlSession(
            _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @Sendable @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            challenges.withLock { $0 += 1 }
            completionHandler(.useCredential, URLCredential(user: "session", password: "level", persistence: .none))
        }
    }

    static func configuration(_ server: LoopbackHTTPServer, options: HTTPTransportOptions) -> HTTPServiceConfiguration {
        var configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"), clientID: "app",
            redirectURI: URL(string: "identityflow://callback")!, requestTimeout: 10)
        configuration.transportOptions = options
        return configuration
    }

    @Test("the host's headers go with every request of the identity service, the protocol's own stay")
    func headersOnEveryRequest() async throws {
        let provider = ScriptedProvider(
            issuer: "https://issuer.test", jwks: { _ in #"{"keys": []}"# }, token: { _ in HTTPTestSupport.tokenReply(idToken: nil) },
            extra: { request in request.path == "/o/revoke/" ? .response(status: 200, headers: [:], body: Data()) : nil })
        let server = try LoopbackHTTPServer(maxRequests: 8, handler: provider.handler)
        defer { server.stop() }
        let options = HTTPTransportOptions(headers: ["X-OIDC": "v1", "X-Client-Version": "7.1"])
        let service = try HTTPIdentityService(configuration: Self.configuration(server, options: options))
        _ = try await service.refresh(Redacted("refresh-1"))
        try await service.revoke(TokenSet(accessToken: "access-1"))
        let requests = server.requests
        #expect(requests.map(\.path) == ["/o/.well-known/openid-configuration", "/o/token/", "/o/revoke/"])
        for request in requests {
            #expect(request.headers["x-oidc"] == "v1")
            #expect(request.headers["x-client-version"] == "7.1")
        }
        #expect(requests[1].headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(requests[1].headers["accept"] == "application/json")
    }

    @Test("a header of the protocol's own, a malformed name or a value with a line break is refused at configuration")
    func reservedHeadersRefused() throws {
        for headers in [
            ["Authorization": "Bearer x"], ["content-type": "text/plain"], ["DPoP": "x"], ["Accept": "*/*"], ["Cookie": "a=b"],
            ["X Bad": "1"], ["X-Injected": "v1\r\nAuthorization: Bearer x"], ["": "1"],
        ] {
            let options = HTTPTransportOptions(headers: headers)
            #expect(options.problem?.code == .configurationInvalid, "\(headers)")
            var configuration = HTTPServiceConfiguration(issuer: URL(string: "https://id.example")!, clientID: "app", redirectURI: URL(string: "app://cb")!)
            configuration.transportOptions = options
            #expect(throws: IdentityFlowError.self) { try HTTPIdentityService(configuration: configuration) }
        }
        #expect(HTTPTransportOptions(headers: ["X-OIDC": "v1"]).problem == nil)
    }

    @Test("the resource transport's headers: added where the request sets none, never over the request's own")
    func resourceTransportHeaders() async throws {
        let server = try LoopbackHTTPServer(maxRequests: 2) { _ in .json(200, "{}") }
        defer { server.stop() }
        let transport = URLSessionTransport(requestTimeout: 10, options: HTTPTransportOptions(headers: ["X-App": "host", "X-Trace": "t1"]))
        var request = URLRequest(url: server.baseURL.appendingPathComponent("api"))
        request.setValue("request", forHTTPHeaderField: "X-App")
        _ = try await transport.send(request)
        let received = try #require(server.requests.first)
        #expect(received.headers["x-app"] == "request")
        #expect(received.headers["x-trace"] == "t1")
        let refused = URLSessionTransport(options: HTTPTransportOptions(headers: ["Authorization": "Basic eA=="]))
        do {
            _ = try await refused.send(request)
            Issue.record("a reserved header was accepted")
        } catch {
            #expect(error.code == .configurationInvalid)
        }
        #expect(server.requests.count == 1)
    }

    @Test("the host's URLSessionConfiguration is used: its additional headers reach the server")
    func hostSessionConfiguration() async throws {
        let provider = ScriptedProvider(
            issuer: "https://issuer.test", jwks: { _ in #"{"keys": []}"# }, token: { _ in HTTPTestSupport.tokenReply(idToken: nil) })
        let server = try LoopbackHTTPServer(maxRequests: 4, handler: provider.handler)
        defer { server.stop() }
        let session = URLSessionCustomization(configuration: {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["X-From-Configuration": "yes"]
            return configuration
        })
        let service = try HTTPIdentityService(configuration: Self.configuration(server, options: HTTPTransportOptions(session: session)))
        _ = try await service.providerMetadata()
        #expect(server.requests.first?.headers["x-from-configuration"] == "yes")
    }

    @Test("the host's delegate settles the HTTP authentication challenges IdentityFlow does not: its credential is sent")
    func hostDelegateGetsChallenges() async throws {
        let server = try LoopbackHTTPServer(maxRequests: 4) { request in
            guard let authorization = request.headers["authorization"] else {
                return .response(status: 401, headers: ["WWW-Authenticate": #"Basic realm="proxy-gate""#], body: Data())
            }
            return .json(200, object: ["authorization": authorization])
        }
        defer { server.stop() }
        let delegate = HostDelegate(credential: URLCredential(user: "gate", password: "gate-pass", persistence: .none))
        let transport = URLSessionTransport(requestTimeout: 10, options: HTTPTransportOptions(session: URLSessionCustomization(delegate: delegate)))
        let (data, response) = try await transport.send(URLRequest(url: server.baseURL.appendingPathComponent("api")))
        #expect(delegate.challenges.current == [NSURLAuthenticationMethodHTTPBasic])
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains(Data("gate:gate-pass".utf8).base64EncodedString()))
    }

    @Test("a host delegate with session-level challenge handling only gets the challenge there")
    func sessionLevelDelegate() async throws {
        let server = try LoopbackHTTPServer(maxRequests: 4) { request in
            guard let authorization = request.headers["authorization"] else {
                return .response(status: 401, headers: ["WWW-Authenticate": #"Basic realm="gate""#], body: Data())
            }
            return .json(200, object: ["authorization": authorization])
        }
        defer { server.stop() }
        let delegate = SessionLevelDelegate()
        let transport = URLSessionTransport(requestTimeout: 10, options: HTTPTransportOptions(session: URLSessionCustomization(delegate: delegate)))
        let (data, response) = try await transport.send(URLRequest(url: server.baseURL.appendingPathComponent("api")))
        #expect(delegate.challenges.current == 1)
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains(Data("session:level".utf8).base64EncodedString()))
    }

    @Test("a 401 challenge without a credential (no host delegate, or one that declines) comes back as the 401 answer, not as a timeout")
    func challengeWithoutCredential() async throws {
        let server = try LoopbackHTTPServer(maxRequests: 2) { _ in
            .response(status: 401, headers: ["WWW-Authenticate": #"Basic realm="gate""#, "Content-Type": "application/json"], body: Data("{}".utf8))
        }
        defer { server.stop() }
        // FoundationNetworking alone would never complete such a task: this would end at the deadline.
        let (data, response) = try await URLSessionTransport(requestTimeout: 30).send(URLRequest(url: server.baseURL.appendingPathComponent("api")))
        #expect(response.statusCode == 401)
        #expect(data == Data("{}".utf8))
        let declining = HostDelegate(credential: nil)
        let transport = URLSessionTransport(requestTimeout: 30, options: HTTPTransportOptions(session: URLSessionCustomization(delegate: declining)))
        let (_, again) = try await transport.send(URLRequest(url: server.baseURL.appendingPathComponent("api")))
        #expect(again.statusCode == 401)
        #expect(declining.challenges.current == [NSURLAuthenticationMethodHTTPBasic])
    }

    @Test("pins: validated (base64 of 32 bytes, a host name, at least one pin), matched by host without case, sha256/ prefixes accepted")
    func pinValidation() {
        let pin = Data(repeating: 1, count: 32).base64EncodedString()
        #expect(HTTPTransportOptions(pinnedPublicKeys: ["ID.Example.com": [pin, "sha256//" + pin]]).problem == nil)
        for wrong: [String: Set<String>] in [
            ["id.example.com": []], ["id.example.com": ["abc"]], ["id.example.com": [Data(count: 20).base64EncodedString()]],
            ["https://id.example.com": [pin]], ["id.example.com:443": [pin]], ["": [pin]],
        ] {
            #expect(HTTPTransportOptions(pinnedPublicKeys: wrong).problem?.code == .configurationInvalid, "\(wrong)")
        }
        let options = HTTPTransportOptions(pinnedPublicKeys: ["ID.Example.com": ["sha256/" + pin]])
        #expect(options.pins(for: URL(string: "https://id.example.com/o")!) == [pin])
        #expect(options.pins(for: URL(string: "https://api.example.com/o")!) == nil)
        #expect(HTTPTransportOptions(pinnedPublicKeys: ["::1": [pin]]).problem == nil)
    }

    @Test("the configuration file reads headers and pinned_public_keys, and refuses malformed ones")
    func configurationFile() throws {
        let pin = Data(repeating: 2, count: 32).base64EncodedString()
        let text = """
            {"issuer": "https://id.example", "client_id": "app", "redirect_uri": "app://cb",
             "headers": {"X-OIDC": "v1"}, "pinned_public_keys": {"id.example": ["\(pin)"]}}
            """
        let configuration = try HTTPServiceConfiguration(data: Data(text.utf8))
        #expect(configuration.transportOptions.headers == ["X-OIDC": "v1"])
        #expect(configuration.transportOptions.pinnedPublicKeys == ["id.example": [pin]])
        for wrong in [#""headers": {"Authorization": "x"}"#, #""headers": ["X-OIDC"]"#, #""pinned_public_keys": {"id.example": "abc"}"#] {
            let data = Data(#"{"issuer": "https://id.example", "client_id": "app", "redirect_uri": "app://cb", \#(wrong)}"#.utf8)
            #expect(throws: IdentityFlowError.self) { try HTTPServiceConfiguration(data: data) }
        }
    }

    @Test("customizations compare by identity; a configuration with the same one is equal")
    func customizationIdentity() {
        let one = URLSessionCustomization()
        #expect(one == one)
        #expect(one != URLSessionCustomization())
        #expect(HTTPTransportOptions(session: one) == HTTPTransportOptions(session: one))
    }

    @Test("the default transport of authenticatedRequest takes the service's pins and session, not its headers")
    func defaultResourceTransport() throws {
        let pin = Data(repeating: 3, count: 32).base64EncodedString()
        let session = URLSessionCustomization()
        var configuration = HTTPServiceConfiguration(issuer: URL(string: "https://id.example")!, clientID: "app", redirectURI: URL(string: "app://cb")!)
        configuration.transportOptions = HTTPTransportOptions(headers: ["X-OIDC": "v1"], pinnedPublicKeys: ["api.example": [pin]], session: session)
        let transport = URLSessionTransport(servingAPIsOf: configuration)
        #expect(transport.transportOptions.headers.isEmpty)
        #expect(transport.transportOptions.pinnedPublicKeys == ["api.example": [pin]])
        #expect(transport.transportOptions.session == session)
    }
}
