import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// Multi-tenant providers (Entra ID's `common`, `organizations`, `consumers`) publish the issuer
/// `…/{tenantid}/v2.0`: each ID token's `iss` must be the template with its own `tid`, a GUID.
@Suite("Issuer templates for multi-tenant providers")
struct IssuerTemplateTests {
    static let template = "https://login.microsoftonline.com/{tenantid}/v2.0"
    static let tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    static let otherTenant = "9188040d-6c67-4c5b-b112-36a304b66dad"
    static let redirect = URL(string: "identityflow://callback")!

    /// A stub Entra ID: discovery names `issuer`, the JWKS holds the signer's key.
    static func provider(issuer: String = template, signer: ES256TokenSigner) throws -> LoopbackHTTPServer {
        let provider = ScriptedProvider(issuer: issuer, jwks: { _ in signer.jwks }, token: { _ in .close })
        return try LoopbackHTTPServer(maxRequests: 32, handler: provider.handler)
    }

    static func service(_ server: LoopbackHTTPServer, issuer: String?, now: Date) throws -> HTTPIdentityService {
        try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(
                issuer: issuer.flatMap(URL.init(string:)), discoveryURL: server.baseURL.appendingPathComponent("o/.well-known/openid-configuration"),
                clientID: "client-1", redirectURI: redirect),
            now: { now })
    }

    static func token(_ signer: ES256TokenSigner, iss: String, tid: Any?, now: Date) -> Redacted<String> {
        var claims: [String: Any] = [
            "iss": iss, "aud": "client-1", "sub": "user-1", "iat": Int(now.timeIntervalSince1970), "exp": Int(now.timeIntervalSince1970) + 300,
            "nonce": "nonce-1",
        ]
        if let tid { claims["tid"] = tid }
        return Redacted(signer.token(claims))
    }

    @Test("the template: its placeholder as is or percent-encoded, one path segment in its place, GUID tenants")
    func templateParsing() throws {
        let template = try #require(IssuerTemplate(Self.template))
        #expect(IssuerTemplate("https://login.microsoftonline.com/%7Btenantid%7D/v2.0") == template)
        #expect(IssuerTemplate("https://login.microsoftonline.com/%7btenantid%7d/v2.0") == template)
        #expect(IssuerTemplate("https://login.microsoftonline.com/common/v2.0") == nil)
        #expect(IssuerTemplate("https://x.example/{tenantid}/{tenantid}") == nil, "one placeholder only")
        #expect(template.issuer(forTenant: Self.tenant) == "https://login.microsoftonline.com/\(Self.tenant)/v2.0")
        #expect(template.segment(of: "https://login.microsoftonline.com/common/v2.0") == "common")
        #expect(template.segment(of: "https://login.microsoftonline.com/common/v2.0/") == "common")
        for other in [
            "https://login.microsoftonline.com/a/b/v2.0", "https://login.microsoftonline.com//v2.0", "https://attacker.example/common/v2.0",
            "https://login.microsoftonline.com/common/v1.0", "https://login.microsoftonline.com/c%2Fd/v2.0",
        ] {
            #expect(template.segment(of: other) == nil, "\(other)")
        }
        #expect(IssuerTemplate.isPlausibleTenantID(Self.tenant) && IssuerTemplate.isPlausibleTenantID(Self.tenant.uppercased()))
        for bad in ["common", "", "72f988bf86f141af91ab2d7cd011db47", "72f988bf-86f1-41af-91ab-2d7cd011db4g", "72f988bf-86f1-41af-91ab-2d7cd011db47-0"] {
            #expect(!IssuerTemplate.isPlausibleTenantID(bad), "\(bad)")
        }
    }

    @Test("a configured common, organizations or consumers issuer fits the template discovery names; a configured tenant or other host does not")
    func configuredIssuerFitsTemplate() async throws {
        let signer = ES256TokenSigner()
        let server = try Self.provider(signer: signer)
        defer { server.stop() }
        for segment in ["common", "organizations", "consumers"] {
            let service = try Self.service(server, issuer: "https://login.microsoftonline.com/\(segment)/v2.0", now: Date())
            #expect(try await service.providerMetadata().issuer == Self.template)
        }
        // The template itself, configured (URL writes its braces percent-encoded), with the discovery URL.
        let templated = try Self.service(server, issuer: Self.template, now: Date())
        #expect(templated.configuration.issuer?.absoluteString.contains("%7Btenantid%7D") == true)
        #expect(try await templated.providerMetadata().issuer == Self.template)
        for strict in [
            "https://login.microsoftonline.com/\(Self.tenant)/v2.0", "https://login.microsoftonline.com/contoso.example/v2.0",
            "https://attacker.example/common/v2.0",
        ] {
            let service = try Self.service(server, issuer: strict, now: Date())
            await HTTPTestSupport.expectError(.configurationInvalid) { () throws(IdentityFlowError) in _ = try await service.providerMetadata() }
        }
        // A template issuer cannot derive its discovery document: configure the discovery URL too.
        let noDiscovery = HTTPServiceConfiguration(issuer: URL(string: Self.template), clientID: "c", redirectURI: Self.redirect)
        #expect(noDiscovery.problem?.code == .configurationInvalid)
    }

    @Test("an ID token passes with iss the template at its own GUID tid; without tid, with another tenant's iss or a non-GUID tid it is refused (11001)")
    func idTokens() async throws {
        let signer = ES256TokenSigner()
        let server = try Self.provider(signer: signer)
        defer { server.stop() }
        let now = Date()
        let service = try Self.service(server, issuer: "https://login.microsoftonline.com/common/v2.0", now: now)
        let tenantIssuer = "https://login.microsoftonline.com/\(Self.tenant)/v2.0"
        let info = try await service.validateIdToken(Self.token(signer, iss: tenantIssuer, tid: Self.tenant, now: now), nonce: "nonce-1")
        #expect(info.issuer == tenantIssuer && info.claims["tid"]?.stringValue == Self.tenant)
        let refused: [(String, Any?, String)] = [
            (tenantIssuer, nil, "no tid"),
            (tenantIssuer, Self.otherTenant, "tid of another tenant than iss"),
            ("https://login.microsoftonline.com/common/v2.0", "common", "a non-GUID tid"),
            ("https://login.microsoftonline.com/common/v2.0", Self.tenant, "iss common"),
            (Self.template, Self.tenant, "iss the template itself"),
            ("https://attacker.example/\(Self.tenant)/v2.0", Self.tenant, "another host"),
            (tenantIssuer, 42, "a tid that is no string"),
        ]
        for (iss, tid, reason) in refused {
            let error = await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                _ = try await service.validateIdToken(Self.token(signer, iss: iss, tid: tid, now: now), nonce: "nonce-1")
            }
            #expect(error?.message.contains("tid") == true || error?.message.contains("issuer") == true, "\(reason): \(String(describing: error))")
        }
    }

    @Test("a provider with a plain issuer stays strict: a token with a tid and a matching-looking iss of another tenant is refused")
    func plainIssuerStaysStrict() async throws {
        let signer = ES256TokenSigner()
        let tenantIssuer = "https://login.microsoftonline.com/\(Self.tenant)/v2.0"
        let server = try Self.provider(issuer: tenantIssuer, signer: signer)
        defer { server.stop() }
        let now = Date()
        let service = try Self.service(server, issuer: tenantIssuer, now: now)
        _ = try await service.validateIdToken(Self.token(signer, iss: tenantIssuer, tid: Self.tenant, now: now), nonce: "nonce-1")
        await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
            _ = try await service.validateIdToken(
                Self.token(signer, iss: "https://login.microsoftonline.com/\(Self.otherTenant)/v2.0", tid: Self.otherTenant, now: now), nonce: "nonce-1")
        }
    }

    @Test("RFC 9207: an authorization response's iss is the template at a GUID tenant; common, the template or another host is 11012")
    func authorizationResponseIssuer() async throws {
        let signer = ES256TokenSigner()
        let server = try Self.provider(signer: signer)
        defer { server.stop() }
        let service = try Self.service(server, issuer: "https://login.microsoftonline.com/organizations/v2.0", now: Date())
        try await service.checkAuthorizationResponseIssuer("https://login.microsoftonline.com/\(Self.tenant)/v2.0")
        try await service.checkAuthorizationResponseIssuer(nil)
        for wrong in [
            "https://login.microsoftonline.com/common/v2.0", Self.template, "https://attacker.example/\(Self.tenant)/v2.0",
            "https://login.microsoftonline.com/\(Self.tenant)/v2.0/", "https://login.microsoftonline.com/\(Self.tenant)/x/v2.0",
        ] {
            await HTTPTestSupport.expectError(.issuerMismatch) { () throws(IdentityFlowError) in try await service.checkAuthorizationResponseIssuer(wrong) }
        }
    }

    @Test("the code exchange of a multi-tenant sign-in validates the token against its tenant's issuer")
    func codeExchange() async throws {
        let signer = ES256TokenSigner()
        let now = Date()
        let tenantIssuer = "https://login.microsoftonline.com/\(Self.tenant)/v2.0"
        let provider = ScriptedProvider(
            issuer: Self.template, jwks: { _ in signer.jwks },
            token: { _ in HTTPTestSupport.tokenReply(idToken: Self.token(signer, iss: tenantIssuer, tid: Self.tenant, now: now).value) })
        let server = try LoopbackHTTPServer(maxRequests: 32, handler: provider.handler)
        defer { server.stop() }
        let service = try Self.service(server, issuer: "https://login.microsoftonline.com/common/v2.0", now: now)
        let tokens = try await service.exchangeCode(Redacted("code-1"), request: HTTPTestSupport.request)
        #expect(tokens.idToken != nil)
    }
}
