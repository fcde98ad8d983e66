import Foundation
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// The reference server behind a choice point per call: each call the flow makes answers
/// normally, or meets a fault injected into the reference server right before it (network
/// error, server error, malformed answer, latency on the path's ``ManualClock`` that a helper
/// then lets pass or uses to cancel the flow), or answers and has the host cancel the flow just
/// as the answer comes back (before the flow sees it). Custom-provider calls also choose the
/// provider's status (2xxx, 4xxx, 5xxx, expired, invalid).
final class ExploringService: IdentityService {
    static let faults = ["networkError", "serverError", "malformedAnswer", "slowAnswer", "slowThenCancel", "answerThenCancel"]
    static let customAnswers = ["status:2000", "status:4001", "status:5001", "expired", "status:1000", "status:4001ThenCancel"]
    static let latency = Duration.seconds(1)
    static let committedStates: Set<String> = ["discardingRegistration", "revokingTokens", "storingSession", "storingAuthenticator"]

    let reference: ReferenceIdentityService
    private let control: PathControl

    init(reference: ReferenceIdentityService, control: PathControl) {
        self.reference = reference
        self.control = control
    }

    /// Meets the choice point of a call and arranges what was chosen.
    /// Makes the call through the reference server as the path chooses.
    private nonisolated(nonsending) func call<Result>(
        _ call: ServiceCall, answers: [String] = ["answer"], _ body: nonisolated(nonsending) () async throws(IdentityFlowError) -> Result
    ) async throws(IdentityFlowError) -> Result {
        let choice = decide(call, answers: answers)
        let result = try await body()
        if choice == "answerThenCancel" { control.client?.cancelCurrentFlow() }
        return result
    }

    @discardableResult
    private func decide(_ call: ServiceCall, answers: [String] = ["answer"]) -> String? {
        guard control.isArmed else { return nil }
        // Calls a flow makes while it cleans up or stores its outcome (revoking the session it
        // replaces): a cancel there is ignored, and a failed call may leave a token behind.
        let cleanup = control.notes.withLock { Self.committedStates.contains($0.state) }
        let choice = control.chooser.choose(call.rawValue, among: answers + Self.faults)
        if cleanup, ["networkError", "serverError", "malformedAnswer"].contains(choice) {
            control.notes.withLock { $0.cleanupFaulted = true }
        }
        let clock = control.clock
        switch choice {
        case "networkError": reference.inject(.networkError, into: call)
        case "serverError": reference.inject(.serverError, into: call)
        case "malformedAnswer": reference.inject(.malformedAnswer, into: call)
        case "slowAnswer", "slowThenCancel":
            reference.inject(.latency(Self.latency), into: call)
            let sleep = clock.sleepsStarted + 1
            let cancel = choice == "slowThenCancel"
            control.helper { [control] in
                // Started, not sleeping: a cancel may have ended the sleep already.
                await clock.waitForSleepsStarted(sleep)
                let cancelTookEffect = cancel && control.client?.cancelCurrentFlow() == true
                // A failing flow cleaning up ignores the cancel and still waits for this call; so
                // does a flow whose answer is on its way (the cancel is refused).
                if !cancelTookEffect || cleanup { clock.advance(by: Self.latency) }
            }
        case "expired": control.notes.withLock { $0.customAnswer = .expired }
        case "status:4001ThenCancel":
            control.notes.withLock { $0.customAnswer = .status(4001, data: "answer") }
            return "answerThenCancel"
        case let status where status.hasPrefix("status:"):
            control.notes.withLock { $0.customAnswer = .status(Int(status.dropFirst(7)) ?? 2000, data: "answer") }
        default: break
        }
        return choice
    }

    nonisolated(nonsending) func identityProviders() async throws(IdentityFlowError) -> [IdentityProvider] {
        try await call(.identityProviders) { () throws(IdentityFlowError) in try await reference.identityProviders() }
    }

    nonisolated(nonsending) func authorizationURL(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError) -> URL {
        try await call(.authorizationURL) { () throws(IdentityFlowError) in try await reference.authorizationURL(for: provider, request: request) }
    }

    nonisolated(nonsending) func checkAuthorizationResponseIssuer(_ issuer: String?) async throws(IdentityFlowError) {
        try await reference.checkAuthorizationResponseIssuer(issuer)
    }
    nonisolated(nonsending) func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet {
        try await call(.exchangeCode) { () throws(IdentityFlowError) in try await reference.exchangeCode(code, request: request) }
    }

