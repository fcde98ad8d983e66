import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the host's API requests for ``UserClient/authenticatedRequest(_:)``.
public protocol ResourceTransport: Sendable {
    /// Sends a request.
    /// - Parameter request: The request, with the `Authorization` header set.
    /// - Returns: The body and the HTTP response.
    /// - Throws: ``ErrorCode/networkConnectivityFailure`` when no answer came.
    func send(_ request: URLRequest) async throws(IdentityFlowError) -> (Data, HTTPURLResponse)
}

/// A ``ResourceTransport`` over `URLSession`.
public struct URLSessionTransport: ResourceTransport {
    private let session: URLSession

    /// Creates a transport.
    /// - Parameter session: The session; `.shared` by default.
    public init(session: URLSession = .shared) { self.session = session }

    /// Sends a request through the session.
    public func send(_ request: URLRequest) async throws(IdentityFlowError) -> (Data, HTTPURLResponse) {
        let (data, response): (Data, URLResponse)
        do { (data, response) = try await session.data(for: request) } catch {
            throw IdentityFlowError(.networkConnectivityFailure, "The request could not be sent.", underlying: error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw IdentityFlowError(.invalidServerResponse, "The answer was not an HTTP response.")
        }
        return (data, http)
    }
}
