import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

@Suite("ID token validation")
struct IdTokenValidationTests {
    let vectors: IdTokenVectors

    init() throws { vectors = try IdTokenVectors.load() }

    @discardableResult
    private func withProvider<T>(
        jwks: @escaping @Sendable (Int) -> String? = { _ in nil },
        token: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply = { _ in .close },
        _ body: (HTTPIdentityService, LoopbackHTTPServer) async throws -> T
    ) async throws -> T {
        let vectors = vectors
        let provider = ScriptedProvider(issuer: vectors.issuer, jwks: { jwks($0) ?? vectors.jwksK1 }, token: token)
        let server = try LoopbackHTTPServer(maxRequests: 16, handler: provider.handler)
        defer { server.stop() }
        let service = try HTTPTestSupport.service(server, clientID: vectors.clientID, now: vectors.now)
        return try await body(service, server)
    }

    @Test("a valid RS256 ID token yields its claims")
    func validToken() async throws {
        let info = try await withProvider { service, _ in try await service.validateIdToken(try vectors.token("valid"), nonce: vectors.nonce) }
        #expect(info.subject == "user-1")
        #expect(info.issuer == vectors.issuer)
        #expect(info.audiences == [vectors.clientID])
        #expect(info.nonce == vectors.nonce)
        #expect(info.email == "alice@example.test")
        #expect(info.name == "Alice")
        #expect(info.expiresAt == Date(timeIntervalSince1970: 1_700_003_600))
        #expect(info.issuedAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(info.claims["sub"] == .string("user-1"))
        #expect(!info.description.contains(try vectors.token("valid").value))
    }

