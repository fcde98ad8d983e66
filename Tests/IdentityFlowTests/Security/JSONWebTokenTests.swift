import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

@Suite("JSON Web Token decoding and RS256 verification")
struct JSONWebTokenTests {
    private func vectors() throws -> (document: RSAVectorDocument, key: RSAPublicKey, token: String) {
        let document = try RSAVectorDocument.load(from: RSAVectorDocument.committedURL)
        let vector = try #require(document.tokens.first { $0.valid })
        let jwk = try #require(document.keys.first { $0.name == vector.key })
        return (document, try RSAPublicKey(jwkModulus: jwk.n, jwkExponent: jwk.e), vector.token)
    }

    @Test("A Python-signed RS256 ID token decodes with every JSON type and verifies")
    func validToken() throws {
        let (document, key, compact) = try vectors()
        let token = try JSONWebToken(compact: compact)
        #expect(token.header["typ"] == "JWT")
        #expect(token.algorithm == "RS256")
        #expect(token.claims == document.jwtClaims)
        #expect(token.claims["sub"]?.stringValue == "alice")
        #expect(token.claims["exp"]?.intValue == 1_893_456_000)
        #expect(token.claims["score"]?.doubleValue == 12.5)
        #expect(token.claims["email_verified"]?.boolValue == true)
        #expect(token.claims["aud"]?.arrayValue?.compactMap(\.stringValue) == ["identityflow-client", "other"])
        #expect(token.claims["address"]?["locality"]?.isNull == true)
        #expect(token.claims["address"]?["country"] == "NL")
        #expect(token.claims["name"]?.stringValue == "Alice \u{e9}\u{6771}\u{4eac} \u{1F511}")
        let parts = compact.split(separator: ".")
        #expect(token.signingInput == Array("\(parts[0]).\(parts[1])".utf8))
        #expect(token.signature.count == 256)
        #expect(token.verifyRS256(with: key))
    }

    @Test("alg none, HS256 and other algorithms are refused even with a valid RSA signature")
    func refusedAlgorithms() throws {
        let (_, key, compact) = try vectors()
        let parts = compact.split(separator: ".").map(String.init)
        let signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(key.isValidSignature(signature, for: signingInput))
        for alg in ["none", "None", "HS256", "RS512", "PS256", "rs256", "RS256 "] {
            let header = Base64URL.encode(Array("{\"alg\":\"\(alg)\",\"typ\":\"JWT\"}".utf8))
            let token = try JSONWebToken(compact: "\(header).\(parts[1]).\(parts[2])")
            #expect(!token.verifyRS256(with: key), "alg \(alg)")
        }
        let noAlg = Base64URL.encode(Array("{\"typ\":\"JWT\"}".utf8))
        #expect(!(try JSONWebToken(compact: "\(noAlg).\(parts[1]).\(parts[2])")).verifyRS256(with: key))
        let numericAlg = Base64URL.encode(Array("{\"alg\":256}".utf8))
        #expect(!(try JSONWebToken(compact: "\(numericAlg).\(parts[1]).\(parts[2])")).verifyRS256(with: key))
    }

    @Test("An unsecured token decodes with an empty signature and never verifies")
    func unsecuredToken() throws {
        let (_, key, compact) = try vectors()
        let header = Base64URL.encode(Array("{\"alg\":\"none\"}".utf8))
        let payload = compact.split(separator: ".")[1]
        let token = try JSONWebToken(compact: "\(header).\(payload).")
        #expect(token.signature.isEmpty)
        #expect(token.algorithm == "none")
        #expect(!token.verifyRS256(with: key))
    }

    @Test(
        "Malformed tokens throw malformedToken",
        arguments: [
            "", ".", "..", "a.b", "a.b.c.d", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0",
            // Not base64url (+, padding, whitespace).
            "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.ab+c", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0=.abc",
            "eyJhbGciOiJSUzI1NiJ9 .eyJzdWIiOiJhIn0.abc",
            // Header or payload not JSON, or JSON but not an object.
            "bm90IGpzb24.eyJzdWIiOiJhIn0.abc", "eyJhbGciOiJSUzI1NiJ9.WzEsMiwzXQ.abc", "eyJhbGciOiJSUzI1NiJ9.ImFiYyI.abc",
            "eyJhbGciOiJSUzI1NiJ9.bnVsbA.abc", ".eyJzdWIiOiJhIn0.abc", "eyJhbGciOiJSUzI1NiJ9..abc",
            // A repeated member name in the header ({"alg":"none","alg":"RS256"}) or the claims ({"sub":"a","sub":"b"}).
            "eyJhbGciOiJub25lIiwiYWxnIjoiUlMyNTYifQ.eyJzdWIiOiJhIn0.abc", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIiwic3ViIjoiYiJ9.abc",
        ])
    func malformed(compact: String) {
        let error = #expect(throws: CryptoError.self) { try JSONWebToken(compact: compact) }
        #expect(error?.code == .malformedToken)
    }

