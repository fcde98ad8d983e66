import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a host does with an answer to a request ``UserClient/authorize(_:)`` authorized, as
/// ``UserClient/handleResponse(_:body:to:)`` decides it.
public enum AuthorizedResponseAction: Sendable, Hashable {
    /// The answer stands: use it (a success, or a refusal that another attempt would not change).
    case accept
    /// Send the request once more, authorized anew by ``UserClient/authorize(_:)``: the server
    /// asked for a DPoP nonce (now remembered for its origin), or refused the access token (the
    /// session's tokens are now refreshed). Retry once; a second answer stands.
    case retry
}

/// The session's tokens for requests the host sends with its own HTTP stack (Alamofire, its own
/// `URLSession` code): ``authorize(_:)`` before sending, ``handleResponse(_:body:to:)`` with the
/// answer. What ``authenticatedRequest(_:)`` does around its transport, in two halves.
extension UserClient {
    /// Authorizes a request the host sends itself with the authenticated user's access token: an
    /// expired token is refreshed first; a bearer token goes as `Authorization: Bearer <token>`;
    /// a DPoP-bound one (RFC 9449 §7) as `Authorization: DPoP <token>` with a `DPoP` proof by the
    /// profile's key for the request's method and URL, naming the token (`ath`) and carrying the
    /// last nonce the request's origin gave. Hand the answer to ``handleResponse(_:body:to:)``.
    ///
    /// A proof is single-use: authorize each request (and each retry) anew, just before sending
    /// it. As for ``authenticatedRequest(_:)``, the token goes over `https` only, or `http` to a
    /// loopback host.
    /// - Parameter request: The request; its `Authorization` (and `DPoP`) header is set here.
    /// - Returns: The request to send.
    /// - Throws: ``ErrorCode/insecureTransport`` for a URL that is neither `https` nor loopback
    ///   `http`; ``ErrorCode/userNotAuthenticated`` when nobody is logged in or the session could
    ///   not be refreshed; ``ErrorCode/dpopProofRefused`` when the tokens are DPoP-bound and the
    ///   profile's key cannot be opened.
    public func authorize(_ request: URLRequest) async throws(IdentityFlowError) -> URLRequest {
        try requireStarted()
        if let problem = URLSessionTransport.insecurity(of: request.url) { throw problem }
        var tokens = try sessionTokens()
        if !tokens.isAccessTokenValid(at: configuration.now()) {
            tokens = try await refreshedTokens(replacing: tokens)
        }
        guard tokens.isSenderConstrained else {
            var bearer = authorized(request, with: tokens)
            bearer.setValue(nil, forHTTPHeaderField: "DPoP")  // a request authorized before, under bound tokens
            return bearer
        }
        guard let key = sessions.sessionDPoPKey else {
            throw IdentityFlowError(.dpopProofRefused, "The session's tokens are DPoP-bound, but the profile's DPoP key could not be opened.")
        }
        return try key.authorize(
            request, accessToken: tokens.accessToken, nonce: sessions.dpopNonce(for: request.url?.dpopOrigin ?? ""), at: configuration.now())
    }

    /// Takes the answer to a request ``authorize(_:)`` authorized: remembers the `DPoP-Nonce` it
    /// carries for the request's origin, and says whether to send the request once more:
    /// ``AuthorizedResponseAction/retry`` when the server asked for a DPoP nonce the proof did
    /// not carry (`401` with `WWW-Authenticate: DPoP error="use_dpop_nonce"`, or `400` JSON), or
    /// refused the access token (a `401`, or a `400` naming `invalid_token`): then the session's
    /// tokens are refreshed here (once, shared with concurrent callers).
    ///
    /// ```swift
    /// var request = try await client.authorize(URLRequest(url: api.appendingPathComponent("accounts")))
    /// var (data, response) = try await myHTTPStack.send(request)
    /// if try await client.handleResponse(response, body: data, to: request) == .retry {
    ///     request = try await client.authorize(request)   // a fresh proof (and token)
    ///     (data, response) = try await myHTTPStack.send(request)
    ///     _ = try await client.handleResponse(response, body: data, to: request)   // remembers its nonce
    /// }
    /// ```
    /// - Parameters:
    ///   - response: The answer's head.
    ///   - body: The answer's body (a `use_dpop_nonce` or `invalid_token` error may be in it).
    ///   - request: The request as sent, as ``authorize(_:)`` returned it (its token and proof
    ///     tell whether the answer is about a token already replaced, or a nonce already tried).
    /// - Returns: Whether to retry; retry once at most.
    /// - Throws: ``ErrorCode/userNotAuthenticated`` when the token was refused and the session
    ///   could not be refreshed (the user is logged out on this device, as after
    ///   ``authenticatedRequest(_:)``); nothing otherwise.
    public func handleResponse(_ response: HTTPURLResponse, body: Data = Data(), to request: URLRequest) async throws(IdentityFlowError)
        -> AuthorizedResponseAction
    {
        try requireStarted()
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in response.allHeaderFields { headers[name] = value }
        let origin = request.url?.dpopOrigin ?? ""
        if let issued = DPoPNonceAnswer.nonce(headers: headers) { sessions.rememberDPoPNonce(issued, for: origin) }
        if let asked = DPoPNonceAnswer.requestedNonce(status: response.statusCode, headers: headers, body: body) {
            // A proof that carried the nonce asked for already had its retry.
            return Self.proofNonce(of: request) == asked ? .accept : .retry
        }
        guard Self.refusesToken(response, body) else { return .accept }
        let current = try sessionTokens()
        // Another caller refreshed since the request was authorized: the next authorization has the new token.
        if let sent = Self.accessToken(of: request), sent != current.accessToken.value { return .retry }
        _ = try await refreshedTokens(replacing: current)
        return .retry
    }

    /// The access token a request carries after `Bearer ` or `DPoP `, if any.
    private static func accessToken(of request: URLRequest) -> String? {
        guard let header = request.value(forHTTPHeaderField: "Authorization"), let space = header.firstIndex(of: " ") else { return nil }
        let scheme = header[..<space].lowercased()
        guard scheme == "bearer" || scheme == "dpop" else { return nil }
        return String(header[header.index(after: space)...]).trimmingCharacters(in: .whitespaces)
    }

    /// The `nonce` claim of the request's `DPoP` proof, if any.
    private static func proofNonce(of request: URLRequest) -> String? {
        guard let proof = request.value(forHTTPHeaderField: "DPoP"), let token = try? JSONWebToken(compact: proof) else { return nil }
        return token.claims["nonce"]?.stringValue
    }
}
