import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Statechart

/// The delegate of one request's `URLSession`: gathers the answer within the body cap, decides on
/// redirects, and hands the outcome to the waiting caller exactly once.
///
/// Every cancel of the task goes through ``cancel(_:)``, because FoundationNetworking traps
/// ("Received callback for HTTP redirection, but we're not waiting for it") when a redirect's
/// completion handler reaches a transfer that a cancel has already ended. Both run on the task's
/// serial work queue in the order they were issued, so a redirect is answered and a cancel issued
/// under one lock: a redirect decided before the cancel is answered first (and the cancel then
/// finds the transfer in its next state); one decided after it is never answered, since the
/// queued cancel ends the transfer. A refused redirect is refused one way only: the completion
/// handler gets `nil`, and the task is not cancelled as well.
final class HTTPResponseCollector: NSObject, URLSessionDataDelegate, Sendable {
    private struct State: Sendable {
        var continuation: CheckedContinuation<Result<HTTPResponse, IdentityFlowError>, Never>?
        var response: HTTPURLResponse?
        var body = Data()
        var redirects = 0
        var failure: IdentityFlowError?
        /// The deadline passed; the outcome was delivered (or will be, on ``wait(with:)``).
        var expired = false
        /// The task was cancelled through ``cancel(_:)``: redirects are no longer answered.
        var cancelled = false
    }

    private let state = Locked(State())
    private let maxBodySize: Int
    private let maxRedirects: Int
    private let redirects: HTTPTransport.RedirectPolicy
    private let method: String
    private let options: HTTPTransportOptions

    /// Creates a collector.
    /// - Parameters:
    ///   - maxBodySize: The body cap in bytes.
    ///   - maxRedirects: How many redirects may be followed.
    ///   - redirects: What happens to a `3xx` answer.
    ///   - method: The request's method (only `GET`s follow redirects under ``HTTPTransport/RedirectPolicy/followGETs``).
    ///   - options: The host's pins (checked in the server trust challenge on Apple platforms) and
    ///     session delegate (which gets the challenges and metrics IdentityFlow does not settle).
    init(maxBodySize: Int, maxRedirects: Int, redirects: HTTPTransport.RedirectPolicy, method: String, options: HTTPTransportOptions = HTTPTransportOptions()) {
        self.maxBodySize = maxBodySize
        self.maxRedirects = maxRedirects
        self.redirects = redirects
        self.method = method
        self.options = options
    }

    /// Registers the continuation the outcome is delivered to (at once if the deadline passed already).
    func wait(with continuation: CheckedContinuation<Result<HTTPResponse, IdentityFlowError>, Never>) {
        let expired = state.withLock { state -> IdentityFlowError? in
            guard !state.expired else { return state.failure }
            state.continuation = continuation
            return nil
        }
        if let expired { continuation.resume(returning: .failure(expired)) }
    }

    /// The deadline passed: the caller gets `error` now, without waiting for the session to
    /// report the cancelled transfer (which a trickling server could delay), and the task is cancelled.
    func expire(_ error: IdentityFlowError, cancelling task: URLSessionTask) {
        let continuation = state.withLock { state in
            if state.failure == nil { state.failure = error }
            state.expired = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: .failure(error))
        cancel(task)
    }

    /// Cancels the task, once; the only way this request's task is cancelled (see the type's discussion).
    func cancel(_ task: URLSessionTask) {
        state.withLock { state in
            guard !state.cancelled else { return }
            state.cancelled = true
            // `cancel()` only queues the cancel on the task's work queue; it neither blocks nor
            // calls back into this delegate, so it may run under the lock.
            task.cancel()
        }
    }

    /// Answers a redirect unless the task was cancelled (see the type's discussion): under the
    /// lock, so that no cancel is issued between the check and the answer.
    private func answerRedirect(_ request: URLRequest?, _ completionHandler: (URLRequest?) -> Void) {
        state.withLock { state in
            // Cancelled: the queued cancel ends the transfer; an answer now would reach a transfer
            // that is no longer waiting for it, and FoundationNetworking would trap.
            guard !state.cancelled else { return }
            // Queues the answer on the task's work queue; it neither blocks nor calls back here.
            completionHandler(request)
        }
    }

