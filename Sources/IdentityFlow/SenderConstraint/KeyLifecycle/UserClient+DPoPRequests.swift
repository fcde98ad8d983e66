import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``UserClient/authenticatedRequest(_:)`` with DPoP-bound tokens (RFC 9449 §7): the request goes
/// with `Authorization: DPoP <token>` and a `DPoP` proof by the profile's key (its `ath` naming the
/// token, its `htm` and `htu` the request). A resource server that asks for a nonce
/// (`401` with `WWW-Authenticate: DPoP error="use_dpop_nonce"` and `DPoP-Nonce`) gets one retry
/// with a new proof carrying it; the nonce is remembered for the server's origin, and every
/// `DPoP-Nonce` an answer carries replaces it. A second nonce request fails with
/// ``ErrorCode/dpopProofRefused``. Bearer tokens go as before.
extension UserClient {
    /// The key resource requests with `tokens` are proven with: the session's DPoP key when the
    /// tokens are DPoP-bound (`token_type` `DPoP`), `nil` for bearer tokens.
    func resourceProofKey(for tokens: TokenSet) -> DPoPKey? {
        tokens.isSenderConstrained ? sessions.sessionDPoPKey : nil
    }

    /// Sends `request` authorized with `tokens`: as a bearer token, or with a DPoP proof (one
    /// retry when the server asks for a nonce).
    /// - Throws: ``ErrorCode/dpopProofRefused`` when the server asks for a nonce again after the
    ///   retry, or the tokens are DPoP-bound and the profile's key cannot be opened; the
    ///   transport's errors.
    func send(_ request: URLRequest, authorizedWith tokens: TokenSet) async throws(IdentityFlowError) -> (Data, HTTPURLResponse) {
        guard tokens.isSenderConstrained else { return try await transport.send(authorized(request, with: tokens)) }
        guard let key = sessions.sessionDPoPKey else {
            throw IdentityFlowError(.dpopProofRefused, "The session's tokens are DPoP-bound, but the profile's DPoP key could not be opened; nothing was sent.")
        }
        let origin = request.url?.dpopOrigin ?? ""
        let first = try await sendProven(request, key: key, tokens: tokens, nonce: sessions.dpopNonce(for: origin), origin: origin)
        guard let nonce = first.askedNonce else { return first.answer }
        let second = try await sendProven(request, key: key, tokens: tokens, nonce: nonce, origin: origin)
        guard second.askedNonce == nil else {
            throw IdentityFlowError(.dpopProofRefused, "The resource server asked for a DPoP nonce again after the retry with the nonce it gave.")
        }
        return second.answer
    }

    private func sendProven(_ request: URLRequest, key: DPoPKey, tokens: TokenSet, nonce: String?, origin: String) async throws(IdentityFlowError)
        -> (answer: (Data, HTTPURLResponse), askedNonce: String?)
    {
        let (data, response) = try await transport.send(key.authorize(request, accessToken: tokens.accessToken, nonce: nonce, at: configuration.now()))
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in response.allHeaderFields { headers[name] = value }
        if let issued = DPoPNonceAnswer.nonce(headers: headers) { sessions.rememberDPoPNonce(issued, for: origin) }
        let asked = DPoPNonceAnswer.requestedNonce(status: response.statusCode, headers: headers, body: data)
        return ((data, response), asked)
    }
}
