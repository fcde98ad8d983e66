/// The area an error belongs to, as in the anchor SDK's catalogue.
public enum ErrorDomain: String, Sendable, Hashable, Codable, CaseIterable {
    /// Network, storage, cancellation and other errors any flow can meet.
    case generic
    /// Login with a PIN or biometrics.
    case authentication
    /// User registration through a browser or custom identity provider.
    case registration
    /// The PIN policy, when a new PIN is created.
    case pinValidation
    /// Changing the PIN.
    case changePin
    /// Removing a profile.
    case deregistration
    /// Ending the session.
    case logout
    /// Confirming requests on this device (mobile authentication) and tokens without user
    /// interaction (implicit authentication).
    case mobileAuthentication
}
