import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The host's part of the transport: a `URLSessionConfiguration` and delegate of its own, headers
/// added to every request, and certificate pinning by public key.
///
/// Set it on ``HTTPServiceConfiguration/transportOptions`` for the identity service; the default
/// ``URLSessionTransport`` of ``UserClient/authenticatedRequest(_:)`` takes the same session and
/// pins (not the headers, which are the identity provider's), or give one its own with
/// ``URLSessionTransport/init(requestTimeout:maxResponseBodySize:options:)``.
///
/// ```swift
/// var configuration = HTTPServiceConfiguration(issuer: issuer, clientID: "my-app", redirectURI: callback)
/// configuration.transportOptions.headers = ["X-OIDC": "v1"]
/// configuration.transportOptions.pinnedPublicKeys = [
///     "id.example.com": ["Y67LLn1Jpu2+0gIC1NpDDcCnbv1HGFN29hJtfMappG0=", "<backup key's pin>"],
/// ]
/// configuration.transportOptions.session = URLSessionCustomization(
///     configuration: {
///         let session = URLSessionConfiguration.ephemeral
///         session.connectionProxyDictionary = proxySettings
///         return session
///     },
///     delegate: MetricsCollector())
/// ```
///
/// ## Pinning
///
/// A pin is the base64 of the SHA-256 digest of a certificate's DER `SubjectPublicKeyInfo`, as in
/// HPKP, OkHttp and TrustKit (`sha256/` or `sha256//` in front is accepted). A host with pins is
/// reached only when the server's certificate has one of its keys (on Apple platforms any
/// certificate of the chain; on Linux the server's own only: pin the leaf's key and a backup),
/// on top of the platform's usual certificate validation; on a mismatch the connection is closed after the TLS
/// handshake and the call fails with ``ErrorCode/certificatePinMismatch``: no request byte (no
/// header, no body, no token) is sent. Hosts without pins are reached as before. Pin the key of
/// the certificate in use and a backup key, so that a key change does not lock the app out.
///
/// Where it is enforced: on Apple platforms in the `URLSession` delegate's server trust
/// evaluation; on Linux, where FoundationNetworking never offers the server trust to a delegate,
/// requests to a pinned host go through libcurl's own public key pinning
/// (`CURLOPT_PINNEDPUBLICKEY`, the libcurl FoundationNetworking itself loads): there the
/// session customization is not used for pinned hosts, and a system without a usable libcurl
/// fails with ``ErrorCode/certificatePinningUnavailable`` before anything is sent.
public struct HTTPTransportOptions: Sendable, Hashable {
    /// Headers added to every request, such as Schibsted's `X-OIDC: v1`. A header the request
    /// sets itself wins; the protocol's own headers (see ``reservedHeaders``) cannot be set here.
    public var headers: [String: String]
    /// The pinned public keys per host name (compared without case, exact: no wildcards): base64
    /// SHA-256 digests of DER `SubjectPublicKeyInfo`s.
    public var pinnedPublicKeys: [String: Set<String>]
    /// The host's `URLSessionConfiguration` and delegate, or `nil` for an ephemeral session.
    public var session: URLSessionCustomization?
    /// A PEM file of certificate authorities trusted instead of the system's on the Linux pinned
    /// path (tests only: a self-signed test server).
    package var trustedCertificatesFile: String?
    /// Behave as on a Linux system without a usable libcurl (tests only: the refusal is then
    /// ``ErrorCode/certificatePinningUnavailable``).
    package var simulatesMissingPinningSupport = false
    /// The name of one libcurl option (`"PINNEDPUBLICKEY"`, `"CAINFO"`, ...) whose setting fails
    /// on the Linux pinned path as in a libcurl built without it (tests only: the request then
    /// fails with ``ErrorCode/certificatePinningUnavailable`` before anything is sent).
    package var refusedPinningOption: String?

    /// Creates options.
    /// - Parameters:
    ///   - headers: Headers added to every request.
    ///   - pinnedPublicKeys: The pinned public keys per host name.
    ///   - session: The host's session configuration and delegate.
    public init(headers: [String: String] = [:], pinnedPublicKeys: [String: Set<String>] = [:], session: URLSessionCustomization? = nil) {
        self.headers = headers
        self.pinnedPublicKeys = pinnedPublicKeys
        self.session = session
    }

