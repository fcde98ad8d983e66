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

    /// The `Date` header: when the server made the answer, if it sent one in the standard form
    /// (RFC 9110 §5.6.7: `Sun, 06 Nov 1994 08:49:37 GMT`).
    var date: Date? {
        guard let value = header("Date") else { return nil }
        let parts = value.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (1...31).contains(day), (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
        return calendar.date(from: DateComponents(year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time[2]))
    }

    /// `Retry-After` in seconds, when the server sent it as a number.
    var retryAfterSeconds: Int? { header("Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }

    /// A header's value, its name compared without case.
    func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.key.lowercased() == wanted }?.value
    }

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
