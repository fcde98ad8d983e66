/// A user registered on this device. Its identifier is chosen by the device at registration and
/// bound to the user on the server when the PIN is enrolled.
///
/// Two profiles with the same identifier are equal; ``isStateless`` only describes one.
public struct UserProfile: Sendable, Hashable, Codable, Identifiable, CustomStringConvertible {
    /// The profile's identifier.
    public let profileId: String
    /// Whether the profile came from a stateless registration: it has no PIN and nothing of it is
    /// stored on the device; its session lives in memory until logout or the end of the process.
    public let isStateless: Bool

    /// Creates a profile value.
    /// - Parameter profileId: The identifier.
    public init(profileId: String) { self.init(profileId: profileId, isStateless: false) }

    init(profileId: String, isStateless: Bool) {
        self.profileId = profileId
        self.isStateless = isStateless
    }

    /// The identifier, for `Identifiable`.
    public var id: String { profileId }

    /// `UserProfile(<id>)`, or `UserProfile(<id>, stateless)`.
    public var description: String { "UserProfile(\(profileId)\(isStateless ? ", stateless" : ""))" }

    /// Compares identifiers.
    public static func == (lhs: UserProfile, rhs: UserProfile) -> Bool { lhs.profileId == rhs.profileId }

    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(profileId) }

    private enum CodingKeys: String, CodingKey { case profileId, isStateless }

    /// Reads `{"profileId": ...}` (a stored profile is never stateless).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            profileId: try container.decode(String.self, forKey: .profileId),
            isStateless: try container.decodeIfPresent(Bool.self, forKey: .isStateless) ?? false)
    }

    /// Writes `{"profileId": ...}`, with `"isStateless": true` for a stateless profile.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(profileId, forKey: .profileId)
        if isStateless { try container.encode(true, forKey: .isStateless) }
    }
}
