import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
import Statechart

/// Every interop suite, nested so that they run one test at a time: the fixture keeps its state in
/// SQLite, whose writers lock each other out ("database is locked" answers HTTP 500) under
/// parallel requests.
@Suite("Interop against the fixture OpenID provider", .serialized, InteropEnvironment.enabled)
struct InteropSuite {}

/// Where the fixture OpenID provider runs: `IDENTITYFLOW_OIDC_ISSUER` (set by `.ci/run` from
/// `Tests/Fixtures/oidc/start.sh`). Without it the interop suites are disabled, with that reason.
enum InteropEnvironment {
    static let issuer: URL? = ProcessInfo.processInfo.environment["IDENTITYFLOW_OIDC_ISSUER"].flatMap { $0.isEmpty ? nil : URL(string: $0) }

    /// The trait every interop suite carries.
    static var enabled: ConditionTrait {
        .enabled(if: issuer != nil, "IDENTITYFLOW_OIDC_ISSUER is not set: start Tests/Fixtures/oidc/start.sh and export its last line (bash .ci/run does both)")
    }

    static let redirectURI = URL(string: "identityflow://callback")!
    static let clientID = "identityflow-tests"

    static func configuration(clientID: String = clientID) throws -> HTTPServiceConfiguration {
        let issuer: URL = try #require(Self.issuer)
        return HTTPServiceConfiguration(issuer: issuer, clientID: clientID, redirectURI: redirectURI, scopes: ["openid", "profile", "email"])
    }

    static func service(clientID: String = clientID) throws -> HTTPIdentityService {
        try HTTPIdentityService(configuration: try configuration(clientID: clientID))
    }

    static func client(_ service: HTTPIdentityService, storage: InMemoryStorage = InMemoryStorage()) async throws -> UserClient {
        var configuration = ClientConfiguration(redirectURI: redirectURI, defaultScopes: ["openid", "profile", "email"])
        configuration.callbackExecutor = .immediate
        let client = UserClient(configuration: configuration, service: service, storage: storage)
        try await client.start()
        return client
    }

    /// A fresh authorization request of the app's redirect URI.
    static func request() throws -> AuthorizationRequest {
        try AuthorizationRequest(redirectURI: redirectURI, scopes: ["openid", "profile", "email"])
    }

    static let browserProvider = IdentityProvider(identifier: "oidc", name: "OpenID Connect", kind: .browser)

    /// Logs alice in through the headless browser and returns the code of the redirect.
    static func code(for request: AuthorizationRequest, service: HTTPIdentityService) async throws -> Redacted<String> {
        let url = try await service.authorizationURL(for: browserProvider, request: request)
        let redirect = try await HeadlessBrowser().authorize(url)
        guard case .authorized(let code, let issuer) = BrowserRedirect.check(redirect, against: request) else {
            throw HeadlessBrowser.Failure(description: "the redirect carried no code")
        }
        try await service.checkAuthorizationResponseIssuer(issuer)
        return code
    }

    /// Tokens of alice, through the browser flow.
    static func tokens(service: HTTPIdentityService) async throws -> TokenSet {
        let request = try request()
        return try await service.exchangeCode(try await code(for: request, service: service), request: request)
    }

    /// Runs `body`, expects it to throw an error with `code`, and returns the error.
    @discardableResult
    static func expectError<T>(
        _ code: ErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws(IdentityFlowError) -> T
    ) async -> IdentityFlowError? {
        do {
            let value = try await body()
            Issue.record("expected error \(code), got \(value)", sourceLocation: sourceLocation)
            return nil
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            return error
        }
    }
}

/// Answers registration challenges like a user with the headless browser: logs in and consents (or
/// denies), sends the scripted custom data in order, and chooses PIN `73914`.
struct InteropResponder: ChallengeResponder {
    var allowConsent = true
    var customData: [String?] = []
    let seen = Locked<[String]>([])
    private let remaining: Locked<[String?]>

    init(allowConsent: Bool = true, customData: [String?] = []) {
        self.allowConsent = allowConsent
        self.customData = customData
        self.remaining = Locked(customData)
    }

    func receive(_ challenge: Challenge) async {
        switch challenge {
        case .browserRegistration(let browser):
            seen.withLock { $0.append("browser") }
            do {
                let redirect = try await HeadlessBrowser().authorize(browser.url, allow: allowConsent)
                browser.sender.respond(with: redirect, to: browser)
            } catch {
                Issue.record("headless browser failed: \(error)")
                browser.sender.cancel(browser)
            }
        case .customRegistration(let custom):
            seen.withLock { $0.append("\(custom.step)\(custom.info.map { ":\($0.status)" } ?? "")\(custom.error.map { " error \($0.code)" } ?? "")") }
            let next = remaining.withLock { $0.isEmpty ? nil : Optional($0.removeFirst()) }
            if let next { custom.sender.respond(with: next, to: custom) } else { custom.sender.cancel(custom) }
        case .createPin(let pin):
            seen.withLock { $0.append("createPin") }
            pin.sender.respond(with: "73914", to: pin)
        case .pin(let pin):
            seen.withLock { $0.append("pin") }
            pin.sender.respond(with: "73914", to: pin)
        case .biometric(let biometric):
            seen.withLock { $0.append("biometric") }
            biometric.sender.cancel(biometric)
        case .mobileAuthConfirmation(let confirmation):
            seen.withLock { $0.append("confirm") }
            confirmation.sender.respond(with: true, to: confirmation)
        case .partialRegistration(let partial):
            seen.withLock { $0.append("partial") }
            partial.sender.cancel(partial)
        case .credentials(let credentials):
            seen.withLock { $0.append("credentials") }
            credentials.sender.cancel(credentials)
        case .providerLogout(let logout):
            seen.withLock { $0.append("providerLogout") }
            logout.sender.cancel(logout)
        }
    }
}
