import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// DPoP proofs (RFC 9449 §4) as a server would check them: decoded, verified with the package's
/// ECDSA verifier against the header's own key, every claim looked at.
@Suite("DPoP proofs and keys")
struct DPoPProofTests {
    enum Failure: Error { case notSoftware }

    @Test("the JWK thumbprint of a known P-256 key is RFC 7638's, as computed independently")
    func thumbprintVector() throws {
        // The key whose private scalar is the bytes 1, 2, ..., 32. Computed once with Python 3 and
        // cryptography 48.0.0: ec.derive_private_key(int.from_bytes(bytes(range(1, 33)), "big"),
        // ec.SECP256R1()), its public numbers base64url-encoded, then SHA-256 of
        // '{"crv":"P-256","kty":"EC","x":"…","y":"…"}' (RFC 7638 §3: required members, sorted,
        // no whitespace), base64url.
        let key = DPoPTestSupport.knownKey
        #expect(key.publicJWK["x"] == "UVw9brnjlrkE0_7Kf1T9zQzB6Ze_N13KUVrQpsO0A18")
        #expect(key.publicJWK["y"] == "RTa-OlDzGPv5pUdZAqIhUCvvDVfgjFOyzApW8X2fk1Q")
        #expect(key.thumbprint == "6UoWwDCkLjV0J-pQG8c0THxbVhBcpR0AZDift1Yl5DM")
        #expect(key.description == "DPoPKey(thumbprint: 6UoWwDCkLjV0J-pQG8c0THxbVhBcpR0AZDift1Yl5DM)")
    }

    @Test("ath is base64url(SHA-256) of the access token: RFC 9449 §7.1's example")
    func accessTokenHashVector() {
        // RFC 9449 §7.1: the access token "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU" has ath
        // "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo".
        #expect(DPoPKey.accessTokenHash(Redacted("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU")) == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
    }

    @Test("a proof: typ dpop+jwt, alg ES256, the public jwk only; jti, htm, htu without query and fragment, whole-second iat; signed by the key")
    func proofStructure() throws {
        let key = try DPoPKey.generate()
        let date = Date(timeIntervalSince1970: 1_700_000_000.75)
        let proof = try key.proof(method: "post", url: URL(string: "https://Server.example.com:8443/token/path?code=secret#frag")!, at: date)
        let token = try DPoPTestSupport.decode(proof, key: key)
        #expect(Set(token.header.keys) == ["typ", "alg", "jwk"])
        #expect(token.header["typ"]?.stringValue == "dpop+jwt")
        #expect(token.header["alg"]?.stringValue == "ES256")
        let jwk = try #require(token.header["jwk"]?.objectValue)
        #expect(Set(jwk.keys) == ["kty", "crv", "x", "y"], "no private member (d) in the header")
        #expect(jwk["kty"]?.stringValue == "EC" && jwk["crv"]?.stringValue == "P-256")
        #expect(DPoPKey.thumbprint(x: jwk["x"]?.stringValue ?? "", y: jwk["y"]?.stringValue ?? "") == key.thumbprint)
        #expect(Set(token.claims.keys) == ["jti", "htm", "htu", "iat"], "no ath without a token, no nonce without one")
        #expect(token.claims["htm"]?.stringValue == "POST")
        #expect(token.claims["htu"]?.stringValue == "https://Server.example.com:8443/token/path")
        #expect(token.claims["iat"] == .number(1_700_000_000))
        #expect(Array(proof.value.split(separator: ".")[1].utf8).count > 0)
        let payload = try #require(Base64URL.decode(String(proof.value.split(separator: ".")[1])))
        #expect(String(decoding: payload, as: UTF8.self).contains(#""iat":1700000000}"#), "iat is an integer")
        let jti = try #require(token.claims["jti"]?.stringValue)
        #expect(Base64URL.decode(jti)?.count == 16, "128 random bits")
        #expect("\(proof)" == "<redacted>")
    }

