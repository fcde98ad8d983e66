import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// Pushed authorization requests (RFC 9126): the parameters go to the PAR endpoint with the
/// client's authentication; the browser gets `client_id` and `request_uri` only.
@Suite("Pushed authorization requests")
struct PushedAuthorizationTests {
    private static let provider = DPoPTestSupport.browserProvider
    private static var request: AuthorizationRequest { DPoPTestSupport.boundRequest }

    @Test("whenAdvertised: the parameters (with dpop_jkt) are pushed; the URL is the authorization endpoint with client_id and request_uri only")
    func pushAndURLShape() async throws {
        let provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        let now = Date()
        try await provider.run(now: now) { service in
            let url = try await service.authorizationURL(for: Self.provider, request: Self.request)
            let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            #expect(components.path == "/o/authorize/")
            #expect(
                components.queryItems?.map { "\($0.name)=\($0.value ?? "")" }
                    == ["tenant=t1", "client_id=client-1", "request_uri=urn:ietf:params:oauth:request_uri:abc"])
            #expect(await service.authorizationURLExpiry(url) == now.addingTimeInterval(60))
            try await service.checkAuthorizationURLFresh(url, at: now)
            await HTTPTestSupport.expectError(.pushedAuthorizationFailed) { () throws(IdentityFlowError) in
                try await service.checkAuthorizationURLFresh(url, at: now.addingTimeInterval(56))
            }
        }
        let push = try #require(provider.requests(to: "/o/par/").first)
        #expect(push.method == "POST")
        #expect(push.headers["content-type"] == "application/x-www-form-urlencoded")
        let form = push.form
        #expect(form["client_id"] == "client-1", "a public client names itself in the body")
        #expect(form["response_type"] == "code" && form["code_challenge_method"] == "S256")
        #expect(form["code_challenge"] == DPoPTestSupport.request.codeChallenge)
        #expect(form["state"] == "state-1" && form["nonce"] == "nonce-1" && form["redirect_uri"] == "identityflow://callback")
        #expect(form["dpop_jkt"] == DPoPTestSupport.knownKey.thumbprint)
        #expect(push.body.count > 0 && provider.requests(to: "/o/par/").count == 1)
    }

    @Test("a confidential client authenticates the push as at the token endpoint (Basic)")
    func clientAuthentication() async throws {
        let provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        try await provider.run(configure: { $0.clientAuthentication = .clientSecretBasic(Redacted("s3cret")) }) { service in
            _ = try await service.authorizationURL(for: Self.provider, request: Self.request)
        }
        let push = try #require(provider.requests(to: "/o/par/").first)
        #expect(push.headers["authorization"] == "Basic " + Data("client-1:s3cret".utf8).base64EncodedString())
        #expect(push.form["client_id"] == nil)
    }

    @Test("without a PAR endpoint, or with pushedAuthorization off, the URL carries the parameters (with dpop_jkt) as before")
    func notPushed() async throws {
        for (metadata, policy) in [([:], PushedAuthorizationPolicy.whenAdvertised), (SenderConstraintProvider.full, .off)]
            as [([String: any Sendable], PushedAuthorizationPolicy)]
        {
            let provider = SenderConstraintProvider(metadata: metadata)
            try await provider.run(configure: { $0.pushedAuthorization = policy }) { service in
                let url = try await service.authorizationURL(for: Self.provider, request: Self.request)
                let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
                #expect(items.first { $0.name == "dpop_jkt" }?.value == DPoPTestSupport.knownKey.thumbprint)
                #expect(items.contains { $0.name == "code_challenge" } && !items.contains { $0.name == "request_uri" })
                #expect(await service.authorizationURLExpiry(url) == nil)
            }
            #expect(provider.requests(to: "/o/par/").isEmpty)
        }
    }

    @Test("require_pushed_authorization_requests pushes even with pushedAuthorization off; required without an endpoint is 11080 before anything is pushed")
    func requiredPushes() async throws {
        var metadata = SenderConstraintProvider.full
        metadata["require_pushed_authorization_requests"] = true
        let requiring = SenderConstraintProvider(metadata: metadata)
        try await requiring.run(configure: { $0.pushedAuthorization = .off }) { service in
            _ = try await service.authorizationURL(for: Self.provider, request: Self.request)
        }
        #expect(requiring.requests(to: "/o/par/").count == 1)
        let lacking = SenderConstraintProvider(metadata: ["require_pushed_authorization_requests": true])
        try await lacking.run { service in
            await HTTPTestSupport.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in
                try await service.authorizationURL(for: Self.provider, request: Self.request)
            }
        }
        let plain = SenderConstraintProvider()
        try await plain.run(configure: { $0.pushedAuthorization = .required }) { service in
            let error = await HTTPTestSupport.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in
                try await service.authorizationURL(for: Self.provider, request: Self.request)
            }
            #expect(error?.message.contains("pushed_authorization_request_endpoint") == true)
        }
    }

    @Test(
        "PAR refusals and broken answers: 11082 naming the OAuth error; 5xx stays 9001",
        arguments: [
            (
                LoopbackHTTPServer.Reply.json(400, #"{"error": "invalid_request", "error_description": "bad redirect_uri"}"#),
                ErrorCode.pushedAuthorizationFailed, "invalid_request" as String?
            ),
            (.json(401, #"{"error": "invalid_client"}"#), .pushedAuthorizationFailed, "invalid_client"),
            (.json(201, #"{"expires_in": 60}"#), .pushedAuthorizationFailed, nil),
            (.json(201, #"{"request_uri": "", "expires_in": 60}"#), .pushedAuthorizationFailed, nil),
            (.json(201, #"{"request_uri": "urn:x", "expires_in": 1e300}"#), .pushedAuthorizationFailed, nil),
            (.json(201, #"{"request_uri": "urn:x", "expires_in": 86400}"#), .pushedAuthorizationFailed, nil),
            (.json(201, #"{"request_uri": "urn:x", "expires_in": 0}"#), .pushedAuthorizationFailed, nil),
            (.json(201, #"{"request_uri": "urn:x", "expires_in": "60"}"#), .pushedAuthorizationFailed, nil),
            (.json(201, #"{"request_uri": "urn:x"}"#), .pushedAuthorizationFailed, nil),
            (.json(201, #"{"request_uri": 42, "expires_in": 60}"#), .pushedAuthorizationFailed, nil),
            (.response(status: 201, headers: ["Content-Type": "text/html"], body: Data("<html>ok</html>".utf8)), .pushedAuthorizationFailed, nil),
            (.json(201, #"["urn:x", 60]"#), .pushedAuthorizationFailed, nil),
            (.json(503, #"{"error": "temporarily_unavailable"}"#), .serverNotReachable, "temporarily_unavailable"),
        ] as [(LoopbackHTTPServer.Reply, ErrorCode, String?)])
    func refusals(_ reply: LoopbackHTTPServer.Reply, _ code: ErrorCode, _ oauthError: String?) async throws {
        var provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        provider.par = { _ in reply }
        try await provider.run { service in
            let error = await HTTPTestSupport.expectError(code) { () throws(IdentityFlowError) in
                try await service.authorizationURL(for: Self.provider, request: Self.request)
            }
            #expect(error?.oauthError == oauthError)
            if let oauthError, code == .pushedAuthorizationFailed { #expect(error?.message.contains(oauthError) == true) }
            #expect(error?.message.contains("state-1") == false && error?.message.contains("nonce-1") == false)
        }
    }

    @Test("a request_uri longer than 2048 characters is refused")
    func hugeRequestURI() async throws {
        var provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        provider.par = { _ in .json(201, #"{"request_uri": "urn:\#(String(repeating: "x", count: 3000))", "expires_in": 60}"#) }
        try await provider.run { service in
            await HTTPTestSupport.expectError(.pushedAuthorizationFailed) { () throws(IdentityFlowError) in
                try await service.authorizationURL(for: Self.provider, request: Self.request)
            }
        }
    }

    @Test("metadata: the PAR endpoint must be https or loopback http, like every endpoint")
    func parEndpointTransport() async throws {
        let provider = SenderConstraintProvider(metadata: ["pushed_authorization_request_endpoint": "http://par.example.com/par"])
        try await provider.run { service in
            await HTTPTestSupport.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
                try await service.authorizationURL(for: Self.provider, request: Self.request)
            }
        }
    }
}
