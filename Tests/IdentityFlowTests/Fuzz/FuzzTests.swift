import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
import Statechart
#if canImport(StatechartExport)
import StatechartExport
#endif

/// Hostile input never traps: each parser gives a result or its documented error, whatever the bytes.
///
/// The short run belongs to the normal suite; `scripts/fuzz.sh` runs the same targets much longer.
@Suite("Fuzz: no trap on any input")
struct FuzzTests {
    static let jsonSeeds = [
        #"{"access_token":"a.b.c","token_type":"Bearer","expires_in":3600,"refresh_token":"r","id_token":"x.y.z","scope":"openid profile"}"#,
        #"{"keys":[{"kty":"RSA","kid":"k1","use":"sig","alg":"RS256","n":"0vx7agoebGcQ","e":"AQAB"}]}"#,
        #"{"issuer":"https://idp.test","authorization_endpoint":"https://idp.test/a","jwks_uri":"https://idp.test/j","response_types_supported":["code"]}"#,
        #"{"error":"invalid_grant","error_description":"x \u00e9 \ud83d\ude00 \n"}"#,
        #"[1,-0.5e-3,true,false,null,"",{},[[]],{"a":{"b":[1E2]}}]"#,
    ]
    static let jsonDictionary = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800", "\\udc00", "\\u0000", "\"a\":1", "\"a\":", "null", "true",
        "false", "-", "0", "1e400", "1e-400", "1.", ".5", "E", "+", " ", "\t", "\n", "\u{FEFF}", "[[[[[[[[[[[[", "]]]]]]]]]]]]",
    ]

    /// JSONDecoder refuses some valid JSON (`0E2` on Linux), so only values both read are compared.
    @Test("JSON: the strict parser returns nil or a value that survives re-encoding and that JSONDecoder, when it reads it, reads the same")
    func json() {
        Fuzzer.run("json", seeds: Self.jsonSeeds, dictionary: Self.jsonDictionary) { input in
            guard let value = StrictJSONParser.parse(input) else { return nil }
            if let decoded = try? JSONDecoder().decode(JSONValue.self, from: Data(input)), decoded != value {
                return "JSONDecoder reads \(decoded), the parser \(value)"
            }
            guard let encoded = try? JSONEncoder().encode(value), StrictJSONParser.parse(encoded) == value else { return "re-encoding changes \(value)" }
            return nil
        }
    }

    static let headerJSON = #"{"alg":"RS256","kid":"k1","typ":"JWT"}"#
    static let claimsJSON = #"{"iss":"https://idp.test","sub":"alice","aud":["c"],"exp":1700000000,"nonce":"n"}"#
    static let header = Base64URL.encode(Array(headerJSON.utf8))
    static let claims = Base64URL.encode(Array(claimsJSON.utf8))

    @Test("JWT: a compact token decodes, or throws malformedToken")
    func jwtCompact() {
        let seeds = ["\(Self.header).\(Self.claims).c2ln", "\(Self.header).\(Self.claims).", "eyJhbGciOiJub25lIn0.e30."]
        Fuzzer.run("jwt-compact", seeds: seeds, dictionary: [".", "=", "+", "/", "-", "_", "eyJ", "e30", " "]) { input in
            Self.tokenFailure(String(decoding: input, as: UTF8.self))
        }
    }

    @Test("JWT: mutated header and claims decode exactly as the strict parser reads them, or throw malformedToken")
    func jwtParts() {
        let seeds = [Self.headerJSON, Self.claimsJSON, #"{"alg":"none"}"#, #"{"alg":"RS256","crit":["exp"]}"#] + Self.jsonSeeds
        let header = StrictJSONParser.parse(Array(Self.headerJSON.utf8))?.objectValue
        let claims = StrictJSONParser.parse(Array(Self.claimsJSON.utf8))?.objectValue
        Fuzzer.run("jwt-header", seeds: seeds, dictionary: Self.jsonDictionary) { input in
            Self.partsFailure("\(Base64URL.encode(input)).\(Self.claims).c2ln", header: StrictJSONParser.parse(input)?.objectValue, claims: claims)
        }
        Fuzzer.run("jwt-claims", seeds: seeds, dictionary: Self.jsonDictionary) { input in
            Self.partsFailure("\(Self.header).\(Base64URL.encode(input)).c2ln", header: header, claims: StrictJSONParser.parse(input)?.objectValue)
        }
    }

    /// Why decoding `compact` broke the contract (a value or ``CryptoError/Code/malformedToken``), or `nil`.
    static func tokenFailure(_ compact: String) -> String? {
        do {
            _ = try JSONWebToken(compact: compact)
            return nil
        } catch let error as CryptoError {
            return error.code == .malformedToken ? nil : "unexpected code \(error.code)"
        } catch {
            return "undocumented error \(error)"
        }
    }

    /// Why decoding `compact`, whose parts the strict parser reads as `header` and `claims`, broke the contract, or `nil`.
    static func partsFailure(_ compact: String, header: [String: JSONValue]?, claims: [String: JSONValue]?) -> String? {
        guard let header, let claims else {
            return (try? JSONWebToken(compact: compact)) == nil ? tokenFailure(compact) : "accepted a part that is not a JSON object"
        }
        guard let token = try? JSONWebToken(compact: compact) else { return "refused valid parts" }
        return token.header == header && token.claims == claims ? nil : "parts read differently"
    }

    @Test(
        "Signatures: a mutated RS384, RS512, PS256, PS384, PS512, ES384 or ES512 token verifies only if its signing input and signature bytes are a valid seed's"
    )
    func signatures() throws {
        let vectors = try IdTokenVectors.load(), pss = try PSSIdTokenVectors.load(), ec = try ECIdTokenVectors.load()
        let seeds =
            try ["rs384_valid", "rs512_valid"].map { try vectors.token($0).value }
            + ["ps256_valid", "ps384_valid", "ps512_valid"].map { try pss.token($0).value }
            + ["es384_valid", "es512_valid"].map { try ec.token($0).value }
        let originals = try seeds.map { try JSONWebToken(compact: $0) }
        // r1 and p1, RSA keys whose JWKs name no alg: each verifies all six RS and PS algorithms;
        // q1 (P-384) verifies ES384, q2 (P-521) ES512.
        let jwks = [vectors.jwksR1, pss.jwksP1, ec.jwksEC]
        let keys = jwks.flatMap { jwks in
            (StrictJSONParser.parse(Array(jwks.utf8))?["keys"]?.arrayValue ?? []).prefix(2).compactMap(IdTokenSigningKey.init(jwk:))
        }
        #expect(keys.count == 4 && originals.allSatisfy { token in keys.contains { $0.verifies(token) } }, "every seed verifies under its key")
        Fuzzer.run("signatures", seeds: seeds, dictionary: [".", "-", "_", "A", "eyJ", "RS512", "PS256", "PS384", "ES384", "ES512", "AAAA", "____"]) { input in
            guard let token = try? JSONWebToken(compact: String(decoding: input, as: UTF8.self)), keys.contains(where: { $0.verifies(token) }) else {
                return nil
            }
            let isOriginal = originals.contains { $0.signingInput == token.signingInput && $0.signature == token.signature }
            return isOriginal ? nil : "a mutated token verified"
        }
    }

    @Test("Configuration: the loader gives a usable configuration or configurationInvalid, and no number loosens validation")
    func configuration() {
        let json =
            #"{"issuer":"https://idp.test","client_id":"c","redirect_uri":"app://cb","scopes":["openid"],"clock_skew_seconds":60,"request_timeout_seconds":30,"max_response_body_bytes":1048576}"#
        let plist =
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>issuer</key><string>https://idp.test</string><key>client_id</key><string>c</string><key>redirect_uri</key><string>app://cb</string><key>clock_skew_seconds</key><real>60</real><key>max_response_body_bytes</key><integer>1048576</integer></dict></plist>"#
        let dictionary = [
            "1e300", "-1e300", "nan", "inf", "-inf", "1e-300", "0", "-1", "301", "300", "9223372036854775808", "<real>", "</real>", "<integer>",
            "</integer>", "<true/>", "<string>", "<array>", "<dict>", "\"clock_skew_seconds\":", "\"request_timeout_seconds\":",
            "\"max_response_body_bytes\":", "\"discovery_url\":", "\"extension_base_url\":", "http://", "https://", "null", "true", "[]", "{}",
        ]
        Fuzzer.run("configuration", seeds: [json, plist], dictionary: dictionary) { input in
            let configuration: HTTPServiceConfiguration
            do throws(IdentityFlowError) {
                configuration = try HTTPServiceConfiguration(data: Data(input))
            } catch {
                return error.code == .configurationInvalid ? nil : "unexpected code \(error.code)"
            }
            if let problem = configuration.problem { return problem.code == .configurationInvalid ? nil : "unexpected code \(problem.code)" }
            guard (0...HTTPServiceConfiguration.maximumClockSkew).contains(configuration.clockSkew) else { return "accepted skew \(configuration.clockSkew)" }
            guard configuration.requestTimeout > 0, configuration.requestTimeout.isFinite else { return "accepted timeout \(configuration.requestTimeout)" }
            guard configuration.maxResponseBodySize >= 1024 else { return "accepted body cap \(configuration.maxResponseBodySize)" }
            return nil
        }
    }

    @Test("SCXML: the reader gives a chart or an SCXMLReadError")
    func scxml() {
        let chart = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- swift-type: Door -->
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="door" initial="closed">
              <state id="closed"><transition event="open" cond="unlocked" target="open"/></state>
              <state id="open"><transition event="x&lt;y &amp; &quot;z&quot;" target="closed"/><transition event="break" target="gone"/></state>
              <final id="gone"/>
            </scxml>
            """
        let dictionary = [
            "<state id=\"a\">", "</state>", "<final id=\"b\"/>", "<transition event=\"e\" target=\"a\"/>", "<parallel>", "<scxml>", "</scxml>",
            "<!DOCTYPE s [<!ENTITY x SYSTEM \"file:///etc/hostname\">]>", "&x;", "<?a?>", "<?xml version=\"1.0\"?>", "<!--", "-->", "<![CDATA[", "]]>",
            "&amp;", "&#0;", "&#x10FFFF;", "xmlns=\"\"", "xmlns:a=\"b\"", "a:", "<", ">", "/>", "\"", "=",
        ]
        Fuzzer.run("scxml", seeds: [chart], dictionary: dictionary) { input in
            do throws(SCXMLReadError) {
                _ = try SCXMLReader().read(String(decoding: input, as: UTF8.self))
            } catch {
                _ = error.description
            }
            return nil
        }
    }

    @Test("Redirects: any URL is checked to one of the outcomes, and query items survive a round trip")
    func redirect() {
        let request = AuthorizationRequest(redirectURI: URL(string: "app://callback")!, scopes: ["openid"], state: "s-1", nonce: "n", codeVerifier: "v")
        let seeds = [
            "app://callback?code=C&state=s-1", "app://callback/?error=access_denied&error_description=no%20way&state=s-1",
            "APP://CALLBACK:0/?state=s-1&code=%E2%82%AC#frag", "app://callback?state=s-1&state=s-2&code=", "https://evil.test/callback?code=C&state=s-1",
        ]
        let dictionary = ["?", "&", "=", "#", "%", "%2", "%00", "%C3%28", "+", "state=s-1", "code=", "error=", "//", "@", ":", "[::1]", "\\", " "]
        Fuzzer.run("redirect", seeds: seeds, dictionary: dictionary) { input in
            let text = String(decoding: input, as: UTF8.self)
            if let url = URL(string: text) {
                let outcome = BrowserRedirect.check(url, against: request)
                if case .authorized(let code, _) = outcome, code.value.isEmpty { return "authorized an empty code" }
                if outcome != .redirectMismatch, outcome != .stateMismatch, URLQuery.items(of: url) == nil { return "\(outcome) without a query" }
            }
            let name = String(text.prefix(8)), value = String(text.dropFirst(8))
            guard let built = URLQuery.url(URL(string: "app://callback")!, appending: [(name, value)]) else { return "could not append \(name)=\(value)" }
            guard let items = URLQuery.items(of: built), items.count == 1, items[0].name == name, items[0].value == value else {
                return "query items changed on the way through: \(URLQuery.items(of: built) ?? [])"
            }
            return nil
        }
    }
}
