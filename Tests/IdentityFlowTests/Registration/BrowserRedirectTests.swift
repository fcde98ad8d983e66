import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

@Suite("Browser redirect checks")
struct BrowserRedirectTests {
    static func request(_ redirectURI: String = "app://callback") -> AuthorizationRequest {
        AuthorizationRequest(
            redirectURI: URL(string: redirectURI)!, scopes: ["openid"], state: "s 1/é", nonce: "n", codeVerifier: String(repeating: "v", count: 43))
    }

    static func check(_ url: String, _ redirectURI: String = "app://callback") -> BrowserRedirect {
        BrowserRedirect.check(URL(string: url)!, against: request(redirectURI))
    }

    @Test(
        "scheme and host compare case-insensitively, a missing port is the default one, trailing slashes never matter",
        arguments: [
            ("APP://Callback/?code=C&state=s%201%2F%C3%A9", "app://callback"),
            ("https://h.example/cb?code=C&state=s%201%2F%C3%A9", "https://h.example:443/cb/"),
            ("http://h.example:80/cb//?code=C&state=s%201%2F%C3%A9", "HTTP://H.EXAMPLE/cb"),
            ("app://callback/c%62?code=C&state=s%201%2F%C3%A9", "app://callback/cb"),
        ])
    func matches(url: String, redirectURI: String) {
        #expect(Self.check(url, redirectURI) == .authorized(code: Redacted("C"), issuer: nil))
    }

    @Test("the state compares as bytes: a canonically equivalent spelling (e + combining accent) is not the state sent")
    func stateBytes() {
        #expect(Self.check("app://callback?code=C&state=s%201%2Fe%CC%81") == .stateMismatch)
        #expect(BrowserRedirect.belongs(URL(string: "app://callback?state=s%201%2F%C3%A9")!, state: "s 1/é", redirectURI: URL(string: "app://callback")!))
        #expect(!BrowserRedirect.belongs(URL(string: "app://callback?state=s%201%2Fe%CC%81")!, state: "s 1/é", redirectURI: URL(string: "app://callback")!))
    }

    @Test(
        "any other scheme, host, port or path is a redirect mismatch",
        arguments: [
            ("other://callback?code=C&state=s%201%2F%C3%A9", "app://callback"),
            ("app://elsewhere?code=C&state=s%201%2F%C3%A9", "app://callback"),
            ("app://callback/deeper?code=C&state=s%201%2F%C3%A9", "app://callback"),
            ("https://h.example:444/cb?code=C&state=s%201%2F%C3%A9", "https://h.example/cb"),
            ("http://h.example/cb?code=C&state=s%201%2F%C3%A9", "https://h.example/cb"),
            ("https://h.example/CB?code=C&state=s%201%2F%C3%A9", "https://h.example/cb"),
            ("app:callback?code=C&state=s%201%2F%C3%A9", "app://callback"),
        ])
    func mismatches(url: String, redirectURI: String) {
        #expect(Self.check(url, redirectURI) == .redirectMismatch)
    }

    @Test("a relative URL is judged by its own part, not resolved against its base")
    func relativeURL() {
        let url = URL(string: "?code=C&state=s%201%2F%C3%A9", relativeTo: URL(string: "app://callback")!)!
        #expect(BrowserRedirect.check(url, against: Self.request()) == .redirectMismatch)
    }

    @Test(
        "the state must be the one sent, exactly; the first of repeated items counts",
        arguments: [
            "app://callback?code=C", "app://callback?code=C&state=", "app://callback?code=C&state=s+1%2F%C3%A9+",
            "app://callback?code=C&state=s%201%2F%C3%A9x", "app://callback?code=C&state=forged&state=s%201%2F%C3%A9",
            "app://callback?code=C&state", "app://callback?code=C&State=s%201%2F%C3%A9",
        ])
    func stateMismatch(url: String) {
        #expect(Self.check(url) == .stateMismatch)
    }

    @Test("an error wins over a code; a missing or empty code is malformed")
    func errorsAndCodes() {
        #expect(
            Self.check("app://callback?state=s%201%2F%C3%A9&error=access_denied&error_description=no%20way&code=C")
                == .denied(error: "access_denied", description: "no way"))
        #expect(Self.check("app://callback?state=s%201%2F%C3%A9&error") == .denied(error: "", description: nil))
        #expect(Self.check("app://callback?state=s%201%2F%C3%A9") == .malformed)
        #expect(Self.check("app://callback?state=s%201%2F%C3%A9&code=") == .malformed)
        #expect(Self.check("app://callback?state=s%201%2F%C3%A9&code=a%2Bb&code=other") == .authorized(code: Redacted("a+b"), issuer: nil))
    }

    @Test("redirect query values are form-decoded (RFC 6749 Appendix B): + is a space, %2B a plus")
    func plusIsSpace() {
        #expect(
            Self.check("app://callback?state=s+1%2F%C3%A9&error=access_denied&error_description=The+resource+owner+denied+the+request")
                == .denied(error: "access_denied", description: "The resource owner denied the request"))
        #expect(Self.check("app://callback?state=s+1%2F%C3%A9&code=a%2Bb+c") == .authorized(code: Redacted("a+b c"), issuer: nil))
        #expect(Self.check("app://callback?code=C&state=s%2B1%2F%C3%A9") == .stateMismatch, "%2B is a plus, not a space")
        #expect(BrowserRedirect.belongs(URL(string: "app://callback?code=C&state=s+1%2F%C3%A9")!, state: "s 1/é", redirectURI: URL(string: "app://callback")!))
        #expect(Self.check("app://callback?st+ate=x&state=s%201%2F%C3%A9&code=C") == .authorized(code: Redacted("C"), issuer: nil))
    }
}
