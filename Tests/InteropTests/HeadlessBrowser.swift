import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IdentityFlow
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

    /// Logs in with the HTML form, answers the consent form (`allow` or deny) and returns the
    /// redirect to the app's redirect URI, unfollowed. Knows the fixtures' pages: Django's login
    /// form (`username`) and allauth's (`login`), django-oauth-toolkit's and django-oidc-provider's
    /// consent form (`authorizationForm`, an `allow` button) and allauth's (checked scopes, an
    /// `action` button of `grant` or `cancel`).
    /// - Parameters:
    ///   - authorizationURL: The URL of the browser registration challenge.
    ///   - username: The fixture user.
    ///   - password: Their password.
    ///   - allow: Whether to grant consent.
    func authorize(_ authorizationURL: URL, username: String = "alice", password: String = "alice-password-1", allow: Bool = true) async throws -> URL {
        var page = try await get(authorizationURL)
        if page.status == 302, let location = page.location, location.contains("/accounts/login/") {
            let loginURL = try resolve(location, against: page.url)
            let login = try await get(loginURL)
            let userField = login.html.contains(#"name="login""#) ? "login" : "username"
            let fields = Self.formFields(in: login.html) + [(userField, username), ("password", password)]
            let posted = try await post(try resolve("/accounts/login/", against: loginURL), fields: fields)
            guard posted.status == 302, let next = posted.location else {
                throw Failure(description: "login answered \(posted.status)\(posted.html.contains("login-error") ? " (wrong password)" : "")")
            }
            page = try await get(try resolve(next, against: posted.url))
        }
        if page.status == 200, page.html.contains("authorizationForm") {
            page = try await post(page.url, fields: Self.formFields(in: page.html) + (allow ? [("allow", "Authorize")] : []))
        } else if page.status == 200, page.html.contains(/name="action"\s+value="grant"/) {
            page = try await post(page.url, fields: Self.formFields(in: page.html) + [("action", allow ? "grant" : "cancel")])
        }
        guard page.status == 302, let location = page.location, let redirect = URL(string: location) else {
            throw Failure(description: "authorization answered \(page.status) without a redirect")
        }
        return redirect
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
        request.httpBody = Data(fields.map {
            "\($0.name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&").utf8)
        return try await send(request)
    }

    private func send(_ request: URLRequest) async throws -> Page {
        var request = request
        let jar = cookies.current
        if !jar.isEmpty { request.setValue(jar.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "), forHTTPHeaderField: "Cookie") }
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
        return Page(status: response.statusCode, location: response.value(forHTTPHeaderField: "Location"),
                    html: String(decoding: data, as: UTF8.self), url: url)
    }

    private func resolve(_ location: String, against base: URL) throws -> URL {
        try URL(string: location, relativeTo: base).orThrow("bad Location \(location)").absoluteURL
    }

    // MARK: - HTML

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

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
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
