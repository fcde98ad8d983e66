import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// The OpenID Connect service with DPoP (RFC 9449): proofs on every token, revocation and
/// userinfo request, one retry for a nonce, `token_type` checked, the policy against the metadata.
@Suite("DPoP at the provider")
struct DPoPServiceTests {
    private static let nonceRequest: LoopbackHTTPServer.Reply = .response(
        status: 400, headers: ["Content-Type": "application/json", "DPoP-Nonce": "nonce-1"], body: Data(#"{"error": "use_dpop_nonce"}"#.utf8))

    @Test("the code exchange carries a proof for POST at the token endpoint; the tokens are DPoP-bound")
    func codeExchangeProof() async throws {
        let provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        let key = try DPoPKey.generate()
        try await provider.run { service in
            let tokens = try await service.exchangeCode(Redacted("code-1"), request: DPoPTestSupport.request, proofKey: key)
            #expect(tokens.tokenType == "DPoP" && tokens.isSenderConstrained)
        }
        let request = try #require(provider.requests(to: "/o/token/").first)
        let proof = try #require(try DPoPTestSupport.proof(of: request, key: key))
        #expect(proof.claims["htm"]?.stringValue == "POST")
        #expect(proof.claims["htu"]?.stringValue?.hasSuffix("/o/token/") == true)
        #expect(proof.claims["ath"] == nil && proof.claims["nonce"] == nil)
        #expect(request.form["code_verifier"] == DPoPTestSupport.request.codeVerifier.value)
    }

    @Test("use_dpop_nonce from the token endpoint: retried once with the nonce, with a fresh proof; the nonce is used next time without asking")
    func tokenNonceRetry() async throws {
        var provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        provider.token = { request, count in
            guard count > 1 else { return Self.nonceRequest }
            return SenderConstraintProvider.dpopTokenReply(headers: ["DPoP-Nonce": "nonce-\(count)"])
        }
        let key = try DPoPKey.generate()
        try await provider.run { service in
            _ = try await service.refresh(Redacted("refresh-1"), proofKey: key)
            _ = try await service.refresh(Redacted("refresh-1"), proofKey: key)
        }
        let proofs = try provider.requests(to: "/o/token/").map { try #require(try DPoPTestSupport.proof(of: $0, key: key)) }
        #expect(proofs.count == 3, "one retry, then the next refresh straight with the remembered nonce")
        #expect(proofs.map { $0.claims["nonce"]?.stringValue } == [nil, "nonce-1", "nonce-2"])
        #expect(Set(proofs.map { $0.claims["jti"]?.stringValue ?? "" }).count == 3)
    }

    @Test("a second use_dpop_nonce after the retry is 11083, not a third request")
    func tokenNonceOnce() async throws {
        var provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        provider.token = { _, _ in Self.nonceRequest }
        let key = try DPoPKey.generate()
        try await provider.run { service in
            let error = await HTTPTestSupport.expectError(.dpopProofRefused) { () throws(IdentityFlowError) in
                try await service.refresh(Redacted("refresh-1"), proofKey: key)
            }
            #expect(error?.oauthError == "use_dpop_nonce")
        }
        #expect(provider.requests(to: "/o/token/").count == 2)
    }

    @Test("invalid_dpop_proof is 11083 at once")
    func invalidProof() async throws {
        var provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        provider.token = { _, _ in .json(400, #"{"error": "invalid_dpop_proof"}"#) }
        try await provider.run { service in
            await HTTPTestSupport.expectError(.dpopProofRefused) { () throws(IdentityFlowError) in
                try await service.exchangeCode(Redacted("code-1"), request: DPoPTestSupport.request, proofKey: try DPoPKey.generate())
            }
        }
        #expect(provider.requests(to: "/o/token/").count == 1)
    }

    @Test("userinfo: Authorization: DPoP and a GET proof with ath; a 401 DPoP use_dpop_nonce challenge is retried once")
    func userinfoNonceRetry() async throws {
        var provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        provider.userinfo = { _, count in
            guard count > 1 else {
                return .response(
                    status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce", algs="ES256""#, "DPoP-Nonce": "rs-nonce"], body: Data())
            }
            return .json(200, #"{"sub": "alice", "email": "alice@example.com"}"#)
        }
        let key = try DPoPKey.generate()
        try await provider.run { service in
            let info = try await service.userInfo(accessToken: Redacted("access-1"), subject: "alice", proofKey: key)
            #expect(info.subject == "alice")
        }
        let requests = provider.requests(to: "/o/userinfo/")
        #expect(requests.count == 2)
        for request in requests {
            #expect(request.headers["authorization"] == "DPoP access-1")
            let proof = try #require(try DPoPTestSupport.proof(of: request, key: key))
            #expect(proof.claims["htm"]?.stringValue == "GET")
            #expect(proof.claims["ath"]?.stringValue == DPoPKey.accessTokenHash(Redacted("access-1")))
        }
        #expect(try DPoPTestSupport.proof(of: requests[1], key: key)?.claims["nonce"]?.stringValue == "rs-nonce")
    }

    @Test("userinfo: a second nonce challenge is 11083; an invalid_token DPoP challenge stays 9010")
    func userinfoRefusals() async throws {
        var provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        provider.userinfo = { request, _ in
            .response(status: 401, headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "again"], body: Data())
        }
        try await provider.run { service in
            await HTTPTestSupport.expectError(.dpopProofRefused) { () throws(IdentityFlowError) in
                try await service.userInfo(accessToken: Redacted("access-1"), subject: "alice", proofKey: try DPoPKey.generate())
            }
        }
        #expect(provider.requests(to: "/o/userinfo/").count == 2)
        var refusing = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        refusing.userinfo = { _, _ in .response(status: 401, headers: ["WWW-Authenticate": #"DPoP error="invalid_token""#], body: Data()) }
        try await refusing.run { service in
            await HTTPTestSupport.expectError(.userNotAuthenticated) { () throws(IdentityFlowError) in
                try await service.userInfo(accessToken: Redacted("stolen"), subject: "alice", proofKey: try DPoPKey.generate())
            }
        }
    }

    @Test("revocation carries a proof on each request")
    func revocationProof() async throws {
        let provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        let key = try DPoPKey.generate()
        try await provider.run { service in
            try await service.revoke(TokenSet(accessToken: "access-1", refreshToken: "refresh-1"), proofKey: key)
        }
        let requests = provider.requests(to: "/o/revoke/")
        #expect(requests.count == 2)
        for request in requests { #expect(try DPoPTestSupport.proof(of: request, key: key)?.claims["htm"]?.stringValue == "POST") }
    }

    @Test("a Bearer answer to a proof is 11081 and its tokens are revoked; acceptsBearerTokensForDPoP takes it as Bearer")
    func bearerAnswer() async throws {
        var provider = SenderConstraintProvider(metadata: SenderConstraintProvider.full)
        provider.token = { _, _ in SenderConstraintProvider.dpopTokenReply(type: "Bearer") }
        try await provider.run { service in
            await HTTPTestSupport.expectError(.tokenNotSenderConstrained) { () throws(IdentityFlowError) in
                try await service.exchangeCode(Redacted("code-1"), request: DPoPTestSupport.request, proofKey: try DPoPKey.generate())
            }
        }
        #expect(Set(provider.requests(to: "/o/revoke/").map { $0.form["token"] ?? "" }) == ["access-1", "refresh-1"])
        try await provider.run(configure: { $0.acceptsBearerTokensForDPoP = true }) { service in
            let tokens = try await service.refresh(Redacted("refresh-1"), proofKey: try DPoPKey.generate())
            #expect(tokens.tokenType == "Bearer" && !tokens.isSenderConstrained)
        }
        try await provider.run(configure: {
            $0.acceptsBearerTokensForDPoP = true; $0.securityProfile = .fapi2
        }) { service in
            await HTTPTestSupport.expectError(.tokenNotSenderConstrained) { () throws(IdentityFlowError) in
                try await service.refresh(Redacted("refresh-1"), proofKey: try DPoPKey.generate())
            }
        }
    }

    @Test("dpop required: the password grant, token exchange and provider sessions (bearer tokens) are refused with 11020; nothing is sent")
    func requiredRefusesUnboundGrants() async throws {
        try await DPoPTestSupport.expectBearerGrantsRefused(configure: { $0.dpop = .required }, naming: "dpop: required")
    }

    @Test("without a key the answer must be Bearer, as before; a DPoP answer to no proof is refused")
    func noKey() async throws {
        var provider = SenderConstraintProvider()
        provider.token = { _, _ in SenderConstraintProvider.dpopTokenReply(type: "bearer") }
        try await provider.run { service in
            let tokens = try await service.refresh(Redacted("refresh-1"), proofKey: nil)
            #expect(tokens.tokenType == "Bearer")
        }
        #expect(provider.requests(to: "/o/token/").allSatisfy { $0.headers["dpop"] == nil })
        provider.token = { _, _ in SenderConstraintProvider.dpopTokenReply(type: "DPoP") }
        try await provider.run { service in
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.refresh(Redacted("refresh-1"))
            }
        }
    }

    @Test(
        "usesDPoP: off never, whenAdvertised when ES256 is listed, required throws 11080 without it",
        arguments: [
            (DPoPPolicy.off, ["ES256"], true as Bool?), (.off, [], false), (.whenAdvertised, ["ES256", "PS256"], true),
            (.whenAdvertised, ["PS256"], false), (.whenAdvertised, [], false), (.required, ["ES256"], true), (.required, ["RS256"], nil),
            (.required, [], nil),
        ] as [(DPoPPolicy, [String], Bool?)])
    func policy(_ policy: DPoPPolicy, _ algorithms: [String], _ expected: Bool?) async throws {
        let provider = SenderConstraintProvider(metadata: algorithms.isEmpty ? [:] : ["dpop_signing_alg_values_supported": algorithms])
        try await provider.run(configure: { $0.dpop = policy }) { service in
            if let expected {
                let uses = try await service.usesDPoP()
                #expect(uses == (policy == .off ? false : expected))
            } else {
                let error = await HTTPTestSupport.expectError(.securityProfileNotMet) { () throws(IdentityFlowError) in try await service.usesDPoP() }
                #expect(error?.message.contains("dpop") == true || error?.message.contains("DPoP") == true)
            }
        }
    }

    @Test("a service without DPoP (the protocol's defaults) forwards without a key and refuses one with 11020")
    func protocolDefaults() async throws {
        struct Plain: IdentityService {
            func identityProviders() async throws(IdentityFlowError) -> [IdentityProvider] { [] }
            func authorizationURL(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError) -> URL {
                URL(string: "https://x")!
            }
            func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet {
                TokenSet(accessToken: "plain")
            }
            func initCustomRegistration(provider: IdentityProvider, data: Redacted<String?>) async throws(IdentityFlowError) -> CustomRegistrationAnswer {
                throw IdentityFlowError(.unknown)
            }
            func completeCustomRegistration(provider: IdentityProvider, session: String?, data: Redacted<String?>) async throws(IdentityFlowError)
                -> CustomRegistrationAnswer
            { throw IdentityFlowError(.unknown) }
            func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>) async throws(IdentityFlowError) -> PinEnrolmentReceipt {
                throw IdentityFlowError(.unknown)
            }
            func pinLoginChallenge(for profile: UserProfile) async throws(IdentityFlowError) -> PinLoginChallenge { throw IdentityFlowError(.unknown) }
            func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError) -> PinVerification {
                throw IdentityFlowError(.unknown)
            }
            func refresh(_ refreshToken: Redacted<String>) async throws(IdentityFlowError) -> TokenSet { TokenSet(accessToken: "plain") }
            func revoke(_ tokens: TokenSet) async throws(IdentityFlowError) {}
            func deregister(_ profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError) {}
            func profileExists(_ profile: UserProfile) async throws(IdentityFlowError) -> Bool { true }
        }
        let service = Plain()
        #expect(try await service.usesDPoP() == false)
        #expect(try await service.refresh(Redacted("r"), proofKey: nil).accessToken.value == "plain")
        #expect(await service.authorizationURLExpiry(URL(string: "https://x")!) == nil)
        let key = try DPoPKey.generate()
        await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in try await service.refresh(Redacted("r"), proofKey: key) }
        await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in
            try await service.exchangeCode(Redacted("c"), request: DPoPTestSupport.request, proofKey: key)
        }
        await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in
            try await service.revoke(TokenSet(accessToken: "a"), proofKey: key)
        }
        await HTTPTestSupport.expectError(.featureNotSupported) { () throws(IdentityFlowError) in
            try await service.userInfo(accessToken: Redacted("a"), subject: "s", proofKey: key)
        }
    }
}
