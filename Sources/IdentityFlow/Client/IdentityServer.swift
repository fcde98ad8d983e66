import Foundation

/// The server a ``UserClient`` talks to, as a host hands it over: an OpenID Connect provider
/// (``openIDConnect(_:)``), or, in tests, IdentityFlowTesting's in-memory reference server.
///
/// ```swift
/// let server = try IdentityServer.openIDConnect(HTTPServiceConfiguration(issuer: issuer, clientID: "app", redirectURI: redirect))
/// let client = UserClient(configuration: configuration, server: server, storage: KeychainStorage())
/// ```
///
/// Hosts never implement the server side: the protocol the flows call and its wire models are
/// the integrator API (`@_spi(Integrator) import IdentityFlow`), for those who write an adapter
/// for a server of their own.
public struct IdentityServer: Sendable {
    /// The implementation the flows call.
    @_spi(Integrator) public let service: any IdentityService

    /// Wraps a server adapter of the integrator's own.
    /// - Parameter service: The implementation the flows call.
    @_spi(Integrator) public init(_ service: any IdentityService) {
        self.service = service
    }

    /// An OpenID Connect provider over HTTP: discovery, the authorization code flow with PKCE,
    /// token exchange, refresh, revocation, ID token validation, and IdentityFlow's registration
    /// and PIN extension endpoints where the server offers them.
    /// - Parameter configuration: The issuer, client and redirect URI, and how to reach them.
    /// - Returns: The server.
    /// - Throws: ``ErrorCode/configurationInvalid`` for an unusable configuration.
    public static func openIDConnect(_ configuration: HTTPServiceConfiguration) throws(IdentityFlowError) -> IdentityServer {
        IdentityServer(try HTTPIdentityService(configuration: configuration))
    }
}
