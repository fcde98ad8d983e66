import Foundation
@_spi(Integrator) import IdentityFlow
import Statechart

extension ClientConfiguration {
    /// A configuration for tests: callbacks at once on the flow's context, a fast PIN key
    /// derivation (16 iterations, and `ClientConfiguration.acceptedPinKeyIterations` widened
    /// down to 1 to allow it), a redirect URI of its own and no logging unless a logger is given.
    /// - Parameters:
    ///   - pinPolicy: The PIN rules.
    ///   - challengeTimeout: The per-challenge timeout.
    ///   - clock: The clock for timeouts (a ``ManualClock`` in timeout tests).
    ///   - now: The wall-clock time (a ``ManualDate`` in token expiry tests).
    ///   - logger: Where warnings go.
    /// - Returns: The configuration.
    public static func testing(
        pinPolicy: PinPolicy = PinPolicy(),
        challengeTimeout: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        logger: IdentityFlowLogger = .disabled
    ) -> ClientConfiguration {
        var configuration = ClientConfiguration(
            redirectURI: URL(string: "identityflow-test://callback")!,
            pinPolicy: pinPolicy,
            pinKeyIterations: 16,
            challengeTimeout: challengeTimeout,
            clock: clock,
            now: now,
            callbackExecutor: .immediate,
            logger: logger)
        configuration.acceptedPinKeyIterations = 1...1_000_000
        return configuration
    }
}

/// Collects log records in memory, for tests that check what was logged.
public final class LogCapture: Sendable {
    private let records = Locked<[IdentityFlowLogger.Record]>([])

    /// Creates an empty capture.
    public init() {}

    /// A logger that writes into this capture, from `debug` up.
    public var logger: IdentityFlowLogger {
        IdentityFlowLogger(minimumLevel: .debug) { [records] record in records.withLock { $0.append(record) } }
    }

    /// Every record so far.
    public var all: [IdentityFlowLogger.Record] { records.withLock { $0 } }

    /// Every message so far.
    public var messages: [String] { all.map(\.message) }
}

extension UserClient {
    /// Creates a client over the in-memory reference server, for a host's unit tests.
    ///
    /// ```swift
    /// let server = ReferenceIdentityService()
    /// let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
    /// ```
    /// - Parameters:
    ///   - configuration: How the client behaves; ``ClientConfiguration/testing(pinPolicy:challengeTimeout:clock:now:logger:)`` suits tests.
    ///   - service: The reference server.
    ///   - storage: Where profiles and tokens are kept.
    ///   - transport: Sends `UserClient.authenticatedRequest(_:)` calls (a ``ReferenceResourceServer`` in tests).
    public convenience init(
        configuration: ClientConfiguration, service: ReferenceIdentityService, storage: any SecureStorage, transport: (any ResourceTransport)? = nil
    ) {
        self.init(configuration: configuration, server: IdentityServer(service), storage: storage, transport: transport)
    }
}

extension IdentityServer {
    /// The in-memory reference server, for a host's unit tests.
    /// - Parameter server: The reference server.
    /// - Returns: The server.
    public static func reference(_ server: ReferenceIdentityService) -> IdentityServer { IdentityServer(server) }
}
