import Foundation
import Testing
@testable import IdentityFlow

/// Duplicate member names are refused where tokens and server answers are parsed: parsers
/// disagree on which value wins.
@Suite("JSON duplicate member names")
struct JSONDuplicateKeysTests {
    @Test("duplicates are found at any depth, after unescaping; distinct names and malformed JSON are told apart", arguments: [
        (#"{"a": 1, "b": 2}"#, JSONDuplicateKeys.Finding.none),
        (#"{"a": 1, "a": 2}"#, .duplicate("a")),
        (#"{"a": 1, "\u0061": 2}"#, .duplicate("a")),
        (#"{"x": {"sub": "u1", "sub": "u2"}}"#, .duplicate("sub")),
        (#"[{"k": 1}, {"k": 2}]"#, .none),
        (#"{"k": [1, {"a": true, "a": null}]}"#, .duplicate("a")),
        (#"{"\u212A": 1, "K": 2}"#, .none),
        (#"{"a": "}\"{", "b": [ ] , "c": { } }"#, .none),
        (#"{"a": 1"#, .malformed),
        (#"{"a" 1}"#, .malformed),
        (#""just a string""#, .none),
        ("", .malformed),
    ])
    func find(_ text: String, _ expected: JSONDuplicateKeys.Finding) {
        #expect(JSONDuplicateKeys.find(in: Array(text.utf8)) == expected, "\(text)")
    }

    @Test("deep nesting is malformed, not a crash")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONDuplicateKeys.find(in: Array(deep.utf8)) == .malformed)
    }

    @Test("a server answer or a token payload naming a member twice is refused")
    func refusedWhereParsed() throws {
        let response = HTTPResponse(status: 200, mediaType: "application/json", body: Data(#"{"access_token": "a", "access_token": "b"}"#.utf8))
        #expect(throws: IdentityFlowError.self) { try HTTPIdentityService.jsonObject(response, context: "The token response") }
        let header = Base64URL.encode(Array(#"{"alg":"RS256"}"#.utf8))
        let payload = Base64URL.encode(Array(#"{"sub":"alice","sub":"mallory"}"#.utf8))
        #expect(throws: CryptoError.self) { try JSONWebToken(compact: "\(header).\(payload).c2ln") }
    }
}
