import Foundation

/// Where an installed identity app takes a sign-in (Grab's app-to-app login), as a service
/// offers it for one authorization request.
@_spi(Integrator) public struct IdentityAppLink: Sendable, Hashable {
    /// The authorization request addressed to the identity app, when it takes one.
    public var appURL: URL?
    /// A URL whose scheme tells whether a version of the app that takes sign-ins is installed
    /// (Grab's `protocol_pax_ios`): ask the platform whether it can be opened; `nil` to ask about
    /// ``appURL`` itself.
    public var installationCheckURL: URL?
    /// Where to install the identity app (Grab's `appstore_link_ios`), offered only when the host
    /// chose ``AppLoginFallback/appStore``.
    public var appStoreURL: URL?

    /// Creates a link.
    /// - Parameters:
    ///   - appURL: The request addressed to the identity app.
    ///   - installationCheckURL: The URL whose scheme tells whether the app is installed.
    ///   - appStoreURL: Where to install the app.
    public init(appURL: URL?, installationCheckURL: URL? = nil, appStoreURL: URL? = nil) {
        self.appURL = appURL
        self.installationCheckURL = installationCheckURL
        self.appStoreURL = appStoreURL
    }
}