    /// Headers the transport and the protocol set themselves, never taken from ``headers``:
    /// credentials (`Authorization`, `Proxy-Authorization`, `Cookie`, `DPoP`), the body's
    /// description (`Content-Type`, `Content-Length`, `Content-Encoding`, `Transfer-Encoding`),
    /// what the answer must be (`Accept`), and the connection's own (`Host`, `Connection`,
    /// `Expect`, `TE`, `Upgrade`).
    public static let reservedHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "dpop", "content-type", "content-length", "content-encoding", "transfer-encoding",
        "accept", "host", "connection", "expect", "te", "upgrade",
    ]

    /// The first rule the options break, or `nil`: header names are RFC 9110 tokens outside
    /// ``reservedHeaders`` with values free of control characters; every pin is the base64 of 32
    /// bytes; every pinned host has a name and at least one pin.
    public var problem: IdentityFlowError? {
        for (name, value) in headers {
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(Self.isTokenCharacter) else {
                return IdentityFlowError(.configurationInvalid, "The header name '\(name)' is not a valid HTTP field name.")
            }
            if Self.reservedHeaders.contains(name.lowercased()) {
                return IdentityFlowError(
                    .configurationInvalid, "The header '\(name)' is the protocol's own and cannot be set in transportOptions.headers.")
            }
            if value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
                return IdentityFlowError(.configurationInvalid, "The value of header '\(name)' holds a control character (a line break?).")
            }
        }
        for (host, pins) in pinnedPublicKeys {
            // One colon is a port; an IPv6 literal has several.
            if host.isEmpty || host.contains("/") || host.filter({ $0 == ":" }).count == 1 {
                return IdentityFlowError(.configurationInvalid, "The pinned host '\(host)' is not a host name (no scheme, port or path).")
            }
            if pins.isEmpty { return IdentityFlowError(.configurationInvalid, "The host '\(host)' is pinned to no key.") }
            for pin in pins where Self.digest(of: pin) == nil {
                return IdentityFlowError(
                    .configurationInvalid, "The pin '\(pin)' for \(host) is not the base64 of a SHA-256 digest (32 bytes) of a SubjectPublicKeyInfo.")
            }
        }
        return nil
    }

    /// The pins of `url`'s host, normalized to bare base64, or `nil` when the host has none.
    func pins(for url: URL) -> Set<String>? {
        guard var host = url.host?.lowercased(), !pinnedPublicKeys.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let matching = pinnedPublicKeys.filter { key, _ in
            var pinned = key.lowercased()
            if pinned.hasPrefix("["), pinned.hasSuffix("]") { pinned = String(pinned.dropFirst().dropLast()) }
            if pinned.hasSuffix(".") { pinned.removeLast() }
            return pinned == (host.hasSuffix(".") ? String(host.dropLast()) : host)
        }
        guard !matching.isEmpty else { return nil }
        return Set(matching.values.joined().compactMap { Self.digest(of: $0)?.base64EncodedString() })
    }

    /// `request` with ``headers`` added where it sets none of the same name.
    func applyingHeaders(to request: URLRequest) -> URLRequest {
        var request = request
        for (name, value) in headers.sorted(by: { $0.key < $1.key })
        where !Self.reservedHeaders.contains(name.lowercased()) && request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }

    /// The 32-byte digest a pin names, or `nil` when it names none.
    static func digest(of pin: String) -> Data? {
        var text = pin.trimmingCharacters(in: .whitespaces)
        for prefix in ["sha256//", "sha256/"] where text.hasPrefix(prefix) {
            text.removeFirst(prefix.count)
            break
        }
        guard let data = Data(base64Encoded: text), data.count == 32 else { return nil }
        return data
    }

    /// RFC 9110 `tchar`.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        default: "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
        }
    }
}

/// The host's `URLSessionConfiguration` and session delegate for IdentityFlow's requests.
///
/// Each request runs on a session of its own, made from a fresh ``makeConfiguration``; from the
/// host's configuration IdentityFlow overrides only what the protocol needs: no cookie storage,
/// no URL cache, and timeouts past its own deadline (``HTTPServiceConfiguration/requestTimeout``).
/// Everything else (proxy, TLS versions, cellular and constrained network access, additional
/// headers, `protocolClasses`) is the host's.
///
/// The delegate receives (at its task-level challenge method, else its session-level one) the
/// authentication challenges IdentityFlow does not settle itself
/// (client certificates, HTTP authentication; on Apple platforms the server trust too, once the
/// pins of a pinned host matched) and the task metrics (which FoundationNetworking never
/// collects). The answer's data, the response and the
/// redirect decisions stay IdentityFlow's: they carry tokens. On Linux, FoundationNetworking
/// offers no server trust challenge and ignores `connectionProxyDictionary` (libcurl reads the
/// `https_proxy` and `no_proxy` environment variables instead).
///
/// Two customizations are equal only when they are the same value (copies of one another):
/// closures and delegates cannot be compared.
public struct URLSessionCustomization: Sendable, Hashable {
    /// Makes the configuration of each request's session.
    public let makeConfiguration: @Sendable () -> URLSessionConfiguration
    /// The host's session delegate, if any.
    public let delegate: (any URLSessionDelegate & Sendable)?
    private let identity = Identity()

    private final class Identity: Sendable {}

    /// Creates a customization.
    /// - Parameters:
    ///   - configuration: Makes each request's session configuration (called once per request).
    ///   - delegate: The host's session delegate (retained for the life of the options).
    public init(
        configuration: @escaping @Sendable () -> URLSessionConfiguration = { URLSessionConfiguration.ephemeral },
        delegate: (any URLSessionDelegate & Sendable)? = nil
    ) {
        self.makeConfiguration = configuration
        self.delegate = delegate
    }

    /// Whether both are the same customization.
    public static func == (lhs: URLSessionCustomization, rhs: URLSessionCustomization) -> Bool { lhs.identity === rhs.identity }

    /// Hashes the customization's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(identity)) }
}
