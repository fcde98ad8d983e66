/// A way to authenticate a registered profile: the PIN (always registered) or biometrics
/// (registered per profile, needs the PIN once).
public struct Authenticator: Sendable, Hashable, Codable, Identifiable, CustomStringConvertible {
    /// The kinds of authenticator.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The PIN.
        case pin
        /// Biometrics, confirmed by the host (Face ID, a fingerprint, or a test double).
        case biometric
    }

    /// The identifier.
    public let identifier: String
    /// A display name.
    public let name: String
    /// The kind.
    public let kind: Kind

    /// Creates an authenticator value.
    /// - Parameters:
    ///   - identifier: The identifier.
    ///   - name: A display name.
    ///   - kind: The kind.
    package init(identifier: String, name: String, kind: Kind) {
        self.identifier = identifier
        self.name = name
        self.kind = kind
    }

    /// The PIN authenticator.
    public static let pin = Authenticator(identifier: "pin", name: "PIN", kind: .pin)
    /// The biometric authenticator.
    public static let biometric = Authenticator(identifier: "biometric", name: "Biometrics", kind: .biometric)

    /// The identifier, for `Identifiable`.
    public var id: String { identifier }

    /// The identifier.
    public var description: String { identifier }
}

/// The server's count of wrong PINs for a profile.
public struct PinCounters: Sendable, Hashable, CustomStringConvertible {
    /// Wrong PINs in a row the server accepts before it deregisters the profile.
    public let maxFailureCount: Int
    /// Wrong PINs so far.
    public let previousFailureCount: Int

    /// Creates counters.
    /// - Parameters:
    ///   - maxFailureCount: The limit.
    ///   - previousFailureCount: Failures so far.
    public init(maxFailureCount: Int, previousFailureCount: Int) {
        self.maxFailureCount = maxFailureCount
        self.previousFailureCount = previousFailureCount
    }

    /// Attempts left before the profile is deregistered.
    public var remainingFailureCount: Int { max(0, maxFailureCount - previousFailureCount) }

    /// `2 of 3 left`.
    public var description: String { "\(remainingFailureCount) of \(maxFailureCount) left" }
}
