import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Integrator) import IdentityFlow
import Statechart

/// A host API for tests of `UserClient/authenticatedRequest(_:)`: answers `200` to requests
/// whose bearer token the ``ReferenceIdentityService`` accepts and `401` to the others.
public final class ReferenceResourceServer: ResourceTransport {
    private let identityService: ReferenceIdentityService
    private let served = Locked<(accepted: Int, refused: Int)>((0, 0))

    /// Creates a resource server trusting an identity service's tokens.
    /// - Parameter identityService: Whose access tokens count.
    public init(trusting identityService: ReferenceIdentityService) { self.identityService = identityService }

    /// Requests answered `200`.
    public var acceptedCount: Int { served.current.accepted }
    /// Requests answered `401`.
    public var refusedCount: Int { served.current.refused }

    /// Answers the request.
    public func send(_ request: URLRequest) async throws(IdentityFlowError) -> (Data, HTTPURLResponse) {
        let header = request.value(forHTTPHeaderField: "Authorization") ?? ""
        let token = header.hasPrefix("Bearer ") ? String(header.dropFirst("Bearer ".count)) : ""
        let accepted = identityService.acceptsAccessToken(token)
        served.withLock { accepted ? ($0.accepted += 1) : ($0.refused += 1) }
        let url = request.url ?? URL(string: "https://resource.identityflow.invalid")!
        guard let response = HTTPURLResponse(url: url, statusCode: accepted ? 200 : 401, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "text/plain"])
        else {
            throw IdentityFlowError(.unknown, "Could not build the test response.")
        }
        return (Data((accepted ? "ok" : "unauthorized").utf8), response)
    }
}

/// A wall clock that moves only when a test says so, for token expiry.
///
/// ```swift
/// let date = ManualDate()
/// let server = ReferenceIdentityService(accessTokenLifetime: 60, now: date.now)
/// date.advance(by: 61)   // every access token has expired
/// ```
public final class ManualDate: Sendable {
    private let current: Locked<Date>

    /// Creates a date source.
    /// - Parameter start: The initial date.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Locked(start) }

    /// The current date, as a function to pass where a `now` is asked for.
    public var now: @Sendable () -> Date { { [current] in current.current } }

    /// Moves the date forward.
    /// - Parameter seconds: How far.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}
