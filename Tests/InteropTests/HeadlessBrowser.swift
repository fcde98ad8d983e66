import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Integrator) import IdentityFlow
import Statechart

/// Replays the fixtures' browser login without a browser (`Tests/Fixtures/oidc/README.md`,
/// "Browser login, replayed without a browser"): one cookie jar for the whole flow, redirects never
/// followed, relative `Location`s resolved against the page that sent them.
final class HeadlessBrowser: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Page: Sendable {
        let status: Int
        let location: String?
        let html: String
        let url: URL
    }

    private let cookies = Locked<[String: String]>([:])

    /// Logs in with the HTML forms, answers the consent form (`allow` or deny) and returns the
    /// redirect to the app's redirect URI, unfollowed. Walks the pages as a browser would, at most
    /// ``maxPages``, and knows the fixtures' forms: a login form with a user field (`username`
    /// for Django, `login` for allauth and Canaille) and a password field, or Canaille's two
    /// steps (the user on one page, the password on the next); consent as django-oauth-toolkit's
    /// and django-oidc-provider's `allow` button, allauth's `action` button (`grant` / `cancel`)
    /// or Canaille's `answer` button (`accept` / `deny`).
    /// - Parameters:
    ///   - authorizationURL: The URL of the browser registration challenge.
    ///   - username: The fixture user.
    ///   - password: Their password.
    ///   - allow: Whether to grant consent.
    func authorize(_ authorizationURL: URL, username: String = "alice", password: String = "alice-password-1", allow: Bool = true) async throws -> URL {
        var page = try await get(authorizationURL)
        for _ in 0..<Self.maxPages {
            if page.status == 302 || page.status == 303 {
                let location = try page.location.orThrow("a redirect without a Location")
                if let redirect = URL(string: location), redirect.scheme == InteropEnvironment.redirectURI.scheme {
                    if InteropProvider.all.contains(where: { $0.issuesOneTokenPerSecond && $0.issuer.port == authorizationURL.port }) {
                        try await Self.waitForNextSecond()
                    }
                    return redirect
                }
                page = try await get(try resolve(location, against: page.url))
                continue
            }
            guard page.status == 200, let form = Self.form(in: page.html) else { break }
            let target = try form.action.map { try resolve($0, against: page.url) } ?? page.url
            var fields = Self.formFields(in: form.html)
            let userField = ["username", "login"].first { form.html.contains("name=\"\($0)\"") }
            if let userField { fields.append((userField, username)) }
            if form.html.contains(#"type="password""#) { fields.append(("password", password)) }
            if userField == nil, !form.html.contains(#"type="password""#) {
                guard let answer = Self.consentAnswer(in: form.html, allow: allow) else { break }
                fields += answer
            }
            page = try await post(target, fields: fields)
            if page.status == 200, page.html.contains("login-error") { throw Failure(description: "login refused (wrong password)") }
        }
        throw Failure(description: "authorization answered \(page.status) without a redirect to the app")
    }

    /// Sleeps to the start of the next wall-clock second. Canaille's access tokens are JWTs with no
    /// `jti`, the same for one user and client within a second, and it answers a second exchange
    /// in that second with HTTP 500 (a unique constraint). A sign-in there hands back its redirect
    /// only on a fresh second, so the exchange that follows never shares a second with the
    /// previous test's: an artefact of tests signing in several times a second, not of an app.
    static func waitForNextSecond() async throws {
        let now = Date().timeIntervalSince1970
        try await Task.sleep(for: .seconds(now.rounded(.down) + 1 - now))
    }

    /// Pages walked at most by ``authorize(_:username:password:allow:)`` before it gives up.
    static let maxPages = 10

    /// The button a consent form is answered with, `[]` for a form denied by submitting it
    /// without its `allow` button (django-oauth-toolkit's and django-oidc-provider's), `nil` when
    /// the form is not a consent form.
    private static func consentAnswer(in form: String, allow: Bool) -> [(name: String, value: String)]? {
        if form.contains(#"name="allow""#) { return allow ? [("allow", "Authorize")] : [] }
        if form.contains(/name="action"\s+value="grant"/) { return [("action", allow ? "grant" : "cancel")] }
        if form.contains(/name="answer"[^>]*value="accept"/) { return [("answer", allow ? "accept" : "deny")] }
        return nil
    }

    // MARK: - HTTP

    func get(_ url: URL) async throws -> Page {
        try await send(URLRequest(url: url))
    }

    func post(_ url: URL, fields: [(name: String, value: String)]) async throws -> Page {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        request.httpBody = Data(
            fields.map {
                "\($0.name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
            }.joined(separator: "&").utf8)
        return try await send(request)
    }

    private func send(_ request: URLRequest) async throws -> Page {
        var request = request
        let jar = cookies.current
        if !jar.isEmpty {
            request.setValue(jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "), forHTTPHeaderField: "Cookie")
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = 30
        let delegate = NoRedirects()
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await delegate.run(session.dataTask(with: request))
        let url = try request.url.orThrow("no URL")
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields { headers["\(key)"] = "\(value)" }
        for cookie in HTTPCookie.cookies(withResponseHeaderFields: headers, for: url) {
            cookies.withLock { $0[cookie.name] = cookie.value }
        }
        return Page(
            status: response.statusCode, location: response.value(forHTTPHeaderField: "Location"),
            html: String(decoding: data, as: UTF8.self), url: url)
    }

    private func resolve(_ location: String, against base: URL) throws -> URL {
        try URL(string: location, relativeTo: base).orThrow("bad Location \(location)").absoluteURL
    }

    // MARK: - HTML

    /// The page's first POST form: its markup and its `action` (entities decoded), `nil` when it
    /// posts back to the page itself.
    static func form(in html: String) -> (html: String, action: String?)? {
        guard let match = html.firstMatch(of: /(?is)<form[^>]*method="post"[^>]*>.*?<\/form>/) else { return nil }
        let tag = String(match.output.prefix { $0 != ">" })
        let action = tag.firstMatch(of: /action="([^"]*)"/).map { decodeEntities(String($0.output.1)) }
        return (String(match.output), action?.isEmpty == false ? action : nil)
    }

    /// What a browser submits of a form without typing: every hidden input and every checked
    /// checkbox, as `name`, `value` pairs in page order, entities decoded.
    static func formFields(in html: String) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        for match in html.matches(of: /<input[^>]*>/) {
            let tag = String(match.output)
            var attributes: [String: String] = [:]
            for attribute in tag.matches(of: /([a-zA-Z_-]+)="([^"]*)"/) {
                attributes[String(attribute.output.1)] = decodeEntities(String(attribute.output.2))
            }
            let checked = attributes["type"] == "checkbox" && tag.contains(/\schecked[\s>=\/]/)
            if attributes["type"] == "hidden" || checked, let name = attributes["name"] {
                fields.append((name, attributes["value"] ?? (checked ? "on" : "")))
            }
        }
        return fields
    }

    private static func decodeEntities(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#x27;", with: "'")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}

/// Refuses every redirect, so the 302 and its `Location` come back to the caller.
private final class NoRedirects: NSObject, URLSessionDataDelegate, Sendable {
    private struct State: Sendable {
        var continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>?
        var response: HTTPURLResponse?
        var data = Data()
    }

    private let state = Locked(State())

    func run(_ task: URLSessionDataTask) async throws -> (Data, HTTPURLResponse) {
        try await withCheckedThrowingContinuation { continuation in
            state.withLock { $0.continuation = continuation }
            task.resume()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { $0.response = response as? HTTPURLResponse }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.data.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, response, data) = state.withLock { state in
            defer { state.continuation = nil }
            return (state.continuation, state.response ?? (task.response as? HTTPURLResponse), state.data)
        }
        if let response {
            continuation?.resume(returning: (data, response))
        } else {
            continuation?.resume(throwing: error ?? HeadlessBrowser.Failure(description: "no response"))
        }
    }
}

/// Unwraps or fails the replay with a reason.
extension Optional {
    func orThrow(_ reason: String) throws -> Wrapped {
        guard let self else { throw HeadlessBrowser.Failure(description: reason) }
        return self
    }
}
