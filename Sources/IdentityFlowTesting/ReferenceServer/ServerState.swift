import Foundation
import IdentityFlow

/// Everything the ``ReferenceIdentityService`` remembers.
struct ServerState: Sendable {
    struct Grant: Sendable {
        let user: String
        let codeChallenge: String
        let redirectURI: URL
        let scopes: [String]
    }

    struct AccessGrant: Sendable {
        let user: String
        let expiresAt: Date
    }

    struct Enrolment: Sendable {
        let user: String
        let salt: [UInt8]
        let iterations: Int
        let verifier: Redacted<[UInt8]>
        var failureCount: Int
    }

    var maxPinFailures: Int
    var accessTokenLifetime: TimeInterval
    var providers: [IdentityProvider] = [ReferenceIdentityService.browserProvider]
    var scripts: [String: CustomProviderScript] = [:]
    var users: Set<String> = ["alice", "bob"]
    var grants: [String: Grant] = [:]
    var accessTokens: [String: AccessGrant] = [:]
    var refreshTokens: [String: String] = [:]
    var customSessions: [String: String] = [:]
    var enrolments: [String: Enrolment] = [:]
    var nonces: [[UInt8]: String] = [:]
    var faults: [ServiceCall: [ServiceFault]] = [:]
    var calls: [ServiceCall] = []
    private var serial = 0

    init(maxPinFailures: Int, accessTokenLifetime: TimeInterval) {
        self.maxPinFailures = maxPinFailures
        self.accessTokenLifetime = accessTokenLifetime
    }

    /// A fresh unique suffix for codes, tokens and sessions.
    mutating func nextSerial() -> String {
        serial += 1
        return String(serial) + "-" + ((try? SecureRandom.token(byteCount: 6)) ?? "")
    }

    /// The user an access token belongs to, if the server accepts it at `date`.
    func user(forAccessToken token: String, at date: Date) -> String? {
        accessTokens[token].flatMap { $0.expiresAt > date ? $0.user : nil }
    }

    /// Revokes every token of a user.
    mutating func revokeAllTokens(of user: String) {
        accessTokens = accessTokens.filter { $0.value.user != user }
        refreshTokens = refreshTokens.filter { $0.value != user }
    }
}
