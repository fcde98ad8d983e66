/// A server's answer to a custom registration step.
public struct CustomRegistrationAnswer: Sendable, Hashable {
    /// The identity provider's status and data.
    public let info: CustomInfo
    /// The registration session the next step must name (two-step init answers carry one).
    public let session: String?
    /// The tokens issued for the new user, on a 2000-2999 finish answer.
    public let tokens: TokenSet?

    /// Creates an answer.
    /// - Parameters:
    ///   - info: Status and data.
    ///   - session: The session for the next step.
    ///   - tokens: Tokens, when the registration succeeded.
    public init(info: CustomInfo, session: String? = nil, tokens: TokenSet? = nil) {
        self.info = info
        self.session = session
        self.tokens = tokens
    }
}
