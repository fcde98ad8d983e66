import Foundation

/// The one error type IdentityFlow reports: a stable ``code``, its ``domain``, a clear
/// ``message``, the ``underlying`` cause if any, and typed extras for the codes that carry them.
///
/// ```swift
/// do {
///     let result = try await client.registerUser(.provider(provider, scopes: ["openid"]), responder: ui)
/// } catch where error.code == .customRegistrationFailure {
///     show(error.customInfo?.data)
/// }
/// ```
///
/// Descriptions never contain secrets: the message is written by IdentityFlow, and the underlying
/// error is named by its type and code only.
public struct IdentityFlowError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// The stored fields.
    private struct Fields: Sendable {
        let code: ErrorCode
        let message: String
        let underlying: (any Error & Sendable)?
        var customInfo: CustomInfo?
        var requiredPinLength: Int?
        var maxSimilarDigits: Int?
        var userProfile: UserProfile?
        var oauthError: String?
    }

    /// One box (docs/performance-notes.md#boxed-payloads).
    private var fields: Box<Fields>

    /// The stable numeric code.
    public var code: ErrorCode { fields.value.code }
    /// What happened, in a sentence a developer can act on.
    public var message: String { fields.value.message }
    /// The error that caused this one, if any.
    public var underlying: (any Error & Sendable)? { fields.value.underlying }
    /// For ``ErrorCode/customRegistrationFailure`` and recoverable custom statuses: the server's answer.
    public var customInfo: CustomInfo? {
        get { fields.value.customInfo }
        set { fields = fields.replacing(\.customInfo, with: newValue) }
    }
    /// For ``ErrorCode/wrongPinLength``: the number of digits a PIN must have.
    public var requiredPinLength: Int? {
        get { fields.value.requiredPinLength }
        set { fields = fields.replacing(\.requiredPinLength, with: newValue) }
    }
    /// For ``ErrorCode/pinShouldNotUseSimilarDigits``: how often one digit may appear at most.
    public var maxSimilarDigits: Int? {
        get { fields.value.maxSimilarDigits }
        set { fields = fields.replacing(\.maxSimilarDigits, with: newValue) }
    }
    /// For ``ErrorCode/userDeregistered`` and local-only outcomes: the profile concerned.
    public var userProfile: UserProfile? {
        get { fields.value.userProfile }
        set { fields = fields.replacing(\.userProfile, with: newValue) }
    }
    /// For ``ErrorCode/externalIdentityProviderFailure`` and protocol errors: the OAuth `error` value.
    public var oauthError: String? {
        get { fields.value.oauthError }
        set { fields = fields.replacing(\.oauthError, with: newValue) }
    }

    /// Creates an error.
    /// - Parameters:
    ///   - code: The code.
    ///   - message: What happened; the catalogue's meaning when omitted.
    ///   - underlying: The cause, if any.
    public init(_ code: ErrorCode, _ message: String? = nil, underlying: (any Error & Sendable)? = nil) {
        fields = Box(Fields(code: code, message: message ?? code.entry.meaning, underlying: underlying))
    }

    /// The code's domain.
    public var domain: ErrorDomain { code.entry.domain }

    /// `[registration 10022] The identity provider refused the registration. (status 5001)`.
    public var description: String {
        var text = "[\(domain.rawValue) \(code.rawValue)] \(message)"
        if let customInfo { text += " (status \(customInfo.status))" }
        if let underlying { text += " (caused by \(Self.name(of: underlying)))" }
        return text
    }

    /// The message, for `localizedDescription`.
    public var errorDescription: String? { message }

    fileprivate static func name(of error: any Error) -> String {
        if let error = error as? IdentityFlowError { return "\(error.domain.rawValue) \(error.code.rawValue)" }
        let bridged = error as NSError
        return "\(type(of: error)) \(bridged.domain) \(bridged.code)"
    }
}

extension IdentityFlowError {
    /// Matches an error against a code in `switch` patterns: `case .invalidPin:`.
    public static func ~= (code: ErrorCode, error: IdentityFlowError) -> Bool { error.code == code }

    /// Turns any error into an IdentityFlowError: itself if it already is one, `actionCancelled`
    /// for task cancellation, `unknown` otherwise.
    /// - Parameter error: The error.
    /// - Returns: The error with a code.
    package static func wrapping(_ error: any Error) -> IdentityFlowError {
        if let error = error as? IdentityFlowError { return error }
        if error is CancellationError { return IdentityFlowError(.actionCancelled, "The task running the flow was cancelled.") }
        return IdentityFlowError(.unknown, underlying: error as (any Error & Sendable))
    }
}

extension IdentityFlowError: Equatable {
    /// Two errors are equal when code, message and extras are; underlying errors compare by type and code.
    public static func == (lhs: IdentityFlowError, rhs: IdentityFlowError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.customInfo == rhs.customInfo
            && lhs.requiredPinLength == rhs.requiredPinLength && lhs.maxSimilarDigits == rhs.maxSimilarDigits
            && lhs.userProfile == rhs.userProfile && lhs.oauthError == rhs.oauthError
            && lhs.underlying.map(name(of:)) == rhs.underlying.map(name(of:))
    }
}
