import Foundation

/// Reads a provider's or resource server's answer for DPoP (RFC 9449 §8, §9): the `DPoP-Nonce`
/// header, and whether the answer asks for a nonce: `{"error":"use_dpop_nonce"}` in a 400 JSON
/// body (the token endpoint, §8), or `WWW-Authenticate: DPoP error="use_dpop_nonce"` with a 401
/// (a resource server, §9).
package enum DPoPNonceAnswer {
    /// The longest nonce taken; a longer `DPoP-Nonce` is ignored.
    package static let maximumNonceLength = 1024

    /// The answer's `DPoP-Nonce` header, when it is a valid nonce (RFC 9449 §8.1: one or more of
    /// `%x21 / %x23-5B / %x5D-7E`, at most ``maximumNonceLength`` characters).
    /// - Parameter headers: The answer's header fields (names compared without case).
    /// - Returns: The nonce, or `nil`.
    package static func nonce(headers: [String: String]) -> String? {
        guard let value = headers.first(where: { $0.key.lowercased() == "dpop-nonce" })?.value else { return nil }
        let nonce = value.trimmingCharacters(in: .whitespaces)
        guard !nonce.isEmpty, nonce.utf8.count <= maximumNonceLength,
            nonce.utf8.allSatisfy({ $0 == 0x21 || (0x23...0x5B).contains($0) || (0x5D...0x7E).contains($0) })
        else { return nil }
        return nonce
    }

    /// The DPoP error an answer names: the `error` of a `WWW-Authenticate: DPoP` challenge, or the
    /// `error` member of a JSON body.
    /// - Parameters:
    ///   - headers: The answer's header fields.
    ///   - body: The answer's body.
    /// - Returns: `use_dpop_nonce`, `invalid_dpop_proof`, another error, or `nil`.
    package static func error(headers: [String: String], body: Data) -> String? {
        if let challenge = headers.first(where: { $0.key.lowercased() == "www-authenticate" })?.value,
            let error = dpopChallengeError(challenge)
        {
            return error
        }
        return StrictJSONParser.parse(body)?["error"]?.stringValue
    }

    /// The nonce the answer asks the next proof to carry, when it asks for one: a 400 or 401
    /// naming `use_dpop_nonce` (JSON body or DPoP challenge) with a valid `DPoP-Nonce` header.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - headers: The answer's header fields.
    ///   - body: The answer's body.
    /// - Returns: The nonce to retry with, or `nil` when the answer asks for none (or names none).
    package static func requestedNonce(status: Int, headers: [String: String], body: Data) -> String? {
        guard status == 400 || status == 401, error(headers: headers, body: body) == "use_dpop_nonce" else { return nil }
        return nonce(headers: headers)
    }

    /// Whether the answer refuses the proof itself: `invalid_dpop_proof`, or `use_dpop_nonce`
    /// (after the one retry, a second request for a nonce is a refusal too).
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - headers: The answer's header fields.
    ///   - body: The answer's body.
    package static func refusesProof(status: Int, headers: [String: String], body: Data) -> Bool {
        guard status == 400 || status == 401 else { return false }
        let error = error(headers: headers, body: body)
        return error == "invalid_dpop_proof" || error == "use_dpop_nonce"
    }

    /// The `error` parameter of the `DPoP` challenge in a `WWW-Authenticate` header (which may
    /// hold other challenges, such as `Bearer`, before or after it).
    private static func dpopChallengeError(_ header: String) -> String? {
        // The DPoP challenge runs from its scheme name to the next scheme name (a token followed
        // by a space rather than '=') or the end.
        let lowered = header.lowercased()
        var searchStart = lowered.startIndex
        while let range = lowered.range(of: "dpop", range: searchStart..<lowered.endIndex) {
            let atStart = range.lowerBound == lowered.startIndex || [" ", ","].contains(lowered[lowered.index(before: range.lowerBound)])
            let followed = range.upperBound == lowered.endIndex || lowered[range.upperBound] == " "
            if atStart, followed {
                let offset = lowered.distance(from: lowered.startIndex, to: range.upperBound)
                let rest = String(header.dropFirst(offset))
                return BearerTokenRefusal.challengeError(challengeParameters(rest))
            }
            searchStart = range.upperBound
        }
        return nil
    }

    /// The parameters of one challenge: `rest` up to the comma before the next challenge's scheme
    /// (a bare token after a comma, followed by a space or the end rather than by `=`).
    private static func challengeParameters(_ rest: String) -> String {
        let scalars = Array(rest.unicodeScalars)
        var index = 0
        var inQuotes = false
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\"", !(inQuotes && index > 0 && scalars[index - 1] == "\\") { inQuotes.toggle() }
            if !inQuotes, scalar == "," {
                var cursor = index + 1
                while cursor < scalars.count, scalars[cursor] == " " { cursor += 1 }
                let tokenStart = cursor
                while cursor < scalars.count, isTokenCharacter(scalars[cursor]) { cursor += 1 }
                if cursor > tokenStart, cursor == scalars.count || scalars[cursor] == " " || scalars[cursor] == "," {
                    return String(String.UnicodeScalarView(scalars[..<index]))
                }
            }
            index += 1
        }
        return rest
    }

    /// An RFC 9110 `tchar` (letters, digits and `!#$%&'*+-.^_`|~`).
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
    }
}
