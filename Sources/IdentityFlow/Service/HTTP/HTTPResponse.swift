import Foundation

/// A complete HTTP answer, read within the body cap.
struct HTTPResponse: Sendable {
    /// The status code.
    let status: Int
    /// The `Content-Type` header, lowercased, without parameters (`application/json`).
    let mediaType: String?
    /// The body.
    let body: Data
    /// The header fields as received (for ``URLSessionTransport``, which hands them to the host).
    var headers: [String: String] = [:]
    /// The URL that answered.
    var url: URL?

    /// Whether the media type is JSON (`application/json` or `application/<x>+json`).
    var isJSON: Bool {
        guard let mediaType else { return false }
        return mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    /// The body as a JSON value, or `nil` when the media type is not JSON or the body does not parse
    /// strictly (a repeated member name included, see ``StrictJSONParser``).
    var json: JSONValue? {
        guard isJSON else { return nil }
        return StrictJSONParser.parse(body)
    }
}
