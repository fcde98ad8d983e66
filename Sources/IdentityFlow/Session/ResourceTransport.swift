import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the host's API requests for ``UserClient/authenticatedRequest(_:)``.
public protocol ResourceTransport: Sendable {
    /// Sends a request.
    /// - Parameter request: The request, with the `Authorization` header set.
    /// - Returns: The body and the HTTP response.
    /// - Throws: An ``IdentityFlowError``, e.g. ``ErrorCode/networkConnectivityFailure`` when no answer came.
    func send(_ request: URLRequest) async throws(IdentityFlowError) -> (Data, HTTPURLResponse)
}

/// The default ``ResourceTransport``: each request goes over an ephemeral `URLSession` of its own
/// (no cookies, no cache, never `URLSession.shared`) with the same wall-clock deadline and error
/// mapping as every request of the OpenID Connect server.
///
/// It follows no redirect: a `3xx` answer (a `307` or `308` of a `POST` too) is returned as it is,
/// so the bearer token and the body never reach the `Location`; the host decides what to do.
///
/// Its ``HTTPTransportOptions`` give it the host's session configuration and delegate, headers
/// (added where the request sets none of the same name) and pinned public keys, enforced as for
/// the identity service: a pinned API host whose certificate chain holds none of its keys fails
/// with ``ErrorCode/certificatePinMismatch`` before the request, and its token, is sent.
public struct URLSessionTransport: ResourceTransport {
    private let transport: HTTPTransport

    /// The per-request deadline, in seconds.
    var requestTimeout: TimeInterval { transport.timeout }
    /// The host's session, headers and pins.
    var transportOptions: HTTPTransportOptions { transport.options }

    /// Creates a transport.
    /// - Parameters:
    ///   - requestTimeout: Per-request deadline in seconds, from sending to the last byte of the
    ///     answer (as ``HTTPServiceConfiguration/requestTimeout``); on expiry the request fails
    ///     with ``ErrorCode/serverNotReachable``.
    ///   - maxResponseBodySize: The largest body read, in bytes; a larger one fails with
    ///     ``ErrorCode/invalidServerResponse``.
    ///   - options: The host's session, headers and pins (see ``HTTPTransportOptions``).
    public init(requestTimeout: TimeInterval = 30, maxResponseBodySize: Int = 16 << 20, options: HTTPTransportOptions = HTTPTransportOptions()) {
        transport = HTTPTransport(timeout: requestTimeout, maxBodySize: maxResponseBodySize, redirects: .returnRedirects, options: options)
    }

    /// The transport ``UserClient`` uses by default with an OpenID Connect server: the service's
    /// timeout, session customization and pins, without its headers (those are for the identity
    /// provider).
    /// - Parameter configuration: The identity service's configuration.
    init(servingAPIsOf configuration: HTTPServiceConfiguration) {
        var options = configuration.transportOptions
        options.headers = [:]
        self.init(requestTimeout: configuration.requestTimeout, options: options)
    }

    /// Sends a request.
    /// - Throws: ``ErrorCode/insecureTransport`` for a URL that is neither `https` nor loopback
    ///   `http` (nothing is sent); ``ErrorCode/configurationInvalid`` for a timeout that is not
    ///   positive and finite, or options whose ``HTTPTransportOptions/problem`` names one;
    ///   ``ErrorCode/certificatePinMismatch`` for a pinned host whose chain holds no pinned key
    ///   (nothing is sent); network errors as the OpenID Connect server maps them.
    public func send(_ request: URLRequest) async throws(IdentityFlowError) -> (Data, HTTPURLResponse) {
        if let problem = Self.insecurity(of: request.url) { throw problem }
        guard transport.timeout > 0, transport.timeout.isFinite, transport.maxBodySize >= 0 else {
            throw IdentityFlowError(.configurationInvalid, "URLSessionTransport needs a positive, finite timeout and a body cap of at least 0 bytes.")
        }
        if let problem = transport.options.problem { throw problem }
        let response = try await transport.send(request)
        guard let url = response.url ?? request.url,
            let http = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: response.headers)
        else {
            throw IdentityFlowError(.invalidServerResponse, "The answer was not an HTTP response.")
        }
        return (response.body, http)
    }

    /// ``ErrorCode/insecureTransport`` unless `url` is `https`, or `http` to a loopback host.
    static func insecurity(of url: URL?) -> IdentityFlowError? {
        guard let url else { return IdentityFlowError(.insecureTransport, "The request has no URL; nothing was sent.") }
        switch url.scheme?.lowercased() {
        case "https": return nil
        case "http" where HTTPServiceConfiguration.isLoopback(url.host): return nil
        case "http":
            return IdentityFlowError(
                .insecureTransport,
                "The access token is sent over https only (or http to a loopback host), not plain http to \(url.host ?? "a URL without host"); nothing was sent."
            )
        default:
            return IdentityFlowError(
                .insecureTransport, "The access token is sent over https only (or http to a loopback host), not over '\(url.scheme ?? "")'; nothing was sent.")
        }
    }
}