    @Test("a resource proof carries ath of the token and the server's nonce; another signature and jti every time")
    func resourceProof() throws {
        let key = DPoPTestSupport.knownKey
        let token = Redacted("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU")
        let url = URL(string: "https://resource.example.org/protectedresource?x=1")!
        var jtis: Set<String> = []
        for _ in 0..<8 {
            let proof = try key.proof(method: "GET", url: url, accessToken: token, nonce: "eyJ7S_zG.eyJH0-Z.HX4w-7v", at: Date())
            let decoded = try DPoPTestSupport.decode(proof, key: key)
            #expect(decoded.claims["ath"]?.stringValue == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
            #expect(decoded.claims["nonce"]?.stringValue == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
            #expect(decoded.claims["htu"]?.stringValue == "https://resource.example.org/protectedresource")
            jtis.insert(decoded.claims["jti"]?.stringValue ?? "")
        }
        #expect(jtis.count == 8, "a fresh jti for every proof")
    }

    @Test("a tampered proof or another key's does not verify")
    func tamperedProof() throws {
        let key = try DPoPKey.generate()
        let other = try DPoPKey.generate()
        let proof = try key.proof(method: "POST", url: URL(string: "https://as.example/token")!, at: Date())
        #expect(try JSONWebToken(compact: proof.value).verifyES256(with: key.publicKey))
        #expect(try !JSONWebToken(compact: proof.value).verifyES256(with: other.publicKey))
        var parts = proof.value.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"htm":"GET"}"#.utf8))
        #expect(try !JSONWebToken(compact: parts.joined(separator: ".")).verifyES256(with: key.publicKey))
    }

    @Test("authorize sets Authorization: DPoP <token> and a proof of the request's method and URL with ath")
    func authorizeRequest() throws {
        let key = try DPoPKey.generate()
        var request = URLRequest(url: URL(string: "https://api.example/v1/items?page=2")!)
        request.httpMethod = "DELETE"
        request.setValue("Bearer old", forHTTPHeaderField: "Authorization")
        let authorized = try key.authorize(request, accessToken: Redacted("token-1"), nonce: "n-1", at: Date())
        #expect(authorized.value(forHTTPHeaderField: "Authorization") == "DPoP token-1")
        let proof = try DPoPTestSupport.decode(Redacted(authorized.value(forHTTPHeaderField: "DPoP") ?? ""), key: key)
        #expect(proof.claims["htm"]?.stringValue == "DELETE")
        #expect(proof.claims["htu"]?.stringValue == "https://api.example/v1/items")
        #expect(proof.claims["ath"]?.stringValue == DPoPKey.accessTokenHash(Redacted("token-1")))
        #expect(proof.claims["nonce"]?.stringValue == "n-1")
    }

    @Test("a stored key loads as the same key (JSON round trip); a broken stored form is 11041 and prints no secret")
    func storedForm() throws {
        let key = try DPoPKey.generate()
        #expect(!key.isHardwareBacked, "Linux has no Secure Enclave: a software key")
        let data = try JSONEncoder().encode(key.storedForm)
        let loaded = try DPoPKey(stored: try JSONDecoder().decode(StoredDPoPKey.self, from: data))
        #expect(loaded == key && loaded.thumbprint == key.thumbprint)
        let proof = try loaded.proof(method: "POST", url: URL(string: "https://as.example/token")!, at: Date())
        _ = try DPoPTestSupport.decode(proof, key: key)
        guard case .software(let scalar) = key.storedForm else { throw Failure.notSoftware }
        #expect("\(key.storedForm)" == "software(privateKey: <redacted>)", "the scalar prints redacted")
        #expect(!String(decoding: data, as: UTF8.self).contains("\(scalar.value)"), "stored as base64, not as numbers")
        let zero = StoredDPoPKey.software(privateKey: Redacted([UInt8](repeating: 0, count: 32)))
        #expect(throws: IdentityFlowError.self) { try DPoPKey(stored: zero) }
        do { _ = try DPoPKey(stored: zero) } catch { #expect(error.code == .sealedDataInvalid) }
        do { _ = try DPoPKey(stored: .secureEnclave(dataRepresentation: Redacted([1, 2, 3]))) } catch { #expect(error.code == .sealedDataInvalid) }
        let legacy = Data(#"{"kind":"software","key":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32]}"#.utf8)
        #expect(try DPoPKey(stored: JSONDecoder().decode(StoredDPoPKey.self, from: legacy)) == DPoPTestSupport.knownKey)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StoredDPoPKey.self, from: Data(#"{"kind":"tpm","key":"AA=="}"#.utf8)) }
    }

    @Test("nonce answers: a 400 use_dpop_nonce JSON error or a 401 DPoP challenge with a DPoP-Nonce asks for it; anything else does not")
    func nonceAnswers() {
        let nonceHeader = ["DPoP-Nonce": "eyJ7S_zG.eyJH0-Z.HX4w-7v"]
        let json = Data(#"{"error": "use_dpop_nonce", "error_description": "Authorization server requires nonce in DPoP proof"}"#.utf8)
        #expect(DPoPNonceAnswer.requestedNonce(status: 400, headers: nonceHeader, body: json) == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        let challenge = nonceHeader.merging([
            "WWW-Authenticate": #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#
        ]) { a, _ in a }
        #expect(DPoPNonceAnswer.requestedNonce(status: 401, headers: challenge, body: Data()) == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        let both = nonceHeader.merging(["www-authenticate": #"Bearer realm="api", error="invalid_token", DPoP algs="ES256", error="use_dpop_nonce""#]) { a, _ in
            a
        }
        #expect(DPoPNonceAnswer.error(headers: both, body: Data()) == "use_dpop_nonce", "the DPoP challenge's error, not the Bearer one")
        let bearerFirst = ["WWW-Authenticate": #"DPoP algs="ES256", Bearer error="use_dpop_nonce""#]
        #expect(DPoPNonceAnswer.error(headers: bearerFirst, body: Data()) == nil, "another challenge's error is not the DPoP one")
        #expect(DPoPNonceAnswer.requestedNonce(status: 400, headers: [:], body: json) == nil, "no nonce given: nothing to retry with")
        #expect(DPoPNonceAnswer.requestedNonce(status: 500, headers: nonceHeader, body: json) == nil)
        #expect(DPoPNonceAnswer.requestedNonce(status: 400, headers: nonceHeader, body: Data(#"{"error": "invalid_grant"}"#.utf8)) == nil)
        #expect(DPoPNonceAnswer.nonce(headers: ["dpop-nonce": "bad nonce\u{7F}"]) == nil, "outside NQCHAR")
        #expect(DPoPNonceAnswer.nonce(headers: ["DPoP-Nonce": "a\"b"]) == nil)
        #expect(DPoPNonceAnswer.nonce(headers: ["DPoP-Nonce": String(repeating: "n", count: 2000)]) == nil, "too long")
        #expect(DPoPNonceAnswer.refusesProof(status: 400, headers: [:], body: Data(#"{"error": "invalid_dpop_proof"}"#.utf8)))
        #expect(!DPoPNonceAnswer.refusesProof(status: 400, headers: [:], body: Data(#"{"error": "invalid_grant"}"#.utf8)))
    }

    @Test("TokenSet keeps token_type; DPoP (any case) is sender-constrained; a set stored before loads with none")
    func tokenSetType() throws {
        var tokens = TokenSet(accessToken: "a")
        #expect(tokens.tokenType == nil && !tokens.isSenderConstrained)
        tokens.tokenType = "dpop"
        #expect(tokens.isSenderConstrained)
        tokens.tokenType = "Bearer"
        #expect(!tokens.isSenderConstrained)
        tokens.tokenType = "DPoP"
        let decoded = try JSONDecoder().decode(TokenSet.self, from: try JSONEncoder().encode(tokens))
        #expect(decoded.tokenType == "DPoP" && decoded == tokens)
        let old = try JSONDecoder().decode(TokenSet.self, from: Data(#"{"accessToken": "a", "scopes": []}"#.utf8))
        #expect(old.tokenType == nil)
    }
}