    @Test("strings are compared as bytes: a nonce with a Kelvin sign is not the nonce K1")
    func nonceBytes() async throws {
        let token = try vectors.token("kelvin_nonce")
        try await withProvider { service, _ in
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                _ = try await service.validateIdToken(token, nonce: "K1")
            }
            #expect(await service.isValidIdToken(token, nonce: "\u{212A}1"))
        }
    }

    @Test("an unknown crit header is refused")
    func critical() async throws {
        let token = try vectors.token("crit"), nonce = vectors.nonce
        try await withProvider { service, _ in
            let error = await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                _ = try await service.validateIdToken(token, nonce: nonce)
            }
            #expect(error?.message.contains("crit") == true)
        }
    }

    @Test("at_hash is checked against the access token when present")
    func accessTokenHash() async throws {
        let (right, wrong, nonce) = (try vectors.token("at_hash"), try vectors.token("at_hash_wrong"), vectors.nonce)
        try await withProvider { service, _ in
            _ = try await service.validateIdToken(right, nonce: nonce, accessToken: Redacted("at-1"))
            let error = await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                _ = try await service.validateIdToken(wrong, nonce: nonce, accessToken: Redacted("at-1"))
            }
            #expect(error?.message.contains("at_hash") == true)
        }
    }

    @Test("a JWKS key without kid is never chosen by a kid the token invents")
    func keyWithoutKid() async throws {
        let vectors = vectors
        let (invented, valid) = (try vectors.token("invented_kid"), try vectors.token("valid"))
        try await withProvider(jwks: { _ in vectors.jwksK1NoKid }) { service, _ in
            #expect(await !service.isValidIdToken(invented, nonce: vectors.nonce))
            #expect(await service.isValidIdToken(valid, nonce: vectors.nonce))
        }
    }

    @Test("tokens that pass only within the rules are accepted", arguments: ["multi_aud_azp", "expired_within_skew"])
    func acceptedEdgeCases(_ name: String) async throws {
        let valid = try await withProvider { service, _ in await service.isValidIdToken(try vectors.token(name), nonce: vectors.nonce) }
        #expect(valid)
    }

    @Test(
        "invalid ID tokens are refused with 11001",
        arguments: [
            "wrong_key", "tampered", "wrong_iss", "wrong_aud", "wrong_nonce", "no_nonce", "expired", "nbf_future", "iat_future",
            "multi_aud_no_azp", "wrong_azp", "alg_none", "hs256", "missing_sub", "unknown_kid",
        ])
    func invalidTokens(_ name: String) async throws {
        try await withProvider { service, _ in
            let token = try vectors.token(name)
            let error = await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.validateIdToken(token, nonce: vectors.nonce)
            }
            #expect(error.map { !$0.description.contains(token.value) } == true)
            #expect(await !service.isValidIdToken(token, nonce: vectors.nonce))
        }
    }

    @Test(
        "ES256: a P-256 key from the JWKS verifies the token, by kid or as the only ES256 key; the P-384 key beside it ES384",
        arguments: [
            "es256_valid", "es256_no_kid", "valid", "es384",
        ])
    func es256(_ name: String) async throws {
        let vectors = vectors
        let info = try await withProvider(jwks: { _ in vectors.jwksK1E1 }) { service, _ in
            try await service.validateIdToken(try vectors.token(name), nonce: vectors.nonce)
        }
        #expect(info.subject == "user-1")
        #expect(info.issuer == vectors.issuer)
    }

    @Test(
        "ES256 tokens are refused with 11001: wrong key, tampered, a DER signature, a kid naming an RSA key (and RS256 naming an EC key)",
        arguments: [
            "es256_wrong_key", "es256_tampered", "es256_der_signature", "es256_wrong_iss", "es256_rsa_kid", "rs256_ec_kid",
        ])
    func invalidES256(_ name: String) async throws {
        let vectors = vectors
        try await withProvider(jwks: { _ in vectors.jwksK1E1 }) { service, _ in
            let token = try vectors.token(name)
            let error = await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.validateIdToken(token, nonce: vectors.nonce)
            }
            #expect(error.map { !$0.description.contains(token.value) } == true)
        }
    }

    @Test(
        "a kid naming a key of the other type is refused before any signature check, saying so",
        arguments: [
            ("es256_rsa_kid", "a key for RS256, not for the token's algorithm ES256"), ("rs256_ec_kid", "a key for ES256, not for the token's algorithm RS256"),
        ])
    func keyTypeMismatch(_ name: String, _ message: String) async throws {
        let vectors = vectors
        let error = try await withProvider(jwks: { _ in vectors.jwksK1E1 }) { service, _ in
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.validateIdToken(try! vectors.token(name), nonce: vectors.nonce)
            }
        }
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test("a JWKS EC key that is not a P-256 point is passed over: its kid is as good as absent")
    func es256KeyOffCurve() async throws {
        let vectors = vectors
        var jwks = try #require(try JSONSerialization.jsonObject(with: Data(vectors.jwksK1E1.utf8)) as? [String: [[String: String]]])
        let index = try #require(jwks["keys"]?.firstIndex { $0["kid"] == "e1" })
        let y = try #require(jwks["keys"]?[index]["y"])
        // One character in the middle: still 32 well-formed bytes, no longer a point on the curve.
        var characters = Array(y)
        characters[10] = characters[10] == "A" ? "B" : "A"
        jwks["keys"]?[index]["y"] = String(characters)
        let broken = String(decoding: try JSONSerialization.data(withJSONObject: jwks), as: UTF8.self)
        let error = try await withProvider(jwks: { _ in broken }) { service, _ in
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.validateIdToken(try! vectors.token("es256_valid"), nonce: vectors.nonce)
            }
        }
        #expect(error?.message.contains("kid is not in the provider's JWKS") == true, "\(String(describing: error))")
    }

    @Test("an ES256 token without kid is refused when the JWKS holds no ES256 key")
    func es256WithoutKey() async throws {
        let error = try await withProvider { service, _ in
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.validateIdToken(try! vectors.token("es256_no_kid"), nonce: vectors.nonce)
            }
        }
        #expect(error?.message.contains("exactly one ES256 key") == true)
    }

    @Test("a token without nonce passes when no nonce is expected (refresh)")
    func nonceNotChecked() async throws {
        let valid = try await withProvider { service, _ in await service.isValidIdToken(try vectors.token("no_nonce"), nonce: nil) }
        #expect(valid)
    }

    @Test("an unknown kid makes the service fetch the JWKS again, once")
    func unknownKidRefetch() async throws {
        let vectors = vectors
        try await withProvider(jwks: { $0 == 1 ? vectors.jwksK1 : vectors.jwksK1K2 }) { service, server in
            let jwksFetches = { server.requests.filter { $0.path == "/o/jwks/" }.count }
            let (valid, validK2, unknownKid) = (try vectors.token("valid"), try vectors.token("valid_k2"), try vectors.token("unknown_kid"))
            #expect(await service.isValidIdToken(valid, nonce: vectors.nonce))
            #expect(jwksFetches() == 1)
            #expect(await service.isValidIdToken(valid, nonce: vectors.nonce))
            #expect(jwksFetches() == 1, "the JWKS is cached")
            #expect(await service.isValidIdToken(validK2, nonce: vectors.nonce))
            #expect(jwksFetches() == 2, "k2 was unknown: fetched again")
            #expect(await !service.isValidIdToken(unknownKid, nonce: vectors.nonce))
            #expect(jwksFetches() == 3, "k9 is unknown: one more fetch, then refused")
        }
    }

    @Test("the code exchange validates the ID token against the request's nonce and returns nothing when it fails")
    func exchangeValidates() async throws {
        let vectors = vectors
        let request = AuthorizationRequest(
            redirectURI: URL(string: "identityflow://callback")!, scopes: ["openid"],
            state: "s", nonce: vectors.nonce, codeVerifier: String(repeating: "v", count: 43))
        let names = Locked(["wrong_nonce", "alg_none", "valid"])
        try await withProvider(token: { request in
            let name = names.withLock { $0.removeFirst() }
            #expect(request.form["code_verifier"] == String(repeating: "v", count: 43))
            #expect(request.form["grant_type"] == "authorization_code")
            return HTTPTestSupport.tokenReply(idToken: vectors.tokens[name])
        }) { service, _ in
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.exchangeCode(Redacted("c1"), request: request)
            }
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.exchangeCode(Redacted("c2"), request: request)
            }
            let tokens = try await service.exchangeCode(Redacted("c3"), request: request)
            #expect(tokens.accessToken.value == "access-1")
            #expect(tokens.refreshToken?.value == "refresh-1")
            #expect(tokens.expiresAt == vectors.now.addingTimeInterval(300))
        }
    }

    /// What the token endpoint's `Date` header says in each case of ``deviceClock``.
    enum ServerDate: Sendable { case none, tokenTime, deviceTime }

    @Test(
        "a device clock off by more than the skew is named (9031, by how much), not blamed on the token; the refresh's tokens are revoked",
        arguments: [
            (7200.0, ServerDate.tokenTime, Optional("120 minutes ahead of")), (-7200, .tokenTime, "120 minutes behind"),
            (7200, .none, nil), (7200, .deviceTime, nil),
        ])
    func deviceClock(_ deviceOffset: TimeInterval, _ serverDate: ServerDate, _ wording: String?) async throws {
        let vectors = vectors
        let device = vectors.now.addingTimeInterval(deviceOffset)
        let dated: Date? =
            switch serverDate {
            case .none: nil
            case .tokenTime: vectors.now
            case .deviceTime: device
            }
        let revoked = Locked(0)
        let provider = ScriptedProvider(
            issuer: vectors.issuer, jwks: { _ in vectors.jwksK1 },
            token: { _ in
                var headers = ["Content-Type": "application/json"]
                if let dated { headers["Date"] = Self.httpDate(dated) }
                let body = #"{"access_token": "access-1", "token_type": "Bearer", "refresh_token": "refresh-2", "id_token": "\#(vectors.tokens["valid"]!)"}"#
                return .response(status: 200, headers: headers, body: Data(body.utf8))
            },
            extra: { request in
                guard request.path == "/o/revoke/" else { return nil }
                revoked.withLock { $0 += 1 }
                return .response(status: 200, headers: [:], body: Data())
            })
        let server = try LoopbackHTTPServer(maxRequests: 16, handler: provider.handler)
        defer { server.stop() }
        let service = try HTTPTestSupport.service(server, clientID: vectors.clientID, now: device)
        let request = AuthorizationRequest(
            redirectURI: URL(string: "identityflow://callback")!, scopes: ["openid"],
            state: "s", nonce: vectors.nonce, codeVerifier: String(repeating: "v", count: 43))
        let expected: ErrorCode = wording == nil ? .invalidServerResponse : .invalidDateTime
        let exchange = await HTTPTestSupport.expectError(expected) { () throws(IdentityFlowError) in
            try await service.exchangeCode(Redacted("c"), request: request)
        }
        let refresh = await HTTPTestSupport.expectError(expected) { () throws(IdentityFlowError) in try await service.refresh(Redacted("refresh-1")) }
        if let wording {
            #expect(exchange?.message.contains(wording) == true, "\(String(describing: exchange))")
            #expect(refresh?.message.contains(wording) == true)
        }
        #expect(revoked.current == 4, "the refused answers' refresh and access tokens, twice")
    }

    private static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    @Test(
        "the Date header is read in its standard form only",
        arguments: [
            ("Sun, 06 Nov 1994 08:49:37 GMT", Optional(784_111_777.0)), ("Sunday, 06-Nov-94 08:49:37 GMT", nil), ("Sun, 06 Nov 1994 08:49:37 CET", nil),
            ("Sun, 32 Nov 1994 08:49:37 GMT", nil), ("Sun, 06 Nov 1994 24:00:00 GMT", nil), ("", nil),
        ])
    func dateHeader(_ value: String, _ seconds: TimeInterval?) {
        let response = HTTPResponse(status: 200, mediaType: nil, body: Data(), headers: ["date": value])
        #expect(response.date == seconds.map(Date.init(timeIntervalSince1970:)))
    }

    @Test("a code exchange without ID token is refused when openid was asked for")
    func missingIdToken() async throws {
        try await withProvider(token: { _ in HTTPTestSupport.tokenReply(idToken: nil) }) { service, _ in
            await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.exchangeCode(Redacted("c"), request: HTTPTestSupport.request)
            }
        }
    }

    @Test("refresh: a rotated refresh token replaces the old one, a missing one keeps it")
    func refreshRotation() async throws {
        let replies = Locked<[String?]>(["refresh-2", nil])
        try await withProvider(token: { request in
            #expect(request.form["grant_type"] == "refresh_token")
            return HTTPTestSupport.tokenReply(idToken: nil, refreshToken: replies.withLock { $0.removeFirst() })
        }) { service, _ in
            let rotated = try await service.refresh(Redacted("refresh-1"))
            #expect(rotated.refreshToken?.value == "refresh-2")
            let kept = try await service.refresh(Redacted("refresh-2"))
            #expect(kept.refreshToken?.value == "refresh-2")
        }
    }

    @Test("a token whose kid names a key the client refuses as too small says so, with the key's size")
    func refusedSmallKeyIsNamed() async throws {
        // A 1024-bit RSA modulus (top bit set, odd): below RFC 7518's 2048 bits.
        var modulus = [UInt8](repeating: 0x5A, count: 128)
        modulus[0] = 0xC3
        modulus[127] = 0x01
        let jwks = #"{"keys": [{"kty": "RSA", "kid": "small", "use": "sig", "alg": "RS256", "e": "AQAB", "n": "\#(Base64URL.encode(modulus))"}]}"#
        let token = Redacted(Base64URL.encode(Array(#"{"alg":"RS256","kid":"small"}"#.utf8)) + "." + Base64URL.encode(Array(#"{"sub":"a"}"#.utf8)) + ".c2ln")
        try await withProvider(jwks: { _ in jwks }) { service, _ in
            let error = await HTTPTestSupport.expectError(.invalidServerResponse) { () throws(IdentityFlowError) in
                try await service.validateIdToken(token, nonce: nil)
            }
            let message = error?.message ?? ""
            #expect(message.contains("1024"), "\(message)")
            #expect(message.contains("2048"), "\(message)")
            #expect(!message.contains("is not in the provider's JWKS"), "\(message)")
        }
    }
}
