import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// Mobile authentication through the public API: enrolment, push, OTP and listed requests,
/// accept, deny, expiry, PIN and biometric step-up, lockout, replay and a forged device.
@Suite("Mobile authentication")
struct MobileAuthFlowTests {
    /// A registered, logged-in profile enrolled for (push) mobile authentication.
    static func enrolled(_ harness: Harness, push: Bool = true) async throws -> UserProfile {
        let profile = try await AuthenticationFlowTests.registered(harness)
        try await harness.client.enrollMobileAuthentication()
        if push { try await harness.client.enrollPushMobileAuthentication(deviceToken: Data([0xAB, 0xCD])) }
        return profile
    }

    func handle(_ harness: Harness, _ source: MobileAuthSource, _ steps: [ScriptStep]) async throws -> (
        Result<MobileAuthResult, IdentityFlowError>, ScriptedResponder
    ) {
        let responder = ScriptedResponder(steps)
        let result = await Result { () async throws(IdentityFlowError) in
            try await harness.client.handleMobileAuthRequest(source, responder: responder)
        }
        return (result, responder)
    }

    @Test("enrolment registers the key and the push token; requests are announced by push with ids only")
    func enrolmentAndPush() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.enrolled(harness)
        #expect(harness.client.isMobileAuthEnrolled(profile))
        #expect(harness.client.isPushMobileAuthEnrolled(profile))
        #expect(harness.server.isMobileAuthEnrolled(profile))
        #expect(harness.server.pushToken(of: profile) == Data([0xAB, 0xCD]))
        let push = try harness.server.sendMobileAuthRequest(to: profile, message: "Log in to shop.example?")
        #expect(harness.server.pushesSent == [push])
        let payload: [AnyHashable: Any] = push.pushPayload
        #expect(MobileAuthPush(pushPayload: payload) == push)
        #expect(!"\(payload)".contains("shop.example"), "the push payload carries the message")
        #expect(MobileAuthPush(pushPayload: ["aps": ["alert": "hi"]]) == nil)
    }

    @Test("the enrolment survives a restart: a new client on the same storage handles a push")
    func enrolmentIsStored() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.enrolled(harness)
        let restarted = UserClient(configuration: harness.client.configuration, service: harness.server, storage: harness.storage)
        try await restarted.start()
        #expect(restarted.isMobileAuthEnrolled(profile) && restarted.isPushMobileAuthEnrolled(profile))
        let push = try harness.server.sendMobileAuthRequest(to: profile, message: "After a restart")
        let result = try await restarted.handleMobileAuthRequest(.push(push), responder: ScriptedResponder([.mobileAuthConfirmation(.respond(true))]))
        #expect(result.accepted)
    }

    @Test("a push request, accepted: the confirmation shows the message; the server takes the decision")
    func acceptPush() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.enrolled(harness)
        let push = try harness.server.sendMobileAuthRequest(to: profile, message: "Log in to shop.example?")
        let (result, responder) = try await handle(
            harness, .push(push),
            [
                .mobileAuthConfirmation(
                    .respondWith { challenge in
                        #expect(challenge.request.message == "Log in to shop.example?")
                        #expect(challenge.userProfile == profile)
                        return true
                    })
            ])
        try responder.verify()
        let handled = try result.get()
        #expect(handled.accepted && handled.authenticator == nil && handled.request.id == push.requestId)
        #expect(harness.server.mobileAuthDecision(of: push.requestId) == true)
    }

    @Test("a denied request is an outcome, not an error, and the server records the denial")
    func deny() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.enrolled(harness)
        let push = try harness.server.sendMobileAuthRequest(to: profile, message: "Pay 500 EUR?", type: .pin)
        let (result, responder) = try await handle(harness, .push(push), [.mobileAuthConfirmation(.respond(false))])
        try responder.verify()
        #expect(try result.get().accepted == false)
        #expect(harness.server.mobileAuthDecision(of: push.requestId) == false)
    }

    @Test("a PIN step-up: a wrong PIN comes back with invalidPin and counters, the right one accepts")
    func pinStepUp() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.enrolled(harness)
        let push = try harness.server.sendMobileAuthRequest(to: profile, message: "Pay?", type: .pin)
        let (result, responder) = try await handle(
            harness, .push(push),
            [
                .mobileAuthConfirmation(.respond(true)),
                .pin(.respond("11223")),
                .pin(
                    .respondWith { challenge in
                        #expect(challenge.previousFailureCount == 1)
                        return "24680"
                    }, expecting: .invalidPin),
            ])
        try responder.verify()
        #expect(try result.get().authenticator == .pin)
        #expect(harness.server.mobileAuthDecision(of: push.requestId) == true)
    }

    @Test("wrong step-up PINs until lockout: the profile is deregistered and removed here", arguments: [1, 3])
    func lockout(limit: Int) async throws {
        let harness = try await Harness.make(server: ReferenceIdentityService(maxPinFailures: limit))
        let profile = try await Self.enrolled(harness)
        let push = try harness.server.sendMobileAuthRequest(to: profile, message: "Pay?", type: .pin)
        var steps: [ScriptStep] = [.mobileAuthConfirmation(.respond(true)), .pin(.respond("99999"))]
        steps += (1..<limit).map { _ in ScriptStep.pin(.respond("99999"), expecting: .invalidPin) }
        let (result, responder) = try await handle(harness, .push(push), steps)
        try responder.verify()
        #expect(result.failure?.code == .userDeregistered)
        #expect(harness.client.userProfiles.isEmpty)
        #expect(!harness.server.isMobileAuthEnrolled(profile))
        #expect(harness.server.mobileAuthDecision(of: push.requestId) == nil)
    }

    @Test("a biometric step-up signs with the biometric key; a sensor failure falls back to the PIN with 9030")
    func biometricStepUp() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.enrolled(harness)
        try await harness.client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        let first = try harness.server.sendMobileAuthRequest(to: profile, message: "Pay?", type: .biometric)
        let (accepted, responder) = try await handle(harness, .push(first), [.mobileAuthConfirmation(.respond(true)), .biometric(.respond(.confirmed))])
        try responder.verify()
        #expect(try accepted.get().authenticator == .biometric)

        let second = try harness.server.sendMobileAuthRequest(to: profile, message: "Pay again?", type: .biometric)
        let (fallback, fallbackResponder) = try await handle(
            harness, .push(second),
            [
                .mobileAuthConfirmation(.respond(true)), .biometric(.respond(.failed)), .pin(.respond("24680"), expecting: .biometricAuthenticatorFailure),
            ])
        try fallbackResponder.verify()
        #expect(try fallback.get().authenticator == .pin)
    }

    @Test("a biometric request for a profile without biometrics asks for the PIN")
    func biometricWithoutBiometrics() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.enrolled(harness)
        let push = try harness.server.sendMobileAuthRequest(to: profile, message: "Pay?", type: .biometric)
        let (result, responder) = try await handle(harness, .push(push), [.mobileAuthConfirmation(.respond(true)), .pin(.respond("24680"))])
        try responder.verify()
        #expect(try result.get().authenticator == .pin)
    }

    @Test("a one-time code: recognised, handled, and refused when malformed or for another device")
    func otp() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.enrolled(harness, push: false)
        let otp = try harness.server.createMobileAuthOTP(for: profile, message: "Log in at the desk?")
        #expect(harness.client.canHandleMobileAuthOTP(otp))
        #expect(!harness.client.canHandleMobileAuthOTP("IFOTP1.abc"))
        #expect(
            !harness.client.canHandleMobileAuthOTP(
                try harness.server.createMobileAuthOTP(for: profile, message: "x").replacingOccurrences(of: "IFOTP1.", with: "IFOTP1.eHh4.")))
        let (result, responder) = try await handle(harness, .otp(otp), [.mobileAuthConfirmation(.respond(true))])
        try responder.verify()
        #expect(try result.get().request.message == "Log in at the desk?")
        let (again, _) = try await handle(harness, .otp(otp), [])
        #expect(again.failure?.code == .mobileAuthRequestNotFound, "a used code is refused")
        let (malformed, _) = try await handle(harness, .otp("not a code"), [])
        #expect(malformed.failure?.code == .invalidMobileAuthOtp)
    }

    @Test("pending requests are listed when pushes were missed, and handled from the list")
    func pending() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.enrolled(harness, push: false)
        #expect(harness.server.pushesSent.isEmpty)
        try harness.server.sendMobileAuthRequest(to: profile, message: "First", expiresIn: 100)
        try harness.server.sendMobileAuthRequest(to: profile, message: "Second", expiresIn: 200)
        let listed = try await harness.client.pendingMobileAuthRequests()
        #expect(listed.map(\.message) == ["First", "Second"])
        let (result, _) = try await handle(harness, .request(listed[1]), [.mobileAuthConfirmation(.respond(true))])
        #expect(try result.get().request == listed[1])
        #expect(try await harness.client.pendingMobileAuthRequests(for: profile).map(\.message) == ["First"])
    }

    @Test("a request that expires while its challenge waits ends with 11015, and the server takes nothing")
    func expiryWhileWaiting() async throws {
        let clock = ManualClock()
        let harness = try await Harness.make(clock: clock)
        let profile = try await Self.enrolled(harness)
        let push = try harness.server.sendMobileAuthRequest(to: profile, message: "Pay?", expiresIn: 60)
        let responder = ScriptedResponder([.mobileAuthConfirmation(.hold)])
        async let result = Result { () async throws(IdentityFlowError) in try await harness.client.handleMobileAuthRequest(.push(push), responder: responder) }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(61))
        #expect(await result.failure?.code == .mobileAuthRequestExpired)
        let held = try #require(responder.heldChallenges.first)
        guard case .mobileAuthConfirmation(let confirmation) = held else { Issue.record("held \(held)"); return }
        #expect(!confirmation.sender.respond(with: true, to: confirmation), "an answer after expiry was taken")
        #expect(harness.server.mobileAuthDecision(of: push.requestId) == nil)
    }

    @Test("an already expired request fails at once; the server refuses expired lookups too")
    func expiredBeforehand() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.enrolled(harness)
        let push = try harness.server.sendMobileAuthRequest(to: profile, message: "Pay?", expiresIn: -1)
        let (result, responder) = try await handle(harness, .push(push), [])
        try responder.verify()
        #expect(result.failure?.code == .mobileAuthRequestExpired)
    }

    @Test("a replayed answer and an answer signed for another request are refused")
    func replayAndForgery() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.enrolled(harness)
        let recorder = AnswerRecorder(inner: harness.server)
        let client = UserClient(configuration: harness.client.configuration, service: recorder, storage: harness.storage)
        try await client.start()
        let first = try harness.server.sendMobileAuthRequest(to: profile, message: "One")
        let second = try harness.server.sendMobileAuthRequest(to: profile, message: "Two")
        _ = try await client.handleMobileAuthRequest(.push(first), responder: ScriptedResponder([.mobileAuthConfirmation(.respond(true))]))
        let recorded = try #require(recorder.answers.first)
        do {
            _ = try await harness.server.answerMobileAuthRequest(recorded)
            Issue.record("a replayed answer was taken")
        } catch { #expect(error.code == .mobileAuthRequestNotFound) }
        // The same signature presented for the second request.
        let moved = MobileAuthAnswer(requestId: second.requestId, profile: profile, accepted: true, proof: recorded.proof)
        do {
            _ = try await harness.server.answerMobileAuthRequest(moved)
            Issue.record("an answer signed for another request was taken")
        } catch { #expect(error.code == .deviceProofRefused) }
        #expect(harness.server.mobileAuthDecision(of: second.requestId) == nil)
    }

    @Test("a device whose key the server does not hold cannot fetch or answer (a stolen push id gives nothing)")
    func otherDevice() async throws {
        let harness = try await Harness.make()
        let profile = try await Self.enrolled(harness)
        let push = try harness.server.sendMobileAuthRequest(to: profile, message: "Secret transaction")
        // Another device registers the same profile id? It cannot: a second client with its own
        // storage knows no profile, and a forged lookup is refused.
        let other = try await Harness.make(server: harness.server)
        let (result, _) = try await handle(other, .push(push), [])
        #expect(result.failure?.code == .mobileAuthNotEnrolled)
        let forged = PinKeyAuthorization(nonce: try await harness.server.pinLoginChallenge(for: profile).nonce, proof: Array(repeating: 1, count: 64))
        do {
            _ = try await harness.server.mobileAuthRequests(.id(push.requestId), for: profile, authorization: forged)
            Issue.record("a forged lookup was answered")
        } catch { #expect(error.code == .deviceProofRefused) }
    }

    @Test("enrolment needs a logged-in user; handling needs an enrolled profile; the delegate API reports once")
    func preconditionsAndDelegate() async throws {
        let harness = try await Harness.make()
        await #expect(throws: IdentityFlowError.self) { try await harness.client.enrollMobileAuthentication() }
        let profile = try await AuthenticationFlowTests.registered(harness)
        do { try await harness.client.enrollPushMobileAuthentication(deviceToken: Data([1])) } catch { #expect(error.code == .mobileAuthNotEnrolled) }
        try await harness.client.enrollMobileAuthentication()
        let push = try harness.server.sendMobileAuthRequest(to: profile, message: "Hello", type: .pin)
        let responder = ScriptedResponder([.mobileAuthConfirmation(.respond(true)), .pin(.respond("24680"))])
        harness.client.handleMobileAuthRequest(.push(push), delegate: responder)
        let outcome = await responder.outcome(timeout: .seconds(30))
        try responder.verify()
        #expect(outcome.error == nil, "\(outcome)")
        #expect(harness.server.mobileAuthDecision(of: push.requestId) == true)
    }

    @Test("a stateless profile: handling a request and listing its requests fail with statelessUser (9033), as the README says")
    func statelessProfileRefused() async throws {
        let harness = try await Harness.make()
        let stateless = try await harness.client.registerUser(.stateless, responder: ScriptedResponder([harness.browserLogin()])).profile
        let push = MobileAuthPush(requestId: "request-1", userProfile: stateless)
        let (handled, _) = try await handle(harness, .push(push), [])
        #expect(handled.failure?.code == .statelessUser, "\(String(describing: handled.failure))")
        let (byId, _) = try await handle(harness, .push(MobileAuthPush(requestId: "request-1", userProfile: UserProfile(profileId: stateless.profileId))), [])
        #expect(byId.failure?.code == .statelessUser, "\(String(describing: byId.failure))")
        do {
            _ = try await harness.client.pendingMobileAuthRequests(for: stateless)
            Issue.record("a stateless profile's requests were listed")
        } catch { #expect(error.code == .statelessUser, "\(error)") }
    }

    @Test("a well-formed one-time code for a profile that is not on this device is invalidMobileAuthOtp (11019)")
    func otpForAnotherDevice() async throws {
        let harness = try await Harness.make()
        _ = try await Self.enrolled(harness, push: false)
        let foreign = try MobileAuthOTP.make(for: UserProfile(profileId: "not-on-this-device"))
        #expect(!harness.client.canHandleMobileAuthOTP(foreign))
        let (result, _) = try await handle(harness, .otp(foreign), [])
        #expect(result.failure?.code == .invalidMobileAuthOtp, "\(String(describing: result.failure))")
    }
}

/// Records the answers a client sends, for replay tests.
final class AnswerRecorder: IdentityService {
    let inner: ReferenceIdentityService
    private let recorded = Locked<[MobileAuthAnswer]>([])
    init(inner: ReferenceIdentityService) { self.inner = inner }
    var answers: [MobileAuthAnswer] { recorded.current }

    nonisolated(nonsending) func answerMobileAuthRequest(_ answer: MobileAuthAnswer) async throws(IdentityFlowError) -> MobileAuthVerdict {
        recorded.withLock { $0.append(answer) }
        return try await inner.answerMobileAuthRequest(answer)
    }
    nonisolated(nonsending) func mobileAuthRequests(_ lookup: MobileAuthLookup, for profile: UserProfile, authorization: PinKeyAuthorization)
        async throws(IdentityFlowError) -> [MobileAuthRequest]
    {
        try await inner.mobileAuthRequests(lookup, for: profile, authorization: authorization)
    }
    nonisolated(nonsending) func identityProviders() async throws(IdentityFlowError) -> [IdentityProvider] { try await inner.identityProviders() }
    nonisolated(nonsending) func authorizationURL(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError) -> URL {
        try await inner.authorizationURL(for: provider, request: request)
    }
    nonisolated(nonsending) func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet {
        try await inner.exchangeCode(code, request: request)
    }
    nonisolated(nonsending) func initCustomRegistration(provider: IdentityProvider, data: Redacted<String?>) async throws(IdentityFlowError)
        -> CustomRegistrationAnswer
    { try await inner.initCustomRegistration(provider: provider, data: data) }
    nonisolated(nonsending) func completeCustomRegistration(provider: IdentityProvider, session: String?, data: Redacted<String?>)
        async throws(IdentityFlowError) -> CustomRegistrationAnswer
    { try await inner.completeCustomRegistration(provider: provider, session: session, data: data) }
    nonisolated(nonsending) func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>) async throws(IdentityFlowError) -> PinEnrolmentReceipt {
        try await inner.enrolPin(enrolment, accessToken: accessToken)
    }
    nonisolated(nonsending) func pinLoginChallenge(for profile: UserProfile) async throws(IdentityFlowError) -> PinLoginChallenge {
        try await inner.pinLoginChallenge(for: profile)
    }
    nonisolated(nonsending) func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError)
        -> PinVerification
    { try await inner.verifyPinProof(proof, for: profile, nonce: nonce) }
    nonisolated(nonsending) func refresh(_ refreshToken: Redacted<String>) async throws(IdentityFlowError) -> TokenSet { try await inner.refresh(refreshToken) }
    nonisolated(nonsending) func revoke(_ tokens: TokenSet) async throws(IdentityFlowError) { try await inner.revoke(tokens) }
    nonisolated(nonsending) func deregister(_ profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError) {
        try await inner.deregister(profile, authorization: authorization)
    }
    nonisolated(nonsending) func profileExists(_ profile: UserProfile) async throws(IdentityFlowError) -> Bool { try await inner.profileExists(profile) }
}