    /// Hands the answer received so far (head and body) to the waiting caller as the outcome.
    private func deliverReceivedAnswer() {
        let (continuation, outcome) = state.withLock { state in
            let outcome = Self.outcome(state: state, error: nil)
            defer { state.continuation = nil }
            return (state.continuation, outcome)
        }
        continuation?.resume(returning: outcome)
    }

    /// Records why the transfer is being stopped; the first reason wins.
    private func fail(_ error: IdentityFlowError) {
        state.withLock { state in
            if state.failure == nil { state.failure = error }
        }
    }

    // MARK: - URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            fail(IdentityFlowError(.invalidServerResponse, "The server did not answer with HTTP."))
            completionHandler(.cancel)
            return
        }
        state.withLock { $0.response = http }
        if http.expectedContentLength > Int64(maxBodySize) {
            fail(IdentityFlowError(.invalidServerResponse, "The server's answer is larger than the \(maxBodySize)-byte limit."))
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = state.withLock { state in
            guard state.body.count + data.count <= maxBodySize else { return true }
            state.body.append(data)
            return false
        }
        if tooLarge {
            fail(IdentityFlowError(.invalidServerResponse, "The server's answer is larger than the \(maxBodySize)-byte limit."))
            cancel(dataTask)
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let count = state.withLock { state in
            state.redirects += 1
            return state.redirects
        }
        // A refused redirect is answered `nil` and nothing else: the 3xx answer becomes the final
        // one (nothing goes to `Location`), and the recorded failure is the outcome.
        if redirects == .returnRedirects {
            answerRedirect(nil, completionHandler)
        } else if method != "GET" {
            fail(IdentityFlowError(.invalidServerResponse, "The server redirected a request that must not be redirected (HTTP \(response.statusCode))."))
            answerRedirect(nil, completionHandler)
        } else if count > maxRedirects {
            fail(IdentityFlowError(.invalidServerResponse, "The server redirected more than \(maxRedirects) times (a redirect loop?)."))
            answerRedirect(nil, completionHandler)
        } else if let url = request.url, let problem = HTTPServiceConfiguration.transportProblem(url) {
            fail(problem)
            answerRedirect(nil, completionHandler)
        } else if Self.leavesToTransport(from: task.currentRequest?.url ?? task.originalRequest?.url, to: request.url, options: options) {
            // A pinned host is reached through the pinned path only (Linux): the 3xx answer goes
            // back to HTTPTransport, which follows it there.
            answerRedirect(nil, completionHandler)
        } else if let from = task.originalRequest?.url, let to = request.url, !Self.sameOrigin(from, to) {
            // A bearer token stays with its origin: the request to another scheme, host or port
            // goes without `Authorization`.
            var next = request
            next.setValue(nil, forHTTPHeaderField: "Authorization")
            answerRedirect(next, completionHandler)
        } else {
            answerRedirect(request, completionHandler)
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @Sendable @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(Security)
        if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
            let url = URL(string: "https://\(challenge.protectionSpace.host)"), let pins = options.pins(for: url)
        {
            guard let trust = challenge.protectionSpace.serverTrust, ServerTrustPinning.chainHoldsPinnedKey(trust, pins: pins) else {
                fail(
                    IdentityFlowError(
                        .certificatePinMismatch,
                        "The certificate of \(challenge.protectionSpace.host) holds no pinned public key; the connection was closed before any request was sent."
                    ))
                completionHandler(.cancelAuthenticationChallenge, nil)
                return
            }
        }
        #endif
        #if !canImport(Darwin)
        // FoundationNetworking never completes a task whose 401 challenge (`WWW-Authenticate`,
        // as RFC 6749 §5.2 requires for `invalid_client` after Basic authentication) is answered
        // without a credential: the answer already received is the outcome, and the task ends.
        let completionHandler: @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void = { [self] disposition, credential in
            guard disposition == .useCredential, credential != nil else {
                deliverReceivedAnswer()
                cancel(task)
                return
            }
            completionHandler(disposition, credential)
        }
        #endif
        // The host's task-level answer, else its session-level one, else default handling.
        guard let delegate = options.session?.delegate else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        #if canImport(Darwin)
        // Optional requirements on Apple platforms.
        if let answer = (delegate as? URLSessionTaskDelegate)?.urlSession(_:task:didReceive:completionHandler:) {
            answer(session, task, challenge, completionHandler)
        } else if let answer = delegate.urlSession(_:didReceive:completionHandler:) {
            answer(session, challenge, completionHandler)
        } else {
            completionHandler(.performDefaultHandling, nil)
        }
        #else
        if let taskDelegate = delegate as? URLSessionTaskDelegate {
            taskDelegate.urlSession(session, task: task, didReceive: challenge, completionHandler: completionHandler)
        } else {
            delegate.urlSession(session, didReceive: challenge, completionHandler: completionHandler)
        }
        #endif
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        guard let delegate = options.session?.delegate as? URLSessionTaskDelegate else { return }
        #if canImport(Darwin)
        delegate.urlSession?(session, task: task, didFinishCollecting: metrics)
        #else
        delegate.urlSession(session, task: task, didFinishCollecting: metrics)
        #endif
    }

    /// Whether a redirect must leave this session for ``HTTPTransport``'s pinned path: on Linux,
    /// a redirect to or from a host with pins.
    private static func leavesToTransport(from: URL?, to: URL?, options: HTTPTransportOptions) -> Bool {
        #if canImport(Security)
        return false
        #else
        return [from, to].contains { $0.flatMap(options.pins(for:)) != nil }
        #endif
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, outcome) = state.withLock { state in
            let outcome = Self.outcome(state: state, error: error)
            let continuation = state.continuation
            state.continuation = nil
            return (continuation, outcome)
        }
        session.finishTasksAndInvalidate()
        continuation?.resume(returning: outcome)
    }

    /// Whether two URLs share scheme, host and port (a missing port is the scheme's default).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int?) {
            let scheme = url.scheme?.lowercased() ?? ""
            return (scheme, url.host?.lowercased() ?? "", url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil))
        }
        return origin(a) == origin(b)
    }

    // MARK: - Outcome

    /// URL errors FoundationNetworking reports when a connection closes before any answer.
    private static let endedBeforeAnswer: Set<Int> = [
        NSURLErrorNetworkConnectionLost, NSURLErrorBadServerResponse, NSURLErrorZeroByteResource, NSURLErrorCannotParseResponse,
    ]

    private static func cutOff(state: State, expected: Int64, underlying: NSError?) -> IdentityFlowError {
        let of = expected >= 0 ? " of \(expected)" : ""
        return IdentityFlowError(.invalidServerResponse, "The server's answer was cut off (\(state.body.count)\(of) bytes).", underlying: underlying)
    }

    private static func closedWithoutAnswer(underlying: NSError?) -> IdentityFlowError {
        IdentityFlowError(.networkConnectivityFailure, "The connection closed before the server answered.", underlying: underlying)
    }

    private static func outcome(state: State, error: (any Error)?) -> Result<HTTPResponse, IdentityFlowError> {
        if let failure = state.failure { return .failure(failure) }
        let expected = state.response?.expectedContentLength ?? -1
        let truncated = expected >= 0 && Int64(state.body.count) < expected
        if let error {
            let nsError = error as NSError
            let cause = NSError(domain: nsError.domain, code: nsError.code)
            // Cancellation and the platform's own timeout mean the same before and during an answer.
            if nsError.domain == NSURLErrorDomain, nsError.code == NSURLErrorCancelled || nsError.code == NSURLErrorTimedOut {
                return .failure(HTTPIdentityService.transportError(error))
            }
            // The answer began, then the connection failed (closed, reset): a broken answer.
            if state.response != nil {
                return .failure(Self.cutOff(state: state, expected: expected, underlying: cause))
            }
            // The connection ended before any answer began (the server closed it or crashed):
            // the network error, not a broken answer.
            if nsError.domain == NSURLErrorDomain, Self.endedBeforeAnswer.contains(nsError.code) {
                return .failure(Self.closedWithoutAnswer(underlying: cause))
            }
            return .failure(HTTPIdentityService.transportError(error))
        }
        guard let response = state.response else { return .failure(Self.closedWithoutAnswer(underlying: nil)) }
        if truncated { return .failure(Self.cutOff(state: state, expected: expected, underlying: nil)) }
        let mediaType = (response.value(forHTTPHeaderField: "Content-Type") ?? response.mimeType)?
            .split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var headers: [String: String] = [:]
        for case let (name as String, value as String) in response.allHeaderFields { headers[name] = value }
        return .success(HTTPResponse(status: response.statusCode, mediaType: mediaType, body: state.body, headers: headers, url: response.url))
    }
}
