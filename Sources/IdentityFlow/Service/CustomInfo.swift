/// A custom identity provider's answer: a status and data.
///
/// Status 2000-2999 means success, 4000-4999 a recoverable failure (the same challenge comes
/// back and the user may try again), 5000-5999 an unrecoverable one (the flow fails and is
/// cleaned up). The data is the provider's, possibly personal: descriptions redact it.
public struct CustomInfo: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    /// The status.
    public let status: Int
    /// The data the provider sent along.
    public let data: String

    /// Creates an answer.
    /// - Parameters:
    ///   - status: The status.
    ///   - data: The data.
    public init(status: Int, data: String = "") {
        self.status = status
        self.data = data
    }

    /// How the status is to be treated.
    public var outcome: CustomStatusOutcome {
        switch status {
        case 2000...2999: .success
        case 4000...4999: .recoverable
        case 5000...5999: .unrecoverable
        default: .invalid
        }
    }

    /// `CustomInfo(status: 4001, data: <redacted>)`.
    public var description: String { "CustomInfo(status: \(status), data: <redacted>)" }
    /// Shows the status only.
    public var customMirror: Mirror { Mirror(self, children: ["status": status]) }
}

/// How a ``CustomInfo`` status is to be treated.
public enum CustomStatusOutcome: Sendable, Hashable {
    /// 2000-2999: move on.
    case success
    /// 4000-4999: the same step's challenge comes back with the answer and an error.
    case recoverable
    /// 5000-5999: the flow fails with ``ErrorCode/customRegistrationFailure``.
    case unrecoverable
    /// Anything else: the flow fails with ``ErrorCode/invalidServerResponse``.
    case invalid
}
