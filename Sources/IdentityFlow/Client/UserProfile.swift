/// A user registered on this device. Its identifier is chosen by the device at registration and
/// bound to the user on the server when the PIN is enrolled.
public struct UserProfile: Sendable, Hashable, Codable, Identifiable, CustomStringConvertible {
    /// The profile's identifier.
    public let profileId: String

    /// Creates a profile value.
    /// - Parameter profileId: The identifier.
    public init(profileId: String) { self.profileId = profileId }

    /// The identifier, for `Identifiable`.
    public var id: String { profileId }

    /// `UserProfile(<id>)`.
    public var description: String { "UserProfile(\(profileId))" }
}
