#if os(Linux)
import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Certificate pinning by SPKI SHA-256 against a local HTTPS server (a self-signed certificate
/// trusted for the test only) on Linux, where the pinned path is libcurl's own key pinning.
@Suite("Certificate pinning (Linux, local TLS server)", .serialized)
struct CertificatePinningTests {
    static func options(pins: [String], trusted: Bool = true) -> HTTPTransportOptions {
        var options = HTTPTransportOptions(pinnedPublicKeys: ["127.0.0.1": Set(pins)])
        if trusted { options.trustedCertificatesFile = TLSTestServer.certificateFile }
        return options
    }

    /// The requests the server printed before a marker request sent now with the right pin. The
    /// server prints each request before answering it, so once the marker's line is read every
    /// earlier request's line is too: no request can hide in the pipe.
    static func requestsBefore(marker server: TLSTestServer) async throws -> [String] {
        let marker = "api/marker-\(UUID().uuidString)"
        let transport = URLSessionTransport(requestTimeout: 10, options: options(pins: [TLSTestServer.pin]))
        _ = try await transport.send(URLRequest(url: server.baseURL.appendingPathComponent(marker)))
        _ = await server.output(containing: marker)
        let requests = server.requests
        #expect(requests.last?.contains(marker) == true)
        return requests.filter { !$0.contains("/api/marker-") }
    }

    static func service(_ server: TLSTestServer, options: HTTPTransportOptions) throws -> HTTPIdentityService {
        var configuration = HTTPServiceConfiguration(
            issuer: server.baseURL.appendingPathComponent("o"), clientID: "pinned-app", redirectURI: URL(string: "identityflow://callback")!,
            requestTimeout: 10)
        configuration.transportOptions = options
        return try HTTPIdentityService(configuration: configuration)
    }

    @Test("the right pin reaches the identity service; a backup pin beside it changes nothing")
    func rightPinWorks() async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        let service = try Self.service(server, options: Self.options(pins: [TLSTestServer.otherPin, "sha256/" + TLSTestServer.pin]))
        let metadata = try await service.providerMetadata()
        #expect(metadata.issuer == server.baseURL.appendingPathComponent("o").absoluteString)
        let seen = try await Self.requestsBefore(marker: server)
        #expect(seen.count == 1)
        #expect(seen.first?.contains("/o/.well-known/openid-configuration") == true)
    }

    @Test("a wrong pin fails with certificatePinMismatch and the server never sees the request")
    func wrongPinFails() async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        let service = try Self.service(server, options: Self.options(pins: [TLSTestServer.otherPin]))
        let error = await HTTPTestSupport.expectError(.certificatePinMismatch) { () throws(IdentityFlowError) in try await service.providerMetadata() }
        #expect(error?.message.contains("before any request") == true)
        #expect(try await Self.requestsBefore(marker: server).isEmpty)
    }

    @Test("the pinned path sends the host's headers, the form body and the client's Basic credentials as URLSession would")
    func pinnedPathSendsRequestsWhole() async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        var options = Self.options(pins: [TLSTestServer.pin])
        options.pinnedPublicKeys["localhost"] = [TLSTestServer.pin]
        options.headers = ["X-OIDC": "v1"]
        var configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"), clientID: "pinned-app",
            redirectURI: URL(string: "identityflow://callback")!, requestTimeout: 10)
        configuration.transportOptions = options
        configuration.clientAuthentication = .clientSecretBasic(Redacted("basic-secret"))
        let service = try HTTPIdentityService(configuration: configuration)
        // The fixture answers the token endpoint 400 invalid_grant: the answer's body came back whole.
        let error = await HTTPTestSupport.expectError(.externalIdentityProviderFailure) { () throws(IdentityFlowError) in
            try await service.refresh(Redacted("refresh-7"))
        }
        #expect(error?.oauthError == "invalid_grant")
        let seen = try await Self.requestsBefore(marker: server)
        let token = try #require(seen.first { $0.contains("/o/token/") })
        #expect(token.hasPrefix("REQUEST POST /o/token/"))
        #expect(token.hasSuffix("grant_type=refresh_token&refresh_token=refresh-7"))
        #expect(token.contains(#""authorization": "Basic \#(Data("pinned-app:basic-secret".utf8).base64EncodedString())""#))
        #expect(token.contains(#""content-type": "application/x-www-form-urlencoded""#))
        #expect(seen.count == 2)
        #expect(seen.allSatisfy { $0.contains(#""x-oidc": "v1""#) })
    }

    @Test("a token endpoint call on a host pinned to another key is refused before its body (secret, refresh token) is sent")
    func wrongPinSendsNoBody() async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        // Discovery on 127.0.0.1 (right pin); the server names its token endpoint on localhost,
        // pinned here to another key.
        var options = Self.options(pins: [TLSTestServer.pin])
        options.pinnedPublicKeys["localhost"] = [TLSTestServer.otherPin]
        var configuration = HTTPServiceConfiguration(
            discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"), clientID: "pinned-app",
            redirectURI: URL(string: "identityflow://callback")!, requestTimeout: 10)
        configuration.transportOptions = options
        configuration.clientAuthentication = .clientSecretPost(Redacted("s3cret-value"))
        let service = try HTTPIdentityService(configuration: configuration)
        let metadata = try await service.providerMetadata()
        #expect(metadata.tokenEndpoint.host == "localhost")
        await HTTPTestSupport.expectError(.certificatePinMismatch) { () throws(IdentityFlowError) in try await service.refresh(Redacted("refresh-1")) }
        #expect(try await Self.requestsBefore(marker: server).count == 1)
        #expect(!server.output.contains("s3cret-value"))
        #expect(!server.output.contains("refresh-1"))
    }

    @Test("authenticatedRequest's transport: right pin answers, wrong pin fails before the token is sent")
    func resourceTransportPins() async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        var request = URLRequest(url: server.baseURL.appendingPathComponent("api/me"))
        request.setValue("Bearer access-secret-1", forHTTPHeaderField: "Authorization")
        let wrong = URLSessionTransport(requestTimeout: 10, options: Self.options(pins: [TLSTestServer.otherPin]))
        do {
            _ = try await wrong.send(request)
            Issue.record("a wrong pin was accepted")
        } catch {
            #expect(error.code == .certificatePinMismatch)
        }
        let right = URLSessionTransport(requestTimeout: 10, options: Self.options(pins: [TLSTestServer.pin]))
        let (data, response) = try await right.send(request)
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("true"))
        #expect(try await Self.requestsBefore(marker: server).count == 1)
    }

    @Test("UserClient.authenticatedRequest: a pinned API host with another key gets no request (nor the token); with its key it answers")
    func authenticatedRequestPins() async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("api/profile")
        let wrong = try await AuthenticatedRequestTransportTests.Setup(
            transport: URLSessionTransport(requestTimeout: 10, options: Self.options(pins: [TLSTestServer.otherPin])))
        do {
            _ = try await wrong.client.authenticatedRequest(URLRequest(url: url))
            Issue.record("a wrong pin was accepted")
        } catch {
            #expect(error.code == .certificatePinMismatch)
        }
        #expect(try await Self.requestsBefore(marker: server).isEmpty)
        let right = try await AuthenticatedRequestTransportTests.Setup(
            transport: URLSessionTransport(requestTimeout: 10, options: Self.options(pins: [TLSTestServer.pin])))
        let (_, response) = try await right.client.authenticatedRequest(URLRequest(url: url))
        #expect(response.statusCode == 200)
        let profile = try await Self.requestsBefore(marker: server).filter { $0.contains("/api/profile") }
        #expect(profile.count == 1)
        #expect(profile.first?.contains(#""authorization": "Bearer "#) == true)
    }

    @Test("the pinned path keeps the transport's limits: the body cap, the deadline, and task cancellation")
    func pinnedPathLimits() async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        let options = Self.options(pins: [TLSTestServer.pin])
        let capped = HTTPTransport(timeout: 10, maxBodySize: 1024, options: options)
        await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
            try await capped.send(URLRequest(url: server.baseURL.appendingPathComponent("big")))
        }
        let hurried = HTTPTransport(timeout: 1, maxBodySize: 1 << 20, options: options)
        await HTTPTestSupport.expectError(.serverNotReachable) { () throws(IdentityFlowError) in
            try await hurried.send(URLRequest(url: server.baseURL.appendingPathComponent("stall-deadline")))
        }
        let patient = HTTPTransport(timeout: 60, maxBodySize: 1 << 20, options: options)
        let task = Task { () async throws(IdentityFlowError) -> HTTPResponse in
            try await patient.send(URLRequest(url: server.baseURL.appendingPathComponent("stall-cancel")))
        }
        // Cancelled once the server holds the request: the stalled transfer ends without an answer.
        _ = await server.output(containing: "/stall-cancel")
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("a cancelled transfer answered")
        } catch {
            #expect((error as? IdentityFlowError)?.code == .actionCancelled, "\(error)")
        }
    }

    @Test("pins add to certificate validation: an untrusted certificate fails even with its own pin")
    func pinsDoNotReplaceValidation() async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        let service = try Self.service(server, options: Self.options(pins: [TLSTestServer.pin], trusted: false))
        await HTTPTestSupport.expectError(.serverNotReachable) { () throws(IdentityFlowError) in try await service.providerMetadata() }
        #expect(try await Self.requestsBefore(marker: server).isEmpty)
    }

    @Test("no pin configured: today's path (URLSession), which refuses the self-signed certificate as before")
    func noPinIsTodaysBehaviour() async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        var options = HTTPTransportOptions(pinnedPublicKeys: ["other.example": [TLSTestServer.pin]])
        options.trustedCertificatesFile = TLSTestServer.certificateFile
        let service = try Self.service(server, options: options)
        // URLSession on Linux trusts the system's authorities only: the test certificate is not
        // one, so the unpinned path fails where the pinned one (trusting it) succeeded.
        await HTTPTestSupport.expectError(.serverNotReachable) { () throws(IdentityFlowError) in try await service.providerMetadata() }
        #expect(try await Self.requestsBefore(marker: server).isEmpty)
    }

    @Test("a system without libcurl refuses a pinned host with certificatePinningUnavailable, sending nothing")
    func missingPinningSupportFailsClosed() async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        var options = Self.options(pins: [TLSTestServer.pin])
        options.simulatesMissingPinningSupport = true
        let service = try Self.service(server, options: options)
        await HTTPTestSupport.expectError(.certificatePinningUnavailable) { () throws(IdentityFlowError) in try await service.providerMetadata() }
        #expect(try await Self.requestsBefore(marker: server).isEmpty)
    }

    @Test(
        "a libcurl that refuses the pin, the CA file, the protocols or the redirect rule fails the request with certificatePinningUnavailable, sending nothing",
        arguments: ["PINNEDPUBLICKEY", "CAINFO", "PROTOCOLS", "FOLLOWLOCATION"])
    func refusedOptionFailsClosed(option: String) async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        var options = Self.options(pins: [TLSTestServer.pin])
        options.refusedPinningOption = option
        let service = try Self.service(server, options: options)
        let error = await HTTPTestSupport.expectError(.certificatePinningUnavailable) { () throws(IdentityFlowError) in
            try await service.providerMetadata()
        }
        #expect(error?.message.contains("CURLOPT_\(option)") == true)
        #expect(error?.message.contains("not sent") == true)
        #expect(try await Self.requestsBefore(marker: server).isEmpty)
    }

    @Test("a redirect from an unpinned loopback server to the pinned host goes through the pinned path")
    func redirectToPinnedHost() async throws {
        let server = try await TLSTestServer()
        defer { server.stop() }
        let target = server.baseURL.appendingPathComponent("o/.well-known/openid-configuration").absoluteString
        let front = try LoopbackHTTPServer(maxRequests: 2) { _ in .response(status: 302, headers: ["Location": target], body: Data()) }
        defer { front.stop() }
        let mismatched = HTTPTransport(timeout: 10, maxBodySize: 1 << 20, options: Self.options(pins: [TLSTestServer.otherPin]))
        do {
            _ = try await mismatched.send(URLRequest(url: front.baseURL.appendingPathComponent("start")))
            Issue.record("the redirect reached a pinned host with the wrong key")
        } catch {
            #expect(error.code == .certificatePinMismatch)
        }
        #expect(try await Self.requestsBefore(marker: server).isEmpty)
        let matching = HTTPTransport(timeout: 10, maxBodySize: 1 << 20, options: Self.options(pins: [TLSTestServer.pin]))
        let response = try await matching.send(URLRequest(url: front.baseURL.appendingPathComponent("start")))
        #expect(response.status == 200)
        #expect(try await Self.requestsBefore(marker: server).count == 1)
    }
}
#endif
