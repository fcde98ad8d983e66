/// Where a client's authenticators (the PIN and biometrics) live: on the server, or on the device.
///
/// - ``server``: the server holds the PIN key's public half and counts wrong PINs (IdentityFlow's
///   extension API and PIN proof v2, `docs/pin-proof.md`). Needed for mobile and implicit
///   authentication. A registration fails before the browser opens, with
///   ``ErrorCode/featureNotSupported``, when the provider has no extension API.
/// - ``device(maxPinFailures:)``: works with any OpenID Connect provider. The provider's tokens
///   are sealed on the device under a key that only the PIN (with the device secret) or the
///   biometric key opens, and the device counts wrong PINs (`docs/device-authenticators.md`).
///
/// ```swift
/// var configuration = ClientConfiguration(redirectURI: URL(string: "myapp://callback")!)
/// configuration.authenticators = .device()   // Keycloak, Auth0, Okta, Entra ID, ...
/// ```
public struct AuthenticatorPlacement: Sendable, Hashable, CustomStringConvertible {
    /// Whether the authenticators live on the device.
    public let isOnDevice: Bool
    /// In device mode, the wrong PINs in a row after which the profile is removed (9003).
    public let maxPinFailures: Int

    /// On the server: IdentityFlow's extension API checks the PIN and counts the failures.
    public static let server = AuthenticatorPlacement(isOnDevice: false, maxPinFailures: 0)

    /// On the device: any OpenID Connect provider; the device checks the PIN and counts.
    /// - Parameter maxPinFailures: Wrong PINs in a row before the profile is removed, 1 to 10
    ///   (default 3, as OneWelcome's default); ``ClientConfiguration/problem`` names a value
    ///   outside that range.
    public static func device(maxPinFailures: Int = 3) -> AuthenticatorPlacement {
        AuthenticatorPlacement(isOnDevice: true, maxPinFailures: maxPinFailures)
    }

    /// `server` or `device(maxPinFailures: N)`.
    public var description: String { isOnDevice ? "device(maxPinFailures: \(maxPinFailures))" : "server" }

    /// Why the placement cannot be used, or `nil`.
    var problem: IdentityFlowError? {
        guard isOnDevice, !(1...10).contains(maxPinFailures) else { return nil }
        return IdentityFlowError(.configurationInvalid, "AuthenticatorPlacement.device needs maxPinFailures from 1 to 10, got \(maxPinFailures).")
    }
}

/// What ``UserClient/start()`` brings back of the last session.
///
/// ```swift
/// configuration.launchPolicy = .resumeLastUser   // Schibsted's resumeLastLoggedInUser, Grab's cached session
/// let launch = try await client.start()
/// if let profile = launch.resumedProfile { showHome(for: profile) } else { askForPin() }
/// ```
public enum LaunchPolicy: Sendable, Hashable {
    /// Nobody is logged in after a launch until the PIN or biometrics (the OneWelcome default).
    case requireAuthentication
    /// The user logged in when the app stopped is logged in again by `start()`, as long as the
    /// provider still refreshes their tokens; a logout, a deregistration or a refused refresh ends
    /// that. In device mode the vault key is then also kept under a resume key of its own
    /// (`docs/device-authenticators.md` says what that costs).
    case resumeLastUser
}
