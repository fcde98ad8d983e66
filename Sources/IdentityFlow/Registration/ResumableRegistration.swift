import Foundation

/// A browser registration that was waiting for its redirect when the app stopped, as
/// ``UserClient/start()`` finds it in storage (``LaunchReport/resumableRegistrations``).
///
/// Hand the redirect to ``UserClient/handleRedirect(_:)`` and continue it with
/// ``UserClient/registerUser(_:delegate:isolation:)`` with ``RegistrationRequest/resume`` (or the async variants). It carries no secrets.
public struct ResumableRegistration: Sendable, Hashable, CustomStringConvertible {
    /// The profile being registered.
    public let profile: UserProfile
    /// The browser identity provider.
    public let identityProvider: IdentityProvider
    /// When the registration started waiting for the redirect.
    public let createdAt: Date
    /// When it can no longer be resumed (``ClientConfiguration/checkpointLifetime`` after ``createdAt``).
    public let expiresAt: Date

    /// Creates a summary (test doubles of a host's own use it).
    /// - Parameters:
    ///   - profile: The profile being registered.
    ///   - identityProvider: The provider.
    ///   - createdAt: When it started waiting.
    ///   - expiresAt: When it expires.
    package init(profile: UserProfile, identityProvider: IdentityProvider, createdAt: Date, expiresAt: Date) {
        self.profile = profile
        self.identityProvider = identityProvider
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// The profile, provider and expiry.
    public var description: String {
        "ResumableRegistration(\(profile.profileId), \(identityProvider.identifier), expires: \(expiresAt))"
    }
}
