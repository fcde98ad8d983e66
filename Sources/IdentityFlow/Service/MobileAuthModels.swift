/// Which mobile authentication requests an ``IdentityService`` fetches.
@_spi(Integrator) public enum MobileAuthLookup: Sendable, Hashable, CustomStringConvertible {
    /// Every open request for the profile.
    case pending
    /// The request with this id (a push named it).
    case id(String)
    /// The request a one-time code stands for.
    case otp(Redacted<String>)

    /// The bytes the device key signs for this lookup (`docs/mobile-auth.md`).
    package var signedSubject: [UInt8] {
        switch self {
        case .pending: Array("pending".utf8)
        case .id(let id): Array("id:\(id)".utf8)
        case .otp(let otp): Array("otp:\(otp.value)".utf8)
        }
    }

    /// Names the lookup; a one-time code is not shown.
    public var description: String {
        switch self {
        case .pending: "pending"
        case .id(let id): "id(\(id))"
        case .otp: "otp(<redacted>)"
        }
    }
}

/// The device's answer to a ``MobileAuthRequest``, signed by the profile's mobile authentication
/// key over the request's nonce, its id and the decision (`docs/mobile-auth.md`).
@_spi(Integrator) public struct MobileAuthAnswer: Sendable, Hashable, CustomStringConvertible {
    /// The request's id.
    public let requestId: String
    /// The profile answering.
    public let profile: UserProfile
    /// Accept (`true`) or deny.
    public let accepted: Bool
    /// The mobile authentication key's signature.
    public let proof: Redacted<[UInt8]>
    /// The step-up authenticator's proof for a ``MobileAuthType/pin`` or
    /// ``MobileAuthType/biometric`` request: the PIN or biometric key's signature over a fresh
    /// nonce and the request's id. `nil` for a confirmation or a denial.
    public let stepUp: PinKeyAuthorization?
    /// Which key made ``stepUp``: `.pin` or `.biometric`.
    public let stepUpAuthenticator: Authenticator?

    /// An answer.
    /// - Parameters:
    ///   - requestId: The request's id.
    ///   - profile: The profile.
    ///   - accepted: The decision.
    ///   - proof: The mobile authentication key's signature.
    ///   - stepUp: The step-up proof, if any.
    ///   - stepUpAuthenticator: The step-up authenticator, if any.
    public init(
        requestId: String, profile: UserProfile, accepted: Bool, proof: Redacted<[UInt8]>,
        stepUp: PinKeyAuthorization? = nil, stepUpAuthenticator: Authenticator? = nil
    ) {
        self.requestId = requestId
        self.profile = profile
        self.accepted = accepted
        self.proof = proof
        self.stepUp = stepUp
        self.stepUpAuthenticator = stepUpAuthenticator
    }

    /// Names the request and decision; no proof.
    public var description: String {
        "MobileAuthAnswer(\(requestId), \(profile.profileId), \(accepted ? "accept" : "deny")\(stepUpAuthenticator.map { ", " + $0.name } ?? ""))"
    }
}

/// What the server made of a ``MobileAuthAnswer``.
@_spi(Integrator) public enum MobileAuthVerdict: Sendable, Hashable {
    /// The answer is taken: the request is closed with the user's decision.
    case handled
    /// The step-up PIN (or biometric key) was wrong; the request stays open.
    case rejected(failureCount: Int, maxFailureCount: Int)
    /// That was the last allowed wrong PIN, or the server no longer knows the profile.
    case deregistered
}