    @Test("Descriptions and dumps show the algorithm but never the claims or signature")
    func redaction() throws {
        let (_, _, compact) = try vectors()
        let token = try JSONWebToken(compact: compact)
        var dumped = ""
        dump(token, to: &dumped)
        for rendering in [token.description, token.debugDescription, String(reflecting: token), dumped] {
            #expect(rendering.contains("RS256"))
            #expect(!rendering.contains("alice"))
            #expect(!rendering.contains("nonce"))
            #expect(rendering.contains("<redacted>"))
        }
    }
}

@Suite("JSONValue")
struct JSONValueTests {
    @Test("Decodes each JSON type to its case, and encodes back")
    func roundTrip() throws {
        let text = #"{"s":"x","i":1,"f":-2.5,"t":true,"f2":false,"n":null,"a":[1,"two",[]],"o":{"k":{}}}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        let expected: JSONValue = ["s": "x", "i": 1, "f": -2.5, "t": true, "f2": false, "n": nil, "a": [1, "two", []], "o": ["k": [:]]]
        #expect(value == expected)
        #expect(value["i"]?.boolValue == nil)
        #expect(value["t"]?.doubleValue == nil)
        #expect(value["i"]?.intValue == 1)
        #expect(value["f"]?.intValue == nil)
        #expect(value["a"]?[""] == nil)
        let reencoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        #expect(reencoded == value)
    }
}

@Suite("Strict JSON parser")
struct StrictJSONParserTests {
    @Test("Reads what JSONDecoder reads, for every JSON type")
    func agreesWithJSONDecoder() throws {
        let text = #"{"s":"x\u00e9\ud83d\ude00\n\"\/","i":1,"f":-2.5e-3,"t":true,"f2":false,"n":null,"a":[1,"two",[]],"o":{"k":{}}}"#
        let expected = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(StrictJSONParser.parse(Array(text.utf8)) == expected)
        #expect(StrictJSONParser.parse(Array(" \u{FEFF}[0]".utf8)) == nil)
        #expect(StrictJSONParser.parse([0xEF, 0xBB, 0xBF] + Array(" [0] ".utf8)) == [0])
        #expect(StrictJSONParser.parse(Array("[0E2,-0e-0,1E+2]".utf8)) == [0, 0, 100])
    }

    @Test(
        "Refuses repeated member names, at any depth",
        arguments: [
            #"{"a":1,"a":1}"#, #"{"a":1,"b":{"c":1,"c":2}}"#, #"[{"x":null,"x":null}]"#, #"{"\u0061":1,"a":2}"#,
        ])
    func refusesDuplicates(text: String) {
        #expect(StrictJSONParser.parse(Array(text.utf8)) == nil)
    }

    @Test(
        "Reads the same name in different objects, and braces and quotes inside strings",
        arguments: [
            #"[{"k": 1}, {"k": 2}]"#, #"{"a": "}\"{", "b": [ ] , "c": { } }"#, #"{"x": {"k": 1}, "k": 2}"#,
        ])
    func distinctNames(text: String) {
        #expect(StrictJSONParser.parse(Array(text.utf8)) != nil)
    }

    @Test("A server answer or a token payload naming a member twice is refused where it is parsed")
    func duplicatesRefusedWhereParsed() throws {
        let response = HTTPResponse(status: 200, mediaType: "application/json", body: Data(#"{"access_token": "a", "access_token": "b"}"#.utf8))
        #expect(throws: IdentityFlowError.self) { try HTTPIdentityService.jsonObject(response, context: "The token response") }
        let header = Base64URL.encode(Array(#"{"alg":"RS256"}"#.utf8))
        let payload = Base64URL.encode(Array(#"{"sub":"alice","sub":"mallory"}"#.utf8))
        #expect(throws: CryptoError.self) { try JSONWebToken(compact: "\(header).\(payload).c2ln") }
    }

    @Test(
        "Refuses what is not exactly one RFC 8259 value",
        arguments: [
            "", " ", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "1e", "+1", "1e400", "NaN", "tru", "nul", "[1] 2",
            "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\x\"", "\"\t\"", "\"abc", "{1:2}", "[\"\\u12\"]",
        ])
    func refusesInvalid(text: String) {
        #expect(StrictJSONParser.parse(Array(text.utf8)) == nil)
    }

    @Test("Refuses invalid UTF-8 and nesting deeper than the limit, without recursing further")
    func refusesBadBytesAndDeepNesting() {
        #expect(StrictJSONParser.parse([0x22, 0xC3, 0x28, 0x22]) == nil)
        let limit = StrictJSONParser.maximumDepth
        #expect(StrictJSONParser.parse(Array((String(repeating: "[", count: limit) + String(repeating: "]", count: limit)).utf8)) != nil)
        #expect(StrictJSONParser.parse(Array((String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)).utf8)) == nil)
        #expect(StrictJSONParser.parse(Array(String(repeating: "[", count: 100_000).utf8)) == nil)
    }
}
