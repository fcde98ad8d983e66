import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPIdentityService {
    /// Whether this sign-in's tokens are to be DPoP-bound (RFC 9449): ``HTTPServiceConfiguration/dpop``
    /// against the provider's `dpop_signing_alg_values_supported`, which must list `ES256` (the
    /// one algorithm IdentityFlow's keys sign with). ``DPoPPolicy/off`` answers `false`,
    /// ``DPoPPolicy/whenAdvertised`` whether the provider lists `ES256`, and ``DPoPPolicy/required``
    /// and ``SecurityProfile/fapi2`` `true` or throw.
    /// - Returns: Whether to create a key and send proofs.
    /// - Throws: ``ErrorCode/securityProfileNotMet`` when DPoP is required (or the FAPI 2.0
    ///   profile's requirements are not all met) and the provider lacks it; discovery errors.
    public func usesDPoP() async throws(IdentityFlowError) -> Bool {
        let metadata = try await providerMetadata()
        if configuration.securityProfile == .fapi2 {
            try checkFAPI2(metadata)
            return true
        }
        let advertised = metadata.dpopSigningAlgValuesSupported.contains("ES256")
        switch configuration.dpop {
        case .off: return false
        case .whenAdvertised: return advertised
        case .required:
            guard advertised else { throw Self.dpopMissing(metadata, requiredBy: "The configuration requires DPoP (dpop: required)") }
            return true
        }
    }

    /// The 11080 error for a provider without DPoP with `ES256`.
    static func dpopMissing(_ metadata: OpenIDProviderMetadata, requiredBy reason: String) -> IdentityFlowError {
        let listed = metadata.dpopSigningAlgValuesSupported
        let found = listed.isEmpty ? "advertises no DPoP (no dpop_signing_alg_values_supported)" : "lists \(listed.joined(separator: ", ")) for DPoP, not ES256"
        return IdentityFlowError(.securityProfileNotMet, "\(reason), but the provider \(found); nothing was sent.")
    }

    /// The origin a DPoP nonce belongs to: `scheme://host:port`, lowercased.
    static func dpopOrigin(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : 0)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// The latest `DPoP-Nonce` the origin of `url` sent, if any.
    package func dpopNonce(for url: URL) -> String? {
        let origin = Self.dpopOrigin(url)
        return cache.withLock { $0.dpopNonces[origin] }
    }

    /// Remembers the answer's `DPoP-Nonce`, if it carries one, for its origin.
    func rememberDPoPNonce(of response: HTTPResponse, for url: URL) {
        guard let nonce = DPoPNonceAnswer.nonce(headers: response.headers) else { return }
        let origin = Self.dpopOrigin(url)
        cache.withLock { cache in
            // Bounded: a service talks to a handful of origins; a flood of others evicts them all.
            if cache.dpopNonces[origin] == nil, cache.dpopNonces.count >= 32 { cache.dpopNonces.removeAll() }
            cache.dpopNonces[origin] = nonce
        }
    }

    /// Sends `request`, with a DPoP proof by `key` when one is given (RFC 9449): a `DPoP` header
    /// whose proof names the request's method and URL, the origin's latest nonce and, for a
    /// resource request, `ath` of `accessToken` (which then goes as `Authorization: DPoP <token>`).
    /// An answer that asks for a nonce (`use_dpop_nonce`: a 400 JSON error from the token
    /// endpoint, a 401 `WWW-Authenticate: DPoP` challenge from a resource) is retried once with
    /// it, with a fresh proof; every answer's `DPoP-Nonce` is remembered for the origin.
    /// - Returns: The answer, after at most one retry.
    /// - Throws: ``ErrorCode/dpopProofRefused`` for `invalid_dpop_proof`, or for a second
    ///   `use_dpop_nonce`; transport errors.
    func sendWithDPoP(_ request: URLRequest, key: DPoPKey?, accessToken: Redacted<String>? = nil) async throws(IdentityFlowError) -> HTTPResponse {
        guard let key, let url = request.url else { return try await transport.send(request) }
        var nonce = dpopNonce(for: url)
        var retried = false
        while true {
            var signed = request
            let proof = try key.proof(method: request.httpMethod ?? "GET", url: url, accessToken: accessToken, nonce: nonce, at: now())
            signed.setValue(proof.value, forHTTPHeaderField: "DPoP")
            if let accessToken { signed.setValue("DPoP \(accessToken.value)", forHTTPHeaderField: "Authorization") }
            let response = try await transport.send(signed)
            rememberDPoPNonce(of: response, for: url)
            if !retried, let asked = DPoPNonceAnswer.requestedNonce(status: response.status, headers: response.headers, body: response.body) {
                nonce = asked
                retried = true
                continue
            }
            if DPoPNonceAnswer.refusesProof(status: response.status, headers: response.headers, body: response.body) {
                let named = DPoPNonceAnswer.error(headers: response.headers, body: response.body) ?? "invalid_dpop_proof"
                let why = named == "use_dpop_nonce" ? "asked for a new nonce again after the retry with the one it gave" : "refused the DPoP proof"
                var error = IdentityFlowError(.dpopProofRefused, "The server at \(Self.dpopOrigin(url)) \(why) (HTTP \(response.status), \(named)).")
                error.oauthError = named
                throw error
            }
            return response
        }
    }

    /// Checks a token answer's `token_type` against what was asked: `DPoP` when a proof was sent
    /// (RFC 9449 §5), `Bearer` otherwise. A `Bearer` answer to a proof is accepted only with
    /// ``HTTPServiceConfiguration/acceptsBearerTokensForDPoP`` (never under ``SecurityProfile/fapi2``).
    /// - Parameters:
    ///   - type: The answer's `token_type`.
    ///   - proofSent: Whether the request carried a DPoP proof.
    /// - Returns: The type to record in ``TokenSet/tokenType`` (`DPoP` or `Bearer`).
    /// - Throws: ``ErrorCode/tokenNotSenderConstrained`` for a refused `Bearer` answer,
    ///   ``ErrorCode/invalidServerResponse`` for any other type.
    func checkedTokenType(_ type: String?, proofSent: Bool) throws(IdentityFlowError) -> String {
        let lowered = type?.lowercased()
        switch (lowered, proofSent) {
        case ("dpop", true): return "DPoP"
        case ("bearer", false): return "Bearer"
        case ("bearer", true):
            guard configuration.acceptsBearerTokensForDPoP, configuration.securityProfile != .fapi2 else {
                throw IdentityFlowError(
                    .tokenNotSenderConstrained,
                    "The provider answered token_type Bearer to a request with a DPoP proof: its tokens would not be bound to the key, so they were refused (set acceptsBearerTokensForDPoP to accept them)."
                )
            }
            return "Bearer"
        default: throw Self.malformed("The token response", member: "token_type")
        }
    }
}
