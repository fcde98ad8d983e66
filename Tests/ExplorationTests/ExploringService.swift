import Foundation
import IdentityFlow
import IdentityFlowTesting

/// The reference server behind a choice point per call: each call the flow makes answers
/// normally, or meets a fault injected into the reference server right before it (network
/// error, server error, malformed answer, latency on the path's ``ManualClock`` that a helper
/// then lets pass or uses to cancel the flow). Custom-provider calls also choose the provider's
/// status (2xxx, 4xxx, 5xxx, expired, invalid).
final class ExploringService: IdentityService {
    static let faults = ["networkError", "serverError", "malformedAnswer", "slowAnswer", "slowThenCancel"]
    static let customAnswers = ["status:2000", "status:4001", "status:5001", "expired", "status:1000"]
    static let latency = Duration.seconds(1)

    let reference: ReferenceIdentityService
    private let control: PathControl

    init(reference: ReferenceIdentityService, control: PathControl) {
        self.reference = reference
        self.control = control
    }

    /// Meets the choice point of a call and arranges what was chosen.
    private func decide(_ call: ServiceCall, answers: [String] = ["answer"]) {
        guard control.isArmed else { return }
        let cleanup = control.notes.withLock { $0.state == "discardingRegistration" }
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
            let sleepers = clock.sleeperCount + 1
            let cancel = choice == "slowThenCancel"
            control.helper { [control] in
                await clock.waitForSleepers(sleepers)
                if cancel { control.client?.cancelCurrentFlow() }
                // A failing registration ignores the cancel and still waits for this call.
                if !cancel || cleanup { clock.advance(by: Self.latency) }
            }
        case "expired": control.notes.withLock { $0.customAnswer = .expired }
        case let status where status.hasPrefix("status:"):
            control.notes.withLock { $0.customAnswer = .status(Int(status.dropFirst(7)) ?? 2000, data: "answer") }
        default: break
        }
    }

    func identityProviders() async throws(IdentityFlowError) -> [IdentityProvider] {
        decide(.identityProviders)
        return try await reference.identityProviders()
    }

    func authorizationURL(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError) -> URL {
        decide(.authorizationURL)
        return try await reference.authorizationURL(for: provider, request: request)
    }

    func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet {
        decide(.exchangeCode)
        return try await reference.exchangeCode(code, request: request)
    }

    func initCustomRegistration(provider: IdentityProvider, data: Redacted<String?>) async throws(IdentityFlowError) -> CustomRegistrationAnswer {
        decide(.initCustomRegistration, answers: Self.customAnswers)
        return try await reference.initCustomRegistration(provider: provider, data: data)
    }

    func completeCustomRegistration(provider: IdentityProvider, session: String?, data: Redacted<String?>) async throws(IdentityFlowError) -> CustomRegistrationAnswer {
        decide(.completeCustomRegistration, answers: Self.customAnswers)
        return try await reference.completeCustomRegistration(provider: provider, session: session, data: data)
    }

    func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>) async throws(IdentityFlowError) -> PinEnrolmentReceipt {
        decide(.enrolPin)
        return try await reference.enrolPin(enrolment, accessToken: accessToken)
    }

    func pinLoginChallenge(for profile: UserProfile) async throws(IdentityFlowError) -> PinLoginChallenge {
        decide(.pinLoginChallenge)
        return try await reference.pinLoginChallenge(for: profile)
    }

    func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError) -> PinVerification {
        decide(.verifyPinProof)
        let verification = try await reference.verifyPinProof(proof, for: profile, nonce: nonce)
        if case .accepted = verification {} else { control.notes.withLock { $0.wrongPinsChecked += 1 } }
        return verification
    }

    func refresh(_ refreshToken: Redacted<String>) async throws(IdentityFlowError) -> TokenSet {
        decide(.refresh)
        return try await reference.refresh(refreshToken)
    }

    func revoke(_ tokens: TokenSet) async throws(IdentityFlowError) {
        decide(.revoke)
        try await reference.revoke(tokens)
    }

    func deregister(_ profile: UserProfile, accessToken: Redacted<String>?) async throws(IdentityFlowError) {
        decide(.deregister)
        try await reference.deregister(profile, accessToken: accessToken)
    }

    func profileExists(_ profile: UserProfile) async throws(IdentityFlowError) -> Bool {
        decide(.profileExists)
        return try await reference.profileExists(profile)
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
            throw IdentityFlowError(.dataStorageNotAvailable, "The storage failed (explored).")
        case "cancelFlowDuringWrite": control.client?.cancelCurrentFlow()
        default: break
        }
    }

    func data(forKey key: String) throws(IdentityFlowError) -> Data? { try inner.data(forKey: key) }
    func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) {
        try decide("storageWrite")
        try inner.setData(data, forKey: key)
    }
    func removeData(forKey key: String) throws(IdentityFlowError) {
        try decide("storageRemove")
        try inner.removeData(forKey: key)
    }
    func keys() throws(IdentityFlowError) -> [String] { try inner.keys() }

    /// Writes outside the path's choices (the test's own arrangements).
    func setDataWithoutChoice(_ data: Data, forKey key: String) { try? inner.setData(data, forKey: key) }
}
