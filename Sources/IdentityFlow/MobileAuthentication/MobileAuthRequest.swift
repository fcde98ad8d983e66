import Foundation

/// A request to confirm something on this device (a login on a website, a payment), sent by the
/// server to a profile enrolled for mobile authentication. It arrives by push (the payload
/// carries only its id, see ``MobileAuthPush``), in ``UserClient/pendingMobileAuthRequests(for:)``,
/// or as a one-time code the host scans; ``UserClient/handleMobileAuthRequest(_:delegate:isolation:)`` handles it.
public struct MobileAuthRequest: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The server's id of the request (its transaction id).
    public let id: String
    /// The profile asked to confirm.
    public let userProfile: UserProfile
    /// What the user is asked to confirm, for the confirmation screen.
    public let message: String
    /// What accepting it takes: a confirmation, or a confirmation stepped up with the PIN or biometrics.
    public let type: MobileAuthType
    /// When the server stops taking an answer, on the device's clock (`HTTPIdentityService` moves
    /// the server's time by the difference between the clocks, read from the answer's `Date`).
    public let expiresAt: Date
    /// The server's single-use nonce the device signs its answer over.
    package let nonce: [UInt8]

    /// A request as an `IdentityService` received it from its server.
    /// - Parameters:
    ///   - id: The request's id.
    ///   - userProfile: The profile it is for.
    ///   - message: The transaction message.
    ///   - type: What accepting takes.
    ///   - expiresAt: The expiry.
    ///   - nonce: The nonce the answer is signed over (16-64 bytes).
    public init(id: String, userProfile: UserProfile, message: String, type: MobileAuthType, expiresAt: Date, nonce: [UInt8]) {
        self.id = id
        self.userProfile = userProfile
        self.message = message
        self.type = type
        self.expiresAt = expiresAt
        self.nonce = nonce
    }

    /// Names the request, its profile and its type (not the message).
    public var description: String { "MobileAuthRequest(\(id), \(userProfile.profileId), \(type.rawValue))" }
}

/// What accepting a ``MobileAuthRequest`` takes.
public enum MobileAuthType: String, Sendable, Hashable, CaseIterable {
    /// Confirming is enough.
    case confirmation
    /// Confirming, then the PIN (counted as at login: wrong PINs lock the profile out).
    case pin
    /// Confirming, then biometrics (the PIN when biometrics are not registered, fail or the user prefers it).
    case biometric
}

/// A mobile authentication request as a push notification announces it: ids only, never the
/// message. Read one from the notification with ``init(pushPayload:)``.
public struct MobileAuthPush: Sendable, Hashable, CustomStringConvertible {
    /// The request's id.
    public let requestId: String
    /// The profile it is for.
    public let userProfile: UserProfile

    /// A push for a request.
    /// - Parameters:
    ///   - requestId: The request's id.
    ///   - userProfile: The profile.
    public init(requestId: String, userProfile: UserProfile) {
        self.requestId = requestId
        self.userProfile = userProfile
    }

    /// Reads the `identityflow` entry of a push notification's payload
    /// (`{"identityflow": {"request": "<id>", "profile": "<profile id>"}}`); `nil` for any other
    /// notification.
    /// - Parameter payload: The notification's `userInfo`.
    public init?(pushPayload payload: [AnyHashable: Any]) {
        guard let entry = payload["identityflow"] as? [AnyHashable: Any],
            let request = entry["request"] as? String, !request.isEmpty,
            let profile = entry["profile"] as? String, !profile.isEmpty
        else { return nil }
        self.init(requestId: request, userProfile: UserProfile(profileId: profile))
    }

    /// The payload a server sends for this push (what ``init(pushPayload:)`` reads).
    public var pushPayload: [String: [String: String]] {
        ["identityflow": ["request": requestId, "profile": userProfile.profileId]]
    }

    /// Names the request and profile.
    public var description: String { "MobileAuthPush(\(requestId), \(userProfile.profileId))" }
}

/// Where the request to handle comes from.
public enum MobileAuthSource: Sendable, Hashable, CustomStringConvertible {
    /// A push notification: the request is fetched from the server first.
    case push(MobileAuthPush)
    /// A request already fetched (from ``UserClient/pendingMobileAuthRequests(for:)``).
    case request(MobileAuthRequest)
    /// A one-time code the host was handed (usually scanned from a QR code).
    case otp(String)

    /// Names the source; a one-time code is not shown.
    public var description: String {
        switch self {
        case .push(let push): push.description
        case .request(let request): request.description
        case .otp: "otp(<redacted>)"
        }
    }
}

/// How a handled request ended. A denied request is an outcome, not an error.
public struct MobileAuthResult: Sendable, Hashable {
    /// The request.
    public let request: MobileAuthRequest
    /// Whether the user accepted it (`false`: denied).
    public let accepted: Bool
    /// The authenticator that stepped the acceptance up, `nil` for a confirmation or a denial.
    public let authenticator: Authenticator?
}
