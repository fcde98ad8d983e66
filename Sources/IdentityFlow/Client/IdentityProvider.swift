/// A way to register users: a browser identity provider (OAuth 2.0 / OpenID Connect in a
/// browser) or a custom one the app talks to directly in one or two steps.
public struct IdentityProvider: Sendable, Hashable, Codable, Identifiable, CustomStringConvertible {
    /// How registration with a provider proceeds.
    public enum Kind: Sendable, Hashable, Codable {
        /// The user signs in on a web page; the app catches the redirect.
        case browser
        /// The app sends registration data itself: `.oneStep` (finish only) or `.twoStep` (init, then finish).
        case custom(CustomRegistrationSteps)
        /// The app asks for a login and password itself (7Pass's native login, the OAuth password
        /// grant: legacy, RFC 9700 §2.4; use it only where the provider allows it).
        case credentials
        /// The app hands over a token from another provider (social login), exchanged by RFC 8693
        /// token exchange. Start it with ``RegistrationRequest/externalToken(_:scopes:)``.
        case tokenExchange
    }

    /// The provider's identifier on the server.
    public let identifier: String
    /// A name to show users.
    public let name: String
    /// How registration proceeds.
    public let kind: Kind

    /// Creates a provider.
    /// - Parameters:
    ///   - identifier: The identifier on the server.
    ///   - name: A display name.
    ///   - kind: Browser or custom.
    public init(identifier: String, name: String, kind: Kind) {
        self.identifier = identifier
        self.name = name
        self.kind = kind
    }

    /// The identifier, for `Identifiable`.
    public var id: String { identifier }

    /// `IdentityProvider(<id>, browser)`.
    public var description: String {
        switch kind {
        case .browser: "IdentityProvider(\(identifier), browser)"
        case .custom(let steps): "IdentityProvider(\(identifier), custom \(steps))"
        case .credentials: "IdentityProvider(\(identifier), credentials)"
        case .tokenExchange: "IdentityProvider(\(identifier), token exchange)"
        }
    }
}

/// The number of steps of a custom registration.
public enum CustomRegistrationSteps: Int, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Finish only: the host sends its data once.
    case oneStep = 1
    /// Init, then finish: the host may send initial data, the server answers, then the host sends
    /// the registration data.
    case twoStep = 2

    /// `one-step` / `two-step`.
    public var description: String { self == .oneStep ? "one-step" : "two-step" }
}
