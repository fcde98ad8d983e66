import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one request at a time over its own ephemeral `URLSession` (no cookies, no cache) and reads
/// the answer with a cap; redirects as its ``RedirectPolicy`` says.
///
/// `timeout` is a wall-clock deadline from sending the request to the answer's last byte, enforced
/// here whatever the platform's `URLSession` does (FoundationNetworking on Linux does not end a
/// request whose server trickles bytes): on expiry the request is cancelled and the call fails
/// with ``ErrorCode/serverNotReachable``.
///
/// The host's ``HTTPTransportOptions`` shape every request: its headers are added, its session
/// configuration and delegate are used, and a host with pinned public keys is reached only over a
/// connection whose certificate chain holds one of them (on Linux through ``PinnedTLSTransfer``,
/// on Apple platforms in the session's server trust challenge).
struct HTTPTransport: Sendable {
    /// What happens to a `3xx` answer.
    enum RedirectPolicy: Sendable {
        /// `GET`s follow at most ``HTTPTransport/maxRedirects`` redirects, without `Authorization`
        /// once the origin changes; any other method fails with ``ErrorCode/invalidServerResponse``.
        case followGETs
        /// No redirect is followed, whatever the method: the `3xx` answer is returned as it is, so
        /// nothing (no header, no body) is sent to the `Location`.
        case returnRedirects
    }

    /// Per-request deadline, in seconds: from sending to the last byte of the answer.
    let timeout: TimeInterval
    /// Body cap, in bytes.
    let maxBodySize: Int
    /// What happens to a `3xx` answer.
    var redirects = RedirectPolicy.followGETs
    /// Redirects followed at most (`GET` only).
    let maxRedirects = 5
    /// The host's headers, session and pins.
    var options = HTTPTransportOptions()

    /// Sends a request.
    /// - Parameter request: The request; its URL must be `https` or loopback `http`.
    /// - Returns: The answer, whatever its status.
    /// - Throws: ``ErrorCode/configurationInvalid`` for a plain-http non-loopback URL, network
    ///   errors as mapped by ``HTTPIdentityService/transportError(_:)``, and
    ///   ``ErrorCode/invalidServerResponse`` for oversized, truncated or redirect-looping answers.
    ///   ``ErrorCode/certificatePinMismatch`` when the host is pinned and its certificate chain
    ///   holds none of the pinned keys (nothing was sent).
    func send(_ request: URLRequest) async throws(IdentityFlowError) -> HTTPResponse {
        try await send(request, redirectsFollowed: 0)
    }

    private func send(_ request: URLRequest, redirectsFollowed: Int) async throws(IdentityFlowError) -> HTTPResponse {
        guard let url = request.url else { throw IdentityFlowError(.configurationInvalid, "A request has no URL.") }
        if let problem = HTTPServiceConfiguration.transportProblem(url) { throw problem }
        if Task.isCancelled { throw IdentityFlowError(.actionCancelled, "The task was cancelled before the request was sent.") }
        let request = options.applyingHeaders(to: request)
        #if !canImport(Security)
        if let pins = options.pins(for: url) {
            let response = try await PinnedTLSTransfer.send(
                request, pins: pins, trustedCertificatesFile: options.trustedCertificatesFile, timeout: timeout, maxBodySize: maxBodySize,
                available: !options.simulatesMissingPinningSupport, refusedOption: options.refusedPinningOption)
            return try await following(response, of: request, redirectsFollowed: redirectsFollowed)
        }
        #endif
        let response = try await sendOverURLSession(request)
        return try await following(response, of: request, redirectsFollowed: redirectsFollowed)
    }

    /// The answer, or, for a redirect ``HTTPResponseCollector`` left to this transport (one to a
    /// pinned host, or from one), the redirect followed under the same rules: `GET`s only, at
    /// most ``maxRedirects``, `https` or loopback `http`, no `Authorization` to another origin.
    private func following(_ response: HTTPResponse, of request: URLRequest, redirectsFollowed: Int) async throws(IdentityFlowError) -> HTTPResponse {
        guard redirects == .followGETs, [301, 302, 303, 307, 308].contains(response.status), let location = response.header("Location"),
            let from = response.url ?? request.url
        else { return response }
        guard (request.httpMethod ?? "GET") == "GET" else {
            throw IdentityFlowError(.invalidServerResponse, "The server redirected a request that must not be redirected (HTTP \(response.status)).")
        }
        guard redirectsFollowed < maxRedirects else {
            throw IdentityFlowError(.invalidServerResponse, "The server redirected more than \(maxRedirects) times (a redirect loop?).")
        }
        guard let next = URL(string: location, relativeTo: from)?.absoluteURL else {
            throw IdentityFlowError(.invalidServerResponse, "The server redirected to a Location that is not a URL.")
        }
        var nextRequest = request
        nextRequest.url = next
        if !HTTPResponseCollector.sameOrigin(from, next) { nextRequest.setValue(nil, forHTTPHeaderField: "Authorization") }
        return try await send(nextRequest, redirectsFollowed: redirectsFollowed + 1)
    }

    /// Sends over a `URLSession` of its own, made from the host's configuration, if any.
    private func sendOverURLSession(_ request: URLRequest) async throws(IdentityFlowError) -> HTTPResponse {
        var request = request
        // The deadline below ends the request. The platform's own timers are set past it: on
        // Linux, FoundationNetworking's timer ends a transfer that waits for the delegate's
        // redirect decision, and the decision arriving after that traps the process.
        let platformTimeout = timeout + Self.platformTimeoutMargin
        request.timeoutInterval = platformTimeout
        let configuration = options.session?.makeConfiguration() ?? URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = platformTimeout
        configuration.timeoutIntervalForResource = platformTimeout
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let collector = HTTPResponseCollector(
            maxBodySize: maxBodySize, maxRedirects: maxRedirects, redirects: redirects,
            method: request.httpMethod ?? "GET", options: options)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        let task = session.dataTask(with: request)
        let timeout = self.timeout
        let deadline = Task {
            do { try await Task.sleep(for: .seconds(timeout)) } catch { return }
            collector.expire(
                IdentityFlowError(.serverNotReachable, "The server did not answer in time: no complete answer within \(timeout) s."), cancelling: task)
        }
        defer {
            deadline.cancel()
            // A session lives until it is invalidated. Left alive, FoundationNetworking keeps the
            // cancelled transfer's connection and, when the server drops it later, can trap in its
            // own completion code (swift-corelibs-foundation #5285) long after this call returned.
            // The task is cancelled through the collector first, so that the session's own cancel
            // never crosses a redirect decision (see HTTPResponseCollector).
            collector.cancel(task)
            session.invalidateAndCancel()
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                collector.wait(with: continuation)
                task.resume()
            }
        } onCancel: {
            collector.cancel(task)
        }
        return try outcome.get()
    }

    /// How far past the deadline the platform's own timeouts are set, in seconds.
    static let platformTimeoutMargin: TimeInterval = 60
}
