import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// The FAPI 2.0 client profile (`securityProfile = .fapi2`): everything it requires is checked
/// before any browser opens, and anything weaker is refused.
@Suite("FAPI 2.0 client profile")
struct FAPI2ProfileTests {
    private static let provider = DPoPTestSupport.browserProvider
    private static var request: AuthorizationRequest { DPoPTestSupport.boundRequest }

    private static func fapi2(_ configuration: inout HTTPServiceConfiguration) { configuration.securityProfile = .fapi2 }

    @Test("a provider with PAR, DPoP ES256 and iss: usesDPoP is true (even with dpop off) and the request is pushed")
    func fullProvider() async throws {
        let provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        try await provider.run(configure: {
            $0.securityProfile = .fapi2; $0.dpop = .off; $0.pushedAuthorization = .off
        }) { service in
            #expect(try await service.usesDPoP())
            let url = try await service.authorizationURL(for: Self.provider, request: Self.request)
            #expect(url.query?.contains("request_uri=") == true && url.query?.contains("code_challenge") == false)
            #expect(try await service.identityAppLink(for: Self.provider, request: Self.request) == nil, "no app URL carrying the request in the clear")
        }
    }

    @Test(
        "a provider lacking PAR, DPoP (or ES256) or iss support is refused with 11080 naming it, before anything is pushed",
        arguments: [
            ("pushed_authorization_request_endpoint", "pushed_authorization_request_endpoint"),
            ("dpop_signing_alg_values_supported", "dpop_signing_alg_values_supported"),
            ("authorization_response_iss_parameter_supported", "authorization_response_iss_parameter_supported"),
            ("ES256", "ES256"),
        ])
    func lacking(_ removed: String, _ named: String) async throws {
        var metadata = SenderConstraintProvider.full
        if removed == "ES256" { metadata["dpop_signing_alg_values_supported"] = ["PS256"] } else { metadata[removed] = nil }
        let provider = SenderConstraintProvider(metadata: metadata)
        try await provider.run(configure: Self.fapi2) { service in
            let fromURL = await HTTPTestSupport.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in
                try await service.authorizationURL(for: Self.provider, request: Self.request)
            }
            #expect(fromURL?.message.contains(named) == true, "\(fromURL?.message ?? "")")
            await HTTPTestSupport.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in try await service.usesDPoP() }
        }
        #expect(provider.requests(to: "/o/par/").isEmpty && provider.requests(to: "/o/token/").isEmpty)
    }

    @Test("a provider lacking all three: one 11080 naming each")
    func lackingAll() async throws {
        let provider = SenderConstraintProvider(metadata: ["code_challenge_methods_supported": ["plain"]])
        try await provider.run(configure: Self.fapi2) { service in
            let error = await HTTPTestSupport.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in try await service.usesDPoP() }
            for member in [
                "pushed_authorization_request_endpoint", "dpop_signing_alg_values_supported", "authorization_response_iss_parameter_supported", "S256",
            ] {
                #expect(error?.message.contains(member) == true, "\(member)")
            }
        }
    }

    @Test("a sign-in without a DPoP key, and a token request without a proof, are refused with 11080")
    func keyRequired() async throws {
        let provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        try await provider.run(configure: Self.fapi2) { service in
            await HTTPTestSupport.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in
                try await service.authorizationURL(for: Self.provider, request: DPoPTestSupport.request)
            }
            await HTTPTestSupport.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in
                try await service.exchangeCode(Redacted("code-1"), request: Self.request)
            }
            await HTTPTestSupport.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in try await service.refresh(Redacted("refresh-1")) }
        }
        #expect(provider.requests(to: "/o/par/").isEmpty && provider.requests(to: "/o/token/").isEmpty)
    }

    @Test("the redirect must carry iss: a missing one is 11012 under the profile")
    func issRequired() async throws {
        var metadata = SenderConstraintProvider.full
        metadata["authorization_response_iss_parameter_supported"] = nil
        let provider = SenderConstraintProvider(metadata: metadata)
        try await provider.run(configure: Self.fapi2) { service in
            await HTTPTestSupport.expectError(.issuerMismatch) { () throws(IdentityFlowError) in try await service.checkAuthorizationResponseIssuer(nil) }
            try await service.checkAuthorizationResponseIssuer("https://issuer.test")
        }
        try await provider.run { service in try await service.checkAuthorizationResponseIssuer(nil) }
    }

    @Test("the password grant, token exchange and provider sessions are refused with 11020; nothing is sent")
    func weakerGrantsRefused() async throws {
        try await DPoPTestSupport.expectBearerGrantsRefused(configure: Self.fapi2, naming: "FAPI 2.0")
    }

    @Test("a PIN or biometric login without a DPoP key is refused with 11080 under the profile; nothing is sent")
    func keylessLoginRefused() async throws {
        let provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        try await provider.run(configure: Self.fapi2) { service in
            let profile = UserProfile(profileId: "P1")
            await HTTPTestSupport.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in
                _ = try await service.verifyPinProof(Redacted([1, 2, 3]), for: profile, nonce: [4], proofKey: nil)
            }
            await HTTPTestSupport.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in
                _ = try await service.verifyBiometricProof(Redacted([1, 2, 3]), for: profile, nonce: [4])
            }
        }
        #expect(provider.requests.current.allSatisfy { !$0.path.hasSuffix("verify") })
    }

    @Test("an ID token signed with RS256 is refused under the profile (PS256 and ES256 only) before any key is looked up; its tokens are revoked")
    func idTokenAlgorithm() async throws {
        var provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        provider.token = { _, _ in
            .json(200, #"{"access_token": "access-1", "token_type": "DPoP", "id_token": "eyJhbGciOiJSUzI1NiJ9.e30.c2ln", "expires_in": 60}"#)
        }
        try await provider.run(configure: Self.fapi2) { service in
            let error = await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.exchangeCode(Redacted("code-1"), request: Self.request, proofKey: try DPoPKey.generate())
            }
            #expect(error?.message.contains("FAPI 2.0") == true)
        }
        #expect(provider.requests(to: "/o/jwks/").isEmpty)
        #expect(provider.requests(to: "/o/revoke/").map { $0.form["token"] } == ["access-1"])
    }
}
