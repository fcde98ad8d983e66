/// A server's answer to a custom registration step.
///
/// Its description, debug description and `dump` show the status only: the session, data and
/// tokens are `<redacted>`.
@_spi(Integrator) public struct CustomRegistrationAnswer: Sendable, Hashable {
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
}

// MARK: - Redaction

extension CustomRegistrationAnswer: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `CustomRegistrationAnswer(info: CustomInfo(status: 2000, data: <redacted>), session: <redacted>, tokens: <redacted>)`;
    /// an absent session or token set shows as `nil`.
    public var description: String {
        "CustomRegistrationAnswer(info: \(info), session: \(session == nil ? "nil" : "<redacted>"), tokens: \(tokens == nil ? "nil" : "<redacted>"))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with the status and whether a session and tokens are present, so `dump` never reveals them.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["info": info, "session": session == nil ? "nil" : "<redacted>", "tokens": tokens == nil ? "nil" : "<redacted>"],
            displayStyle: .struct)
    }
}
