import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Integrator) import IdentityFlow
import Statechart

/// A host API for tests of `UserClient/authenticatedRequest(_:)`: answers `200` to requests
/// whose access token the ``ReferenceIdentityService`` accepts and `401` to the others.
///
/// A bearer token goes as `Authorization: Bearer <token>`. A DPoP-bound token (RFC 9449 §7) goes
/// only as `Authorization: DPoP <token>` with a `DPoP` proof by the key it is bound to, checked as
/// a resource server would: signature, `typ`, `htm` and `htu` of this request, `iat`, a `jti` never
/// seen here before, `ath` of the token and, with ``requiresNonce``, this server's nonce
/// (`401` with `WWW-Authenticate: DPoP error="use_dpop_nonce"` and `DPoP-Nonce` otherwise). A
/// bound token sent as a bearer token, with another key's proof or a replayed one is refused
/// (`401`, `WWW-Authenticate: DPoP error="invalid_token"` or `error="invalid_dpop_proof"`).
public final class ReferenceResourceServer: ResourceTransport {
    private let identityService: ReferenceIdentityService
    private struct Served: Sendable {
        var accepted = 0
        var refused = 0
        var nonceRequests = 0
        var seenProofs: [String: Date] = [:]
        var nonce = ""
    }

    private let served = Locked(Served())
    /// Whether DPoP proofs must carry this server's nonce (`DPoP-Nonce`).
    public let requiresNonce: Bool

    /// Creates a resource server trusting an identity service's tokens, asking for no DPoP nonce.
    /// - Parameter identityService: Whose access tokens count.
    public convenience init(trusting identityService: ReferenceIdentityService) { self.init(trusting: identityService, requiresNonce: false) }

    /// Creates a resource server trusting an identity service's tokens.
    /// - Parameters:
    ///   - identityService: Whose access tokens count.
    ///   - requiresNonce: Whether DPoP proofs must carry this server's nonce (`DPoP-Nonce`).
    public init(trusting identityService: ReferenceIdentityService, requiresNonce: Bool) {
        self.identityService = identityService
        self.requiresNonce = requiresNonce
        served.withLock { $0.nonce = "n-" + ((try? SecureRandom.token(byteCount: 12)) ?? "0") }
    }

    /// Requests answered `200`.
    public var acceptedCount: Int { served.current.accepted }
    /// Requests answered `401`.
    public var refusedCount: Int { served.current.refused }
    /// Refusals that asked for a nonce (`use_dpop_nonce`).
    public var nonceRequestCount: Int { served.current.nonceRequests }

    /// Draws a new nonce: proofs carrying the old one are answered `use_dpop_nonce` again.
    public func rotateNonce() { served.withLock { $0.nonce = "n-" + ((try? SecureRandom.token(byteCount: 12)) ?? "1") } }

    /// Answers the request.
    public func send(_ request: URLRequest) async throws(IdentityFlowError) -> (Data, HTTPURLResponse) {
        let url = request.url ?? URL(string: "https://resource.identityflow.invalid")!
        let verdict = check(request, url: url)
        served.withLock { state in
            switch verdict {
            case .accepted: state.accepted += 1
            case .refused(let challenge):
                state.refused += 1
                if challenge.contains("use_dpop_nonce") { state.nonceRequests += 1 }
            }
        }
        var headers = ["Content-Type": "text/plain"]
        if case .refused(let challenge) = verdict {
            headers["WWW-Authenticate"] = challenge
            if challenge.contains("use_dpop_nonce") { headers["DPoP-Nonce"] = served.current.nonce }
        }
        let accepted = verdict == .accepted
        guard let response = HTTPURLResponse(url: url, statusCode: accepted ? 200 : 401, httpVersion: "HTTP/1.1", headerFields: headers) else {
            throw IdentityFlowError(.unknown, "Could not build the test response.")
        }
        return (Data((accepted ? "ok" : "unauthorized").utf8), response)
    }

    private enum Verdict: Equatable {
        case accepted
        /// Refused, with the `WWW-Authenticate` challenge.
        case refused(String)
    }

    private func check(_ request: URLRequest, url: URL) -> Verdict {
        let header = request.value(forHTTPHeaderField: "Authorization") ?? ""
        let (scheme, token) =
            if let space = header.firstIndex(of: " ") { (header[..<space].lowercased(), String(header[header.index(after: space)...])) } else { ("", "") }
        guard let grant = identityService.accessTokenGrant(token) else { return .refused(#"Bearer error="invalid_token""#) }
        guard let thumbprint = grant.dpopKeyThumbprint else {
            return scheme == "bearer" ? .accepted : .refused(#"Bearer error="invalid_token""#)
        }
        guard scheme == "dpop", let proof = request.value(forHTTPHeaderField: "DPoP") else {
            return .refused(#"DPoP error="invalid_token", error_description="a DPoP-bound token needs the DPoP scheme and a proof""#)
        }
        let date = identityService.now()
        let check = DPoPProofCheck(
            proof: proof, method: request.httpMethod ?? "GET", url: url, accessToken: token, nonce: requiresNonce ? served.current.nonce : nil)
        let result = served.withLock { state -> Result<String, DPoPProofCheck.Refusal> in
            do throws(DPoPProofCheck.Refusal) { return .success(try check.verify(at: date, seen: &state.seenProofs)) } catch { return .failure(error) }
        }
        switch result {
        case .success(let proven) where proven == thumbprint: return .accepted
        case .success: return .refused(#"DPoP error="invalid_token", error_description="the token is bound to another key""#)
        case .failure(.nonceRequired): return .refused(#"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#)
        case .failure(.invalidProof(let reason)): return .refused(#"DPoP error="invalid_dpop_proof", error_description=""# + reason + #"""#)
        }
    }
}

/// A wall clock that moves only when a test says so, for token expiry.
///
/// ```swift
/// let date = ManualDate()
/// let server = ReferenceIdentityService(accessTokenLifetime: 60, now: date.now)
/// date.advance(by: 61)   // every access token has expired
/// ```
public final class ManualDate: Sendable {
    private let current: Locked<Date>

    /// Creates a date source.
    /// - Parameter start: The initial date.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Locked(start) }

    /// The current date, as a function to pass where a `now` is asked for.
    public var now: @Sendable () -> Date { { [current] in current.current } }

    /// Moves the date forward.
    /// - Parameter seconds: How far.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