    nonisolated(nonsending) func exchangeSession(_ session: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet {
        try await call(.exchangeCode) { () throws(IdentityFlowError) in try await reference.exchangeSession(session, request: request) }
    }

    nonisolated(nonsending) func initCustomRegistration(provider: IdentityProvider, data: Redacted<String?>) async throws(IdentityFlowError)
        -> CustomRegistrationAnswer
    {
        try await call(.initCustomRegistration, answers: Self.customAnswers) { () throws(IdentityFlowError) in
            try await reference.initCustomRegistration(provider: provider, data: data)
        }
    }

    nonisolated(nonsending) func completeCustomRegistration(provider: IdentityProvider, session: String?, data: Redacted<String?>)
        async throws(IdentityFlowError) -> CustomRegistrationAnswer
    {
        try await call(.completeCustomRegistration, answers: Self.customAnswers) { () throws(IdentityFlowError) in
            try await reference.completeCustomRegistration(provider: provider, session: session, data: data)
        }
    }

    nonisolated(nonsending) func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>) async throws(IdentityFlowError) -> PinEnrolmentReceipt {
        try await call(.enrolPin) { () throws(IdentityFlowError) in try await reference.enrolPin(enrolment, accessToken: accessToken) }
    }

    nonisolated(nonsending) func pinLoginChallenge(for profile: UserProfile) async throws(IdentityFlowError) -> PinLoginChallenge {
        try await call(.pinLoginChallenge) { () throws(IdentityFlowError) in try await reference.pinLoginChallenge(for: profile) }
    }

    nonisolated(nonsending) func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError)
        -> PinVerification
    {
        try await call(.verifyPinProof) { () throws(IdentityFlowError) in
            let verification = try await reference.verifyPinProof(proof, for: profile, nonce: nonce)
            if case .accepted = verification {} else { control.notes.withLock { $0.wrongPinsChecked += 1 } }
            return verification
        }
    }

    nonisolated(nonsending) func enrolBiometricKey(
        _ publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization, accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        try await call(.enrolBiometricKey) { () throws(IdentityFlowError) in
            try await reference.enrolBiometricKey(publicKey, for: profile, authorization: authorization, accessToken: accessToken)
        }
    }
    nonisolated(nonsending) func verifyBiometricProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError)
        -> PinVerification
    {
        try await call(.verifyBiometricProof) { () throws(IdentityFlowError) in
            // The server counts a wrong biometric proof on the same counter as a wrong PIN.
            let verification = try await reference.verifyBiometricProof(proof, for: profile, nonce: nonce)
            if case .accepted = verification {} else { control.notes.withLock { $0.wrongPinsChecked += 1 } }
            return verification
        }
    }
    nonisolated(nonsending) func revokeBiometricKey(for profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError) {
        try await call(.revokeBiometricKey) { () throws(IdentityFlowError) in try await reference.revokeBiometricKey(for: profile, authorization: authorization)
        }
    }
    nonisolated(nonsending) func refresh(_ refreshToken: Redacted<String>) async throws(IdentityFlowError) -> TokenSet {
        try await call(.refresh) { () throws(IdentityFlowError) in try await reference.refresh(refreshToken) }
    }

    nonisolated(nonsending) func revoke(_ tokens: TokenSet) async throws(IdentityFlowError) {
        try await call(.revoke) { () throws(IdentityFlowError) in try await reference.revoke(tokens) }
    }

    /// A logout page, or (`noEndpoint`) a provider that publishes no `end_session_endpoint`.
    nonisolated(nonsending) func endSessionURL(for request: EndSessionRequest) async throws(IdentityFlowError) -> URL? {
        let choice = decide(.endSessionURL, answers: ["answer", "noEndpoint"])
        let url = try await reference.endSessionURL(for: request)
        if choice == "answerThenCancel" { control.client?.cancelCurrentFlow() }
        return choice == "noEndpoint" ? nil : url
    }

    nonisolated(nonsending) func deregister(_ profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError) {
        try await call(.deregister) { () throws(IdentityFlowError) in try await reference.deregister(profile, authorization: authorization) }
    }

    nonisolated(nonsending) func profileExists(_ profile: UserProfile) async throws(IdentityFlowError) -> Bool {
        try await call(.profileExists) { () throws(IdentityFlowError) in try await reference.profileExists(profile) }
    }

    nonisolated(nonsending) func passwordGrant(login: String, password: Redacted<String>, scopes: [String]) async throws(IdentityFlowError)
        -> CredentialsOutcome
    {
        try await call(.passwordGrant) { () throws(IdentityFlowError) in try await reference.passwordGrant(login: login, password: password, scopes: scopes) }
    }

    nonisolated(nonsending) func exchangeExternalToken(_ token: ExternalToken, scopes: [String]) async throws(IdentityFlowError) -> CredentialsOutcome {
        try await call(.exchangeExternalToken) { () throws(IdentityFlowError) in try await reference.exchangeExternalToken(token, scopes: scopes) }
    }

    nonisolated(nonsending) func completePartialRegistration(
        stateKey: Redacted<String>, attributes: Redacted<[String: String]>,
        request: AuthorizationRequest
    ) async throws(IdentityFlowError) -> PartialRegistrationOutcome {
        try await call(.completePartialRegistration) { () throws(IdentityFlowError) in
            try await reference.completePartialRegistration(stateKey: stateKey, attributes: attributes, request: request)
        }
    }

    nonisolated(nonsending) func enrolMobileAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        try await call(.enrolMobileAuthentication) { () throws(IdentityFlowError) in
            try await reference.enrolMobileAuthentication(publicKey: publicKey, for: profile, authorization: authorization, accessToken: accessToken)
        }
    }

    nonisolated(nonsending) func enrolPushMobileAuthentication(deviceToken: [UInt8], for profile: UserProfile, accessToken: Redacted<String>)
        async throws(IdentityFlowError)
    {
        try await call(.enrolPushMobileAuthentication) { () throws(IdentityFlowError) in
            try await reference.enrolPushMobileAuthentication(deviceToken: deviceToken, for: profile, accessToken: accessToken)
        }
    }

    nonisolated(nonsending) func mobileAuthRequests(_ lookup: MobileAuthLookup, for profile: UserProfile, authorization: PinKeyAuthorization)
        async throws(IdentityFlowError) -> [MobileAuthRequest]
    {
        try await call(.mobileAuthRequests) { () throws(IdentityFlowError) in
            try await reference.mobileAuthRequests(lookup, for: profile, authorization: authorization)
        }
    }

    nonisolated(nonsending) func answerMobileAuthRequest(_ answer: MobileAuthAnswer) async throws(IdentityFlowError) -> MobileAuthVerdict {
        try await call(.answerMobileAuthRequest) { () throws(IdentityFlowError) in
            // A wrong step-up proof moves the same counter as a wrong PIN at login.
            let verdict = try await reference.answerMobileAuthRequest(answer)
            if verdict != .handled { control.notes.withLock { $0.wrongPinsChecked += 1 } }
            return verdict
        }
    }

    nonisolated(nonsending) func enrolImplicitAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        try await call(.enrolImplicitAuthentication) { () throws(IdentityFlowError) in
            try await reference.enrolImplicitAuthentication(publicKey: publicKey, for: profile, authorization: authorization, accessToken: accessToken)
        }
    }

    nonisolated(nonsending) func implicitAccessToken(scopes: [String], for profile: UserProfile, authorization: PinKeyAuthorization)
        async throws(IdentityFlowError) -> TokenSet
    {
        try await call(.implicitAccessToken) { () throws(IdentityFlowError) in
            try await reference.implicitAccessToken(scopes: scopes, for: profile, authorization: authorization)
        }
    }
}

