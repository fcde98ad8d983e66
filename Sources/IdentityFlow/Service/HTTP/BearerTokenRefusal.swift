import Foundation

/// Whether an answer to a request carrying a bearer token says that the token is invalid.
///
/// RFC 6750 §3.1 puts `invalid_token` on a `401`, but servers also send it on a `400`; the error
/// code decides, whatever the status. It is read from the `WWW-Authenticate: Bearer` challenge's
/// `error` parameter (RFC 6750 §3) or from the `error` member of a JSON body.
enum BearerTokenRefusal {
    /// Whether the answer refuses the token: any `401`, or a `400` naming `invalid_token`.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - error: The answer's error code, from ``errorCode(wwwAuthenticate:json:)``.
    static func refusesToken(status: Int, error: String?) -> Bool {
        status == 401 || (status == 400 && error == "invalid_token")
    }

    /// The error code an answer names: the `WWW-Authenticate` challenge's `error` parameter, else
    /// the JSON body's `error` member.
    /// - Parameters:
    ///   - wwwAuthenticate: The `WWW-Authenticate` header, if any.
    ///   - json: The body, when it is JSON.
    static func errorCode(wwwAuthenticate: String?, json: JSONValue?) -> String? {
        wwwAuthenticate.flatMap(challengeError) ?? json?["error"]?.stringValue
    }

    /// The `error` auth-param of a `Bearer` challenge: `Bearer realm="api", error="invalid_token"`
    /// gives `invalid_token`; quoted or bare values (RFC 9110 §11.2).
    static func challengeError(_ header: String) -> String? {
        let scalars = Array(header.unicodeScalars)
        var index = 0
        while index < scalars.count {
            // A parameter name starts at the beginning or after a space or comma.
            let atBoundary = index == 0 || scalars[index - 1] == " " || scalars[index - 1] == ","
            let name = "error".unicodeScalars
            if atBoundary, index + name.count < scalars.count,
                String(String.UnicodeScalarView(scalars[index..<(index + name.count)])).lowercased() == "error"
            {
                var cursor = index + name.count
                while cursor < scalars.count, scalars[cursor] == " " { cursor += 1 }
                if cursor < scalars.count, scalars[cursor] == "=" {
                    cursor += 1
                    while cursor < scalars.count, scalars[cursor] == " " { cursor += 1 }
                    let quoted = cursor < scalars.count && scalars[cursor] == "\""
                    if quoted { cursor += 1 }
                    var value = String.UnicodeScalarView()
                    while cursor < scalars.count, quoted ? scalars[cursor] != "\"" : (scalars[cursor] != "," && scalars[cursor] != " ") {
                        value.append(scalars[cursor])
                        cursor += 1
                    }
                    return String(value)
                }
            }
            index += 1
        }
        return nil
    }
}
