import Foundation

/// How a ``UserClient`` behaves: the app's redirect URI, the PIN rules, timeouts, where
/// callbacks run and where messages are logged.
///
/// ```swift
/// var configuration = ClientConfiguration(redirectURI: URL(string: "myapp://callback")!)
/// configuration.challengeTimeout = .seconds(300)
/// configuration.callbackExecutor = .immediate   // in tests
/// ```
public struct ClientConfiguration: Sendable {
    /// The redirect URI registered for the app at the browser identity providers.
    public var redirectURI: URL
    /// The scopes asked for when a call names none.
    public var defaultScopes: [String]
    /// The rules new PINs must follow.
    public var pinPolicy: PinPolicy
    /// PBKDF2 iterations of the PIN key at enrolment. Higher is slower to brute-force and slower
    /// to log in; the test kit lowers it to keep suites fast. Must lie in ``acceptedPinKeyIterations``.
    public var pinKeyIterations: Int
    /// The iteration counts the client accepts from a server's PIN challenge: 100,000 to
    /// 1,000,000 by default. A count outside fails with ``ErrorCode/pinParametersRefused`` before
    /// any key is derived, so a server cannot downgrade the stretch or make a login hang.
    /// The test kit widens it downwards; at most 10,000,000.
    public var acceptedPinKeyIterations: ClosedRange<Int> = 100_000...1_000_000
    /// How long a challenge may wait for an answer before the flow fails with
    /// ``ErrorCode/actionCancelled``; `nil` waits forever.
    public var challengeTimeout: Duration?
    /// The clock timeouts are measured on (inject a manual clock in tests).
    public var clock: any Clock<Duration>
    /// The wall-clock time, for token expiry (inject a fixed or manual date in tests).
    public var now: @Sendable () -> Date
    /// Where delegate callbacks run when a flow is started from nonisolated code (tests,
    /// servers); the main actor by default. A flow started from an actor (a `@MainActor` screen)
    /// calls its delegate back on that actor instead, whatever this says.
    public var callbackExecutor: CallbackExecutor
    /// Where warnings go (stale answers, failed cleanup); standard error by default.
    public var logger: IdentityFlowLogger
    /// How long a browser registration can be resumed after it started waiting for its redirect,
    /// in this process or, from its checkpoint, in a later one (10 minutes by default).
    public var checkpointLifetime: Duration = .seconds(600)
    /// Whether a login of the profile that is logged in with a valid access token returns at once,
    /// with no challenge (Grab's cached session). Off by default: every login asks for the PIN
    /// or biometrics, as OneWelcome's does.
    public var reusesValidSession = false
    /// Whether browser challenges ask for an ephemeral browser session, without the shared
    /// cookies that give single sign-on (``BrowserRegistrationChallenge/prefersEphemeralSession``;
    /// Schibsted's `withSSO: false`). Off by default: a shared session.
    public var prefersEphemeralBrowserSession = false
    /// Redirects that come back to the app in the middle of a browser sign-in and are not its
    /// answer, such as a BankID app returning to `myapp:/bankId`. A URL whose scheme and host
    /// match one of these and whose path starts with its path is ignored: the browser challenge
    /// stays open, the flow keeps waiting, and the answer (or ``UserClient/handleRedirect(_:)``)
    /// returns `true`.
    public var intermediateRedirects: [URL] = []
    /// Where the PIN and biometric authenticators live: ``AuthenticatorPlacement/server`` (the
    /// default: IdentityFlow's extension API) or ``AuthenticatorPlacement/device(maxPinFailures:)``
    /// (any OpenID Connect provider).
    public var authenticators: AuthenticatorPlacement = .server
    /// What ``UserClient/start()`` brings back of the last session:
    /// ``LaunchPolicy/requireAuthentication`` by default.
    public var launchPolicy: LaunchPolicy = .requireAuthentication
    /// The hardware key device-mode vaults are bound to: the Secure Enclave where the platform
    /// has one, none on Linux (tests inject a double).
    var hardwareKey: (any HardwareKey)? = HardwareKeys.platformDefault

    /// Creates a configuration.
    /// - Parameters:
    ///   - redirectURI: The app's redirect URI.
    ///   - defaultScopes: Scopes used when a call names none.
    ///   - pinPolicy: The PIN rules.
    ///   - pinKeyIterations: PBKDF2 iterations of the PIN key at enrolment.
    ///   - challengeTimeout: The per-challenge timeout.
    ///   - clock: The clock for timeouts.
    ///   - now: The wall-clock time, for token expiry.
    ///   - callbackExecutor: Where callbacks run.
    ///   - logger: Where warnings go.
    public init(
        redirectURI: URL,
        defaultScopes: [String] = ["openid"],
        pinPolicy: PinPolicy = PinPolicy(),
        pinKeyIterations: Int = 100_000,
        challengeTimeout: Duration? = nil,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        callbackExecutor: CallbackExecutor = .mainActor,
        logger: IdentityFlowLogger = .standardError
    ) {
        self.redirectURI = redirectURI
        self.defaultScopes = defaultScopes
        self.pinPolicy = pinPolicy
        self.pinKeyIterations = pinKeyIterations
        self.challengeTimeout = challengeTimeout
        self.clock = clock
        self.now = now
        self.callbackExecutor = callbackExecutor
        self.logger = logger
    }

    /// The first rule the configuration breaks, or `nil` when it is usable.
    public var problem: IdentityFlowError? {
        if !pinPolicy.isValid {
            return IdentityFlowError(
                .configurationInvalid,
                "The PIN policy must ask for \(PinPolicy.allowedLengths.lowerBound) to \(PinPolicy.allowedLengths.upperBound) digits and allow each digit at least once."
            )
        }
        if acceptedPinKeyIterations.lowerBound < 1 || acceptedPinKeyIterations.upperBound > 10_000_000 {
            return IdentityFlowError(.configurationInvalid, "acceptedPinKeyIterations must lie within 1...10,000,000.")
        }
        if !acceptedPinKeyIterations.contains(pinKeyIterations) {
            return IdentityFlowError(
                .configurationInvalid,
                "pinKeyIterations must lie in acceptedPinKeyIterations (\(acceptedPinKeyIterations.lowerBound)...\(acceptedPinKeyIterations.upperBound)).")
        }
        if let challengeTimeout, challengeTimeout <= .zero {
            return IdentityFlowError(.configurationInvalid, "challengeTimeout must be positive.")
        }
        if defaultScopes.isEmpty {
            return IdentityFlowError(.configurationInvalid, "defaultScopes must name at least one scope.")
        }
        if checkpointLifetime <= .zero {
            return IdentityFlowError(.configurationInvalid, "checkpointLifetime must be positive.")
        }
        if let problem = authenticators.problem { return problem }
        if redirectURI.scheme == nil {
            return IdentityFlowError(.configurationInvalid, "The redirect URI \(redirectURI) has no scheme.")
        }
        return nil
    }
}
