import Foundation
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// A ``ReferenceIdentityService`` with hooks: `after(name)` runs right after that call returns
/// from the server and before the flow sees the answer (a cancel placed "as the server answers");
/// `before(name)` runs when the call starts (a cancel "while the call is under way"). Hooks run
/// where the call runs (`nonisolated(nonsending)`): inside the flow's step, so a cancel they post
/// reaches the flow before the call's answer does.
final class HookedService: IdentityService {
    let inner: ReferenceIdentityService
    typealias Hook = nonisolated(nonsending) @Sendable () async -> Void
    private let hooks = Locked<[String: Hook]>([:])
    private let tokenEdits = Locked<[String: @Sendable (TokenSet) -> TokenSet]>([:])
    /// What `userInfo` answers instead of the server, as a service that does not check the subject would.
    let userInfoAnswer = Locked<UserInfo?>(nil)

    init(_ inner: ReferenceIdentityService = ReferenceIdentityService()) { self.inner = inner }

    /// Runs `hook` once, right after the call named `call` returns (names as the protocol's methods).
    func after(_ call: String, _ hook: @escaping Hook) { hooks.withLock { $0["after " + call] = hook } }
    /// Runs `hook` once, when the call named `call` starts.
    func before(_ call: String, _ hook: @escaping Hook) { hooks.withLock { $0["before " + call] = hook } }

    /// Rewrites every token set the call named `call` returns (`exchangeCode` or `refresh`), as a
    /// server that lies would.
    func editTokens(of call: String, _ edit: @escaping @Sendable (TokenSet) -> TokenSet) { tokenEdits.withLock { $0[call] = edit } }

    private func edited(_ tokens: TokenSet, by call: String) -> TokenSet {
        tokenEdits.withLock { $0[call] }.map { $0(tokens) } ?? tokens
    }

    private nonisolated(nonsending) func run<T>(_ call: String, _ body: nonisolated(nonsending) () async throws(IdentityFlowError) -> T)
        async throws(IdentityFlowError) -> T
    {
        if let hook = hooks.withLock({ $0.removeValue(forKey: "before " + call) }) { await hook() }
        let result = try await body()
        if let hook = hooks.withLock({ $0.removeValue(forKey: "after " + call) }) { await hook() }
        return result
    }

    nonisolated(nonsending) func identityProviders() async throws(IdentityFlowError) -> [IdentityProvider] {
        try await run("identityProviders") { () throws(IdentityFlowError) in try await inner.identityProviders() }
    }
    nonisolated(nonsending) func authorizationURL(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError) -> URL {
        try await run("authorizationURL") { () throws(IdentityFlowError) in try await inner.authorizationURL(for: provider, request: request) }
    }
    nonisolated(nonsending) func checkAuthorizationResponseIssuer(_ issuer: String?) async throws(IdentityFlowError) {
        try await inner.checkAuthorizationResponseIssuer(issuer)
    }
    nonisolated(nonsending) func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet {
        edited(try await run("exchangeCode") { () throws(IdentityFlowError) in try await inner.exchangeCode(code, request: request) }, by: "exchangeCode")
    }
    nonisolated(nonsending) func initCustomRegistration(provider: IdentityProvider, data: Redacted<String?>) async throws(IdentityFlowError)
        -> CustomRegistrationAnswer
    {
        try await run("initCustomRegistration") { () throws(IdentityFlowError) in try await inner.initCustomRegistration(provider: provider, data: data) }
    }
    nonisolated(nonsending) func completeCustomRegistration(provider: IdentityProvider, session: String?, data: Redacted<String?>)
        async throws(IdentityFlowError) -> CustomRegistrationAnswer
    {
        try await run("completeCustomRegistration") { () throws(IdentityFlowError) in
            try await inner.completeCustomRegistration(provider: provider, session: session, data: data)
        }
    }
    nonisolated(nonsending) func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>) async throws(IdentityFlowError) -> PinEnrolmentReceipt {
        try await run("enrolPin") { () throws(IdentityFlowError) in try await inner.enrolPin(enrolment, accessToken: accessToken) }
    }
    nonisolated(nonsending) func pinLoginChallenge(for profile: UserProfile) async throws(IdentityFlowError) -> PinLoginChallenge {
        try await run("pinLoginChallenge") { () throws(IdentityFlowError) in try await inner.pinLoginChallenge(for: profile) }
    }
    nonisolated(nonsending) func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError)
        -> PinVerification
    {
        try await run("verifyPinProof") { () throws(IdentityFlowError) in try await inner.verifyPinProof(proof, for: profile, nonce: nonce) }
    }
    nonisolated(nonsending) func enrolBiometricKey(
        _ publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization, accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        try await run("enrolBiometricKey") { () throws(IdentityFlowError) in
            try await inner.enrolBiometricKey(publicKey, for: profile, authorization: authorization, accessToken: accessToken)
        }
    }
    nonisolated(nonsending) func verifyBiometricProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError)
        -> PinVerification
    {
        try await run("verifyBiometricProof") { () throws(IdentityFlowError) in try await inner.verifyBiometricProof(proof, for: profile, nonce: nonce) }
    }
    nonisolated(nonsending) func revokeBiometricKey(for profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError) {
        try await run("revokeBiometricKey") { () throws(IdentityFlowError) in try await inner.revokeBiometricKey(for: profile, authorization: authorization) }
    }
    nonisolated(nonsending) func refresh(_ refreshToken: Redacted<String>) async throws(IdentityFlowError) -> TokenSet {
        edited(try await run("refresh") { () throws(IdentityFlowError) in try await inner.refresh(refreshToken) }, by: "refresh")
    }
    nonisolated(nonsending) func userInfo(accessToken: Redacted<String>, subject: String) async throws(IdentityFlowError) -> UserInfo {
        if let answer = userInfoAnswer.withLock({ $0 }) { return answer }
        return try await run("userInfo") { () throws(IdentityFlowError) in try await inner.userInfo(accessToken: accessToken, subject: subject) }
    }
    nonisolated(nonsending) func endSessionURL(for request: EndSessionRequest) async throws(IdentityFlowError) -> URL? {
        try await run("endSessionURL") { () throws(IdentityFlowError) in try await inner.endSessionURL(for: request) }
    }
    nonisolated(nonsending) func revoke(_ tokens: TokenSet) async throws(IdentityFlowError) {
        try await run("revoke") { () throws(IdentityFlowError) in try await inner.revoke(tokens) }
    }
    nonisolated(nonsending) func deregister(_ profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError) {
        try await run("deregister") { () throws(IdentityFlowError) in try await inner.deregister(profile, authorization: authorization) }
    }
    nonisolated(nonsending) func profileExists(_ profile: UserProfile) async throws(IdentityFlowError) -> Bool {
        try await run("profileExists") { () throws(IdentityFlowError) in try await inner.profileExists(profile) }
    }
}
