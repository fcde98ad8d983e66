import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPIdentityService {
    // MARK: - ID token validation

    /// Validates an ID token and returns its claims.
    ///
    /// Checks, in order: the compact form; `alg` is `RS256`, `RS384`, `RS512`, `PS256`, `PS384`,
    /// `PS512`, `ES256`, `ES384` or `ES512` (`none` and HMAC are refused); the signature against the
    /// JWKS key named by `kid`, which must be a key able to verify that algorithm (an RSA key
    /// verifies the three `RS` and the three `PS` ones, or only the `alg` its JWKS entry names; an
    /// EC key the one of its curve, P-256, P-384 or P-521; the JWKS is fetched again once when the
    /// `kid` is unknown); `iss` equals the discovered issuer (for a template issuer such as Entra
    /// ID's `…/{tenantid}/v2.0`: `tid` is present and a GUID, and `iss` is the template with
    /// `tid` in place of `{tenantid}`); `aud` contains the client id and, with
    /// several audiences, `azp` is present and equals it (`azp`, when present, must always equal
    /// it); `exp` is after now and `iat` not after now, and `nbf` (if present) not after now, all
    /// within ``HTTPServiceConfiguration/clockSkew``; `nonce` equals `nonce` when one is given.
    /// - Parameters:
    ///   - idToken: The compact ID token.
    ///   - nonce: The nonce the authorization request sent, or `nil` not to check it (refresh).
    /// - Returns: The claims.
    /// - Throws: ``ErrorCode/invalidServerResponse`` naming the failed check (never the token);
    ///   discovery and JWKS errors as the table in the type's discussion.
    package func validateIdToken(_ idToken: Redacted<String>, nonce: String?) async throws(IdentityFlowError) -> IdTokenInfo {
        try await validateIdToken(idToken, nonce: nonce, accessToken: nil)
    }

    /// Validates an ID token as ``validateIdToken(_:nonce:)`` does and, when it carries `at_hash`,
    /// checks it against the access token issued with it (OpenID Connect Core §3.1.3.6): the left
    /// half of the hash of the token's `alg` (SHA-256 for `RS256`, `PS256` and `ES256`, SHA-384 for
    /// `RS384`, `PS384` and `ES384`, SHA-512 for `RS512`, `PS512` and `ES512`).
    ///
    /// `serverDate` is the `Date` of the answer that carried the token. When a time check fails
    /// and the device's clock differs from it by more than the clock skew, the device's clock is
    /// to blame, not the token: the error is 9031 ``ErrorCode/invalidDateTime`` and says by how
    /// much, rather than 11001. The checks themselves always use the device's clock.
    func validateIdToken(_ idToken: Redacted<String>, nonce: String?, accessToken: Redacted<String>?, serverDate: Date? = nil) async throws(IdentityFlowError)
        -> IdTokenInfo
    {
        let token: JSONWebToken
        do { token = try JSONWebToken(compact: idToken.value) } catch {
            throw IdentityFlowError(.invalidServerResponse, "The ID token is not a compact JWS.")
        }
        guard let algorithm = token.algorithm, IdTokenSigningKey.algorithms.contains(algorithm) else {
            throw IdentityFlowError(
                .invalidServerResponse,
                "The ID token's algorithm '\(token.algorithm ?? "none")' is refused: only RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384 and ES512 are accepted."
            )
        }
        // FAPI 2.0 Security Profile §5.4.1: PS256, ES256 or EdDSA only (IdentityFlow verifies no EdDSA).
        if configuration.securityProfile == .fapi2, algorithm != "PS256", algorithm != "ES256" {
            throw IdentityFlowError(
                .invalidServerResponse, "The ID token's algorithm '\(algorithm)' is refused under the FAPI 2.0 profile, which allows PS256 and ES256 only.")
        }
        // RFC 7515 §4.1.11: a recipient must refuse a critical extension it does not understand, and it understands none.
        guard token.header["crit"] == nil else {
            throw IdentityFlowError(.invalidServerResponse, "The ID token names critical header extensions (crit), which are refused.")
        }
        let metadata = try await providerMetadata()
        let key = try await signingKey(for: token.keyID, algorithm: algorithm, metadata: metadata)
        guard key.verifies(token) else {
            throw IdentityFlowError(.invalidServerResponse, "The ID token's signature is invalid.")
        }
        let info = try IdTokenInfo(claims: token.claims)
        try check(info, issuer: metadata.issuer, nonce: nonce, serverDate: serverDate)
        if let accessToken, let atHash = token.claims["at_hash"] {
            // The left half of the alg's hash over the access token's ASCII, base64url-encoded
            // (every accepted alg has a hash; none would refuse the token).
            let digest = token.hashFunction?.hash(Array(accessToken.value.utf8)) ?? []
            guard !digest.isEmpty, let claimed = atHash.stringValue, claimed.hasSameBytes(as: Base64URL.encode(digest.prefix(digest.count / 2))) else {
                throw IdentityFlowError(.invalidServerResponse, "The ID token is not valid: its at_hash does not match the access token.")
            }
        }
        return info
    }

    /// Whether an ID token passes ``validateIdToken(_:nonce:)``.
    /// - Parameters:
    ///   - idToken: The compact ID token.
    ///   - nonce: The expected nonce, or `nil` not to check it.
    /// - Returns: `true` when it is valid; `false` for any failure, including network errors.
    package func isValidIdToken(_ idToken: Redacted<String>, nonce: String?) async -> Bool {
        do { _ = try await validateIdToken(idToken, nonce: nonce) } catch { return false }
        return true
    }

    private func check(_ info: IdTokenInfo, issuer: String, nonce: String?, serverDate: Date?) throws(IdentityFlowError) {
        func refuse(_ reason: String) -> IdentityFlowError {
            IdentityFlowError(.invalidServerResponse, "The ID token is not valid: \(reason).")
        }
        if let template = IssuerTemplate(issuer) {
            // A multi-tenant issuer: the token names its tenant, and its issuer is that tenant's.
            guard let tenant = info.claims["tid"]?.stringValue else { throw refuse("the issuer \(issuer) is a tenant template and it has no tid") }
            guard IssuerTemplate.isPlausibleTenantID(tenant) else { throw refuse("its tid is not a tenant id") }
            guard info.issuer.hasSameBytes(as: template.issuer(forTenant: tenant)) else {
                throw refuse("its issuer is not \(issuer) for its tenant (tid)")
            }
        } else {
            guard info.issuer.hasSameBytes(as: issuer) else { throw refuse("its issuer is not \(issuer)") }
        }
        let clientID = configuration.clientID
        guard info.audiences.contains(where: { $0.hasSameBytes(as: clientID) }) else { throw refuse("its audience does not include the client id") }
        if info.audiences.count > 1, info.authorizedParty == nil { throw refuse("it has several audiences and no azp") }
        if let azp = info.authorizedParty, !azp.hasSameBytes(as: clientID) { throw refuse("its azp is not the client id") }
        let now = now()
        let skew = configuration.clockSkew
        var timeProblem: String?
        if info.expiresAt.addingTimeInterval(skew) <= now {
            timeProblem = "it has expired"
        } else if info.issuedAt.addingTimeInterval(-skew) > now {
            timeProblem = "it was issued in the future"
        } else if let notBefore = info.notBefore, notBefore.addingTimeInterval(-skew) > now {
            timeProblem = "it is not valid yet (nbf)"
        }
        if let timeProblem {
            if let serverDate, abs(now.timeIntervalSince(serverDate)) > skew {
                throw IdentityFlowError(
                    .invalidDateTime,
                    "The device's clock is \(Self.clockOffset(now.timeIntervalSince(serverDate))) the server's (by the date of its answer), so the ID token it has just issued looks as if \(timeProblem). Set the date and time automatically and try again."
                )
            }
            throw refuse(timeProblem)
        }
        if let nonce, !(info.nonce?.hasSameBytes(as: nonce) ?? false) { throw refuse("its nonce is not the one sent") }
    }

    /// "5 minutes ahead of", "90 seconds behind".
    private static func clockOffset(_ seconds: TimeInterval) -> String {
        let size = abs(seconds)
        let amount = size >= 120 ? "\(Int(size / 60)) minutes" : "\(Int(size)) seconds"
        return "\(amount) \(seconds > 0 ? "ahead of" : "behind")"
    }

    // MARK: - JWKS

    /// The key for `kid` from the cached JWKS, fetching it when there is none or (once) when the
    /// `kid` is unknown. Without a `kid`, the JWKS must hold exactly one key able to verify
    /// `algorithm`. A key the JWKS lists without `kid` is never chosen by a token's `kid`, whatever
    /// the token names. The key must be able to verify `algorithm`: a token cannot have an RSA key
    /// read as an EC one, or the other way round, nor use an RSA key whose entry names another `alg`.
    private func signingKey(for keyID: String?, algorithm: String, metadata: OpenIDProviderMetadata) async throws(IdentityFlowError) -> IdTokenSigningKey {
        func pick(_ keys: JWKSKeys) -> IdTokenSigningKey? {
            if let keyID { return keys.named.first { $0.keyID.hasSameBytes(as: keyID) }?.key }
            let candidates = (keys.named.map(\.key) + keys.unnamed).filter { $0.canVerify(algorithm) }
            return candidates.count == 1 ? candidates.first : nil
        }
        var keys = cache.withLock({ $0.keys })
        var key = keys.flatMap(pick)
        if key == nil {
            let fetched = try await fetchKeys(metadata: metadata)
            cache.withLock { $0.keys = fetched }
            keys = fetched
            key = pick(fetched)
        }
        guard let key else {
            // A kid naming a key the client refuses (an RSA key under 2048 bits, say) is not a
            // missing kid: say what is wrong with the key.
            if let keyID, let refusal = keys?.refused.first(where: { $0.keyID.hasSameBytes(as: keyID) })?.reason {
                throw IdentityFlowError(.invalidServerResponse, "The ID token's kid names a JWKS key the client refuses: \(refusal).")
            }
            throw IdentityFlowError(
                .invalidServerResponse,
                keyID == nil
                    ? "The ID token names no kid and the JWKS does not hold exactly one \(algorithm) key."
                    : "The ID token's kid is not in the provider's JWKS.")
        }
        guard key.canVerify(algorithm) else {
            throw IdentityFlowError(
                .invalidServerResponse, "The ID token's kid names a key for \(key.algorithmList), not for the token's algorithm \(algorithm).")
        }
        return key
    }

    private func fetchKeys(metadata: OpenIDProviderMetadata) async throws(IdentityFlowError) -> JWKSKeys {
        guard let jwksURI = metadata.jwksURI else {
            throw IdentityFlowError(.configurationInvalid, "The provider names no jwks_uri, so ID tokens cannot be validated.")
        }
        var request = URLRequest(url: jwksURI)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let response = try await transport.send(request)
        guard response.status == 200 else { throw Self.statusError(response, context: "the JWKS") }
        guard let entries = try Self.jsonObject(response, context: "The JWKS")["keys"]?.arrayValue else {
            throw Self.malformed("The JWKS", member: "keys")
        }
        var keys = JWKSKeys()
        for entry in entries {
            guard let key = IdTokenSigningKey(jwk: entry) else {
                if let kid = entry["kid"]?.stringValue, let reason = IdTokenSigningKey.refusal(jwk: entry) { keys.refused.append((kid, reason)) }
                continue
            }
            if let kid = entry["kid"]?.stringValue { keys.named.append((kid, key)) } else { keys.unnamed.append(key) }
        }
        return keys
    }
}
