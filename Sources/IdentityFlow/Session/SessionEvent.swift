/// Something that happened to a session outside any flow the host started.
public enum SessionEvent: Sendable, Hashable, CustomStringConvertible {
    /// At launch, the server no longer knew this profile; it was removed from the device.
    case profileRemovedAtLaunch(UserProfile)
    /// The access token was refreshed.
    case tokensRefreshed(UserProfile)
    /// The session ended because its tokens could not be refreshed; log in again.
    case loggedOut(UserProfile, reason: ErrorCode)

    /// `loggedOut(<profile>, 10024)` and the like.
    public var description: String {
        switch self {
        case .profileRemovedAtLaunch(let profile): "profileRemovedAtLaunch(\(profile))"
        case .tokensRefreshed(let profile): "tokensRefreshed(\(profile))"
        case .loggedOut(let profile, let reason): "loggedOut(\(profile), \(reason))"
        }
    }
}

/// What ``UserClient/start()`` found.
public struct LaunchReport: Sendable, Hashable {
    /// The profiles registered on this device after reconciliation.
    public let profiles: Set<UserProfile>
    /// Profiles the server no longer knew, removed from the device.
    public let removedProfiles: Set<UserProfile>
    /// Whether the server could be asked; when not, every stored profile was kept.
    public let reconciled: Bool
    /// Browser registrations that were waiting for their redirect when the app stopped: continue
    /// one with ``UserClient/handleRedirect(_:)`` and ``UserClient/registerUser(_:delegate:isolation:)`` with ``RegistrationRequest/resume``.
    /// Expired ones are listed too (resuming one fails with ``ErrorCode/registrationCheckpointExpired``
    /// and cleans it up).
    public let resumableRegistrations: [ResumableRegistration]
    /// Storage keys of profiles that could not be read (a corrupt or foreign file): they are left
    /// in place and not loaded. Remove one with your `SecureStorage`'s `removeData(forKey:)`, or
    /// keep it for diagnosis; each is also logged with code 9024.
    public let unreadableStorageKeys: [String]
    /// Device-mode profiles whose sealed data is corrupt, truncated or from another device
    /// (``ErrorCode/sealedDataInvalid``): they are kept, nothing is wiped, and logging in fails
    /// with that code until the host deregisters them.
    public let damagedProfiles: Set<UserProfile>
    /// Profiles whose stored item exists but cannot be read now: the device is locked, or has not
    /// been unlocked since it started (a launch in the background; ``ErrorCode/dataStorageLocked``).
    /// They are kept, nothing is removed, and they are not among ``profiles`` for this client:
    /// after the user unlocks the device, make a new client and call ``UserClient/start()``.
    public let unavailableProfiles: Set<UserProfile>
    /// The profile ``LaunchPolicy/resumeLastUser`` logged in again, or `nil`: another policy, no
    /// session to resume, or one the provider no longer refreshes.
    public let resumedProfile: UserProfile?

    /// Creates a report (test doubles of a host's own use it).
    /// - Parameters:
    ///   - profiles: The profiles kept.
    ///   - removedProfiles: The profiles removed.
    ///   - reconciled: Whether the server was asked.
    ///   - resumableRegistrations: Registrations waiting for their redirect.
    ///   - unreadableStorageKeys: Keys of stored profiles that could not be read.
    ///   - damagedProfiles: Device-mode profiles whose sealed data cannot be used.
    ///   - unavailableProfiles: Profiles whose stored item cannot be read now.
    ///   - resumedProfile: The profile logged in again.
    package init(
        profiles: Set<UserProfile>, removedProfiles: Set<UserProfile>, reconciled: Bool, resumableRegistrations: [ResumableRegistration] = [],
        unreadableStorageKeys: [String] = [], damagedProfiles: Set<UserProfile> = [], unavailableProfiles: Set<UserProfile> = [],
        resumedProfile: UserProfile? = nil
    ) {
        self.damagedProfiles = damagedProfiles
        self.unavailableProfiles = unavailableProfiles
        self.resumedProfile = resumedProfile
        self.profiles = profiles
        self.removedProfiles = removedProfiles
        self.reconciled = reconciled
        self.resumableRegistrations = resumableRegistrations
        self.unreadableStorageKeys = unreadableStorageKeys
    }
}
