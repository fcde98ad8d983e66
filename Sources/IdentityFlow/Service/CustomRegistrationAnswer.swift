/// A server's answer to a custom registration step.
public struct CustomRegistrationAnswer: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    private struct Fields: Sendable, Hashable {
        let info: CustomInfo
        let session: String?
        let tokens: TokenSet?
    }

    /// One box, so the registration machine copies an answer with one retain.
    private let fields: Box<Fields>

    /// The identity provider's status and data.
    public var info: CustomInfo { fields.value.info }
    /// The registration session the next step must name (two-step init answers carry one).
    public var session: String? { fields.value.session }
    /// The tokens issued for the new user, on a 2000-2999 finish answer.
    public var tokens: TokenSet? { fields.value.tokens }

    /// Creates an answer.
    /// - Parameters:
    ///   - info: Status and data.
    ///   - session: The session for the next step.
    ///   - tokens: Tokens, when the registration succeeded.
    public init(info: CustomInfo, session: String? = nil, tokens: TokenSet? = nil) {
        fields = Box(Fields(info: info, session: session, tokens: tokens))
    }

    /// The status; the session and tokens print as `<redacted>` (the session lets its holder
    /// complete the registration).
    public var description: String {
        "CustomRegistrationAnswer(status: \(info.status), session: \(session == nil ? "none" : "<redacted>"), tokens: \(tokens == nil ? "none" : "<redacted>"))"
    }

    /// What `dump` shows: the description, never the session or tokens.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