/// An in-memory storage with a choice point per write: it works, or fails; while a flow stores
/// its outcome, the host may also cancel the flow during the write.
final class ExploringStorage: SecureStorage {
    private let inner = InMemoryStorage()
    private let control: PathControl

    init(control: PathControl) { self.control = control }

    static let storingStates: Set<String> = ["savingCheckpoint", "storingProfile", "storingSession", "storingAuthenticator"]

    private func decide(_ site: String) throws(IdentityFlowError) {
        let storing = Self.storingStates.contains(control.notes.withLock { $0.state })
        switch control.choose(site, among: ["works", "fails"] + (storing ? ["cancelFlowDuringWrite"] : [])) {
        case "fails":
            if site == "storageRemove" { control.notes.withLock { $0.storageRemoveFailed = true } }
            if site == "storageWrite" { control.notes.withLock { $0.storageWriteFailed = true } }
            throw IdentityFlowError(.dataStorageNotAvailable, "The storage failed (explored).")
        case "cancelFlowDuringWrite": control.client?.cancelCurrentFlow()
        default: break
        }
    }

    func data(forKey key: String) throws(IdentityFlowError) -> Data? { try inner.data(forKey: key) }
    func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) {
        try decide("storageWrite")
        try inner.setData(data, forKey: key)
        // In device mode the device counts: the wrong PINs checked are the count its vault keeps.
        if key.hasPrefix("identityflow.profile."), let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let count = (json["vault"] as? [String: Any])?["failureCount"] as? Int
        {
            control.notes.withLock { $0.wrongPinsChecked = count }
        }
    }
    func removeData(forKey key: String) throws(IdentityFlowError) {
        try decide("storageRemove")
        try inner.removeData(forKey: key)
    }
    func keys() throws(IdentityFlowError) -> [String] { try inner.keys() }

    /// Writes outside the path's choices (the test's own arrangements).
    func setDataWithoutChoice(_ data: Data, forKey key: String) { try? inner.setData(data, forKey: key) }
}
