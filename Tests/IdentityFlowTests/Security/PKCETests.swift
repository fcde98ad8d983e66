import Foundation
import Testing
@_spi(Integrator) import IdentityFlow

@Suite("PKCE (RFC 7636)")
struct PKCETests {
    @Test("RFC 7636 Appendix B")
    func appendixB() throws {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
        // The challenge printed in RFC 7636 Appendix B (also BASE64URL(SHA256(verifier)) in Python).
        let expected = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        #expect(PKCE.challenge(for: verifier) == expected)
        let pkce = try PKCE(verifier: verifier)
        #expect(pkce.challenge == expected)
        #expect(pkce.method == "S256")
    }

    @Test("Generated verifiers are 43 unreserved characters, fresh each time, with a matching challenge")
    func generated() throws {
        var verifiers = Set<String>()
        for _ in 0..<50 {
            let pkce = try PKCE.generate()
            #expect((43...128).contains(pkce.verifier.count))
            #expect(pkce.verifier.count == 43)
            #expect(pkce.verifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) })
            #expect(pkce.challenge == PKCE.challenge(for: pkce.verifier))
            #expect(pkce.challenge.count == 43)
            #expect(pkce.method == "S256")
            verifiers.insert(pkce.verifier)
        }
        #expect(verifiers.count == 50)
    }

    @Test("Authorization requests carry fresh 256-bit state, nonce and a valid verifier with its challenge")
    func authorizationRequests() throws {
        var values = Set<String>()
        for _ in 0..<20 {
            let request = try AuthorizationRequest(redirectURI: URL(string: "app://callback")!, scopes: ["openid"])
            for value in [request.state.value, request.nonce.value, request.codeVerifier.value] {
                #expect(value.count == 43)
                #expect(Base64URL.decode(value)?.count == 32)
                values.insert(value)
            }
            #expect(try PKCE(verifier: request.codeVerifier.value).challenge == request.codeChallenge)
        }
        #expect(values.count == 60)
    }

    @Test(
        "Verifiers of the wrong length or with reserved characters are refused",
        arguments: [
            String(repeating: "a", count: 42), String(repeating: "a", count: 129),
            String(repeating: "a", count: 42) + "+", String(repeating: "a", count: 42) + "é", String(repeating: "a", count: 42) + " ",
        ])
    func invalidVerifiers(verifier: String) {
        let error = #expect(throws: CryptoError.self) { try PKCE(verifier: verifier) }
        #expect(error?.code == .invalidArgument)
    }

    @Test("Verifiers of 43 and 128 characters from the whole unreserved set are accepted")
    func validVerifierBounds() throws {
        #expect(try PKCE(verifier: String(repeating: "~", count: 43)).verifier.count == 43)
        let all = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        #expect(try PKCE(verifier: String((all + all).prefix(128))).verifier.count == 128)
    }

    @Test("The verifier never appears in description, debugDescription, Mirror or dump")
    func redaction() throws {
        let pkce = try PKCE.generate()
        var dumped = ""
        dump(pkce, to: &dumped)
        let renderings = [pkce.description, pkce.debugDescription, String(describing: pkce), String(reflecting: pkce), "\(pkce)", dumped]
        for rendering in renderings {
            #expect(!rendering.contains(pkce.verifier))
            #expect(rendering.contains("<redacted>"))
            #expect(rendering.contains(pkce.challenge))
        }
        let children = Mirror(reflecting: pkce).children
        #expect(children.first { $0.label == "verifier" }?.value as? String == "<redacted>")
        #expect(!children.contains { ($0.value as? String) == pkce.verifier })
    }
}
