import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// What DPoP adds to stored state and to the service's memory.
@Suite("DPoP state")
struct SenderConstraintStorageTests {
    @Test("a stored profile keeps its tokens' token_type (the profile writer writes it, JSONDecoder reads it); one stored before has none")
    func storedTokenType() throws {
        var tokens = TokenSet(accessToken: "at-1", refreshToken: "rt-1", scopes: ["openid"])
        tokens.tokenType = "DPoP"
        let profile = StoredProfile(profile: UserProfile(profileId: "p"), tokens: tokens, deviceSecret: nil)
        let data = try profile.jsonData()
        #expect(String(decoding: data, as: UTF8.self).contains(#""tokenType":"DPoP""#))
        let loaded = try JSONDecoder().decode(StoredProfile.self, from: data)
        #expect(loaded.tokens.tokenType == "DPoP" && loaded.tokens.isSenderConstrained && loaded == profile)
        let before = try JSONDecoder().decode(
            StoredProfile.self, from: Data(#"{"tokens":{"accessToken":"at-2","scopes":[]},"profile":{"profileId":"q"}}"#.utf8))
        #expect(before.tokens.tokenType == nil)
    }

    @Test("DPoP nonces are kept per origin (scheme, host, port), not per path; a malformed DPoP-Nonce is not kept")
    func noncePerOrigin() throws {
        let service = try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(
                issuer: URL(string: "https://as.example")!, clientID: "c", redirectURI: URL(string: "app://cb")!))
        let token = URL(string: "https://AS.example:443/token")!
        service.rememberDPoPNonce(of: HTTPResponse(status: 200, mediaType: nil, body: Data(), headers: ["DPoP-Nonce": "n-1"]), for: token)
        #expect(service.dpopNonce(for: URL(string: "https://as.example/userinfo")!) == "n-1")
        #expect(service.dpopNonce(for: URL(string: "https://as.example:8443/token")!) == nil)
        #expect(service.dpopNonce(for: URL(string: "http://as.example/token")!) == nil)
        #expect(service.dpopNonce(for: URL(string: "https://api.example/token")!) == nil)
        service.rememberDPoPNonce(of: HTTPResponse(status: 200, mediaType: nil, body: Data(), headers: ["DPoP-Nonce": "bad nonce"]), for: token)
        #expect(service.dpopNonce(for: token) == "n-1")
    }
}
