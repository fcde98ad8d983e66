import Foundation
import Statechart

/// Mobile authentication: the device confirms requests the server sends it (`docs/mobile-auth.md`).
extension UserClient {
    // MARK: - Enrolment

    /// Enrols the logged-in profile for mobile authentication: registers its mobile
    /// authentication key (derived on the device, never sent) with the server, vouched for by the
    /// PIN key of the session, so that neither a copied token nor a copy of the device's storage
    /// can register a key of its own (`docs/mobile-auth.md`).
    /// - Throws: ``ErrorCode/userNotAuthenticated`` without a logged-in user,
    ///   ``ErrorCode/statelessUser`` for a stateless one, ``ErrorCode/pinProofRequired`` when the
    ///   session was opened with biometrics (log in with the PIN first),
    ///   ``ErrorCode/featureNotSupported`` when the service does not offer it; the service's errors.
    public func enrollMobileAuthentication() async throws(IdentityFlowError) {
        let (stored, tokens) = try loggedInProfileWithKeys(for: "Mobile authentication")
        let key = try sessions.deviceKey(.mobileAuthentication, of: stored)
        let proofKey = try serverAuthenticators.accessProofKey(for: tokens, of: stored.profile)
        let authorization = try await serverAuthenticators.pinKeyAuthorization(
            .mobileAuthEnrolment, for: stored.profile, key: sessionPinKey(for: stored.profile), publicKey: key.publicKey)
        try await service.enrolMobileAuthentication(
            publicKey: key.publicKey, for: stored.profile, authorization: authorization, accessToken: tokens.accessToken, proofKey: proofKey)
        try updateStoredProfile(stored.profile) { $0.mobileAuthEnrolled = true }
    }

    /// Registers the device's push token for the logged-in profile's requests, so that the server
    /// announces them by push. The profile must be enrolled for mobile authentication first.
    /// Call it again when the platform hands you a new token.
    /// - Parameter deviceToken: The push token, as the platform handed it over.
    /// - Throws: ``ErrorCode/serverAuthenticatorsRequired`` when the client keeps its
    ///   authenticators on the device; ``ErrorCode/mobileAuthNotEnrolled`` before
    ///   ``enrollMobileAuthentication()``; as it otherwise.
    public func enrollPushMobileAuthentication(deviceToken: Data) async throws(IdentityFlowError) {
        let (stored, tokens) = try loggedInProfileWithKeys(for: "Push mobile authentication")
        // Before the enrolment check: in device mode no enrolment could ever come first.
        try authenticatorHome.requireServerAuthenticators()
        guard stored.mobileAuthEnrolled else { throw MobileAuthSteps.notEnrolled(stored.profile) }
        guard !deviceToken.isEmpty else { throw IdentityFlowError(.requestInvalid, "The push token is empty.") }
        try await service.enrolPushMobileAuthentication(
            deviceToken: Array(deviceToken), for: stored.profile, accessToken: tokens.accessToken,
            proofKey: try serverAuthenticators.accessProofKey(for: tokens, of: stored.profile))
        try updateStoredProfile(stored.profile) { $0.pushMobileAuthEnrolled = true }
    }

    /// Whether a profile is enrolled for mobile authentication on this device.
    /// - Parameter profile: The profile.
    /// - Returns: `true` after ``enrollMobileAuthentication()`` succeeded for it.
    public func isMobileAuthEnrolled(_ profile: UserProfile) -> Bool {
        withState { $0.profiles[profile]?.mobileAuthEnrolled ?? false }
    }

    /// Whether a profile's requests are announced by push to this device.
    /// - Parameter profile: The profile.
    /// - Returns: `true` after ``enrollPushMobileAuthentication(deviceToken:)`` succeeded for it.
    public func isPushMobileAuthEnrolled(_ profile: UserProfile) -> Bool {
        withState { $0.profiles[profile]?.pushMobileAuthEnrolled ?? false }
    }

    // MARK: - Requests

    /// The open requests of a profile, or of every profile enrolled on this device, oldest first.
    /// Push notifications can be missed; list these when the app comes to the foreground.
    /// - Parameter profile: One profile, or `nil` for all enrolled ones.
    /// - Returns: The requests, not yet expired.
    /// - Throws: ``ErrorCode/mobileAuthNotEnrolled`` for a profile that is not enrolled,
    ///   ``ErrorCode/statelessUser`` for a stateless one; the service's errors.
    public func pendingMobileAuthRequests(for profile: UserProfile? = nil) async throws(IdentityFlowError) -> [MobileAuthRequest] {
        try requireStarted()
        try authenticatorHome.requireServerAuthenticators()
        let profiles =
            try profile.map { profile throws(IdentityFlowError) in [try mobileAuthSteps.enrolledProfile(profile).profile] }
            ?? withState { state in state.profiles.values.filter(\.mobileAuthEnrolled).map(\.profile) }
        var requests: [MobileAuthRequest] = []
        let now = configuration.now()
        for profile in profiles.sorted(by: { $0.profileId < $1.profileId }) {
            requests += try await mobileAuthSteps.lookUpMobileAuthRequests(.pending, for: profile).filter { $0.expiresAt > now }
        }
        return requests.sorted { $0.expiresAt < $1.expiresAt }
    }

    /// Whether a one-time code is one this device can handle: well formed, for a profile enrolled here.
    /// - Parameter otp: The code, as scanned.
    /// - Returns: `true` when ``handleMobileAuthRequest(_:delegate:isolation:)`` with ``MobileAuthSource/otp(_:)`` can try it.
    public func canHandleMobileAuthOTP(_ otp: String) -> Bool {
        guard let code = MobileAuthOTP(otp) else { return false }
        return isMobileAuthEnrolled(code.profile)
    }

    // MARK: - Handling a request

    /// Handles a request, reporting to a delegate: fetches it if needed, asks the user to accept
    /// or deny, steps an acceptance up as the request demands, and sends the signed answer.
    /// - Parameters:
    ///   - source: A push, a fetched request, or a one-time code.
    ///   - delegate: Receives the callbacks; retained until the terminal one.
    ///   - isolation: Where the callbacks run: the caller's actor (left to its default), or, when
    ///     called from nonisolated code, ``ClientConfiguration/callbackExecutor``.
    /// - Important: Exactly one terminal callback, also when handling cannot start.
    public func handleMobileAuthRequest(
        _ source: MobileAuthSource, delegate: sending some MobileAuthRequestDelegate, isolation: (any Actor)? = #isolation
    ) {
        let target = CallbackTarget(delegate as any MobileAuthRequestDelegate)
        let host = FlowHost<UserProfile, MobileAuthResult>.delegate(
            on: delegateExecutor(isolation),
            challenge: { challenge in
                switch challenge {
                case .mobileAuthConfirmation(let challenge): target.delegate.userClient(self, didReceiveConfirmationChallenge: challenge)
                case .pin(let challenge): target.delegate.userClient(self, didReceivePinChallenge: challenge)
                case .biometric(let challenge): target.delegate.userClient(self, didReceiveBiometricChallenge: challenge)
                default: challenge.cancel()  // handling a request never asks for these
                }
            },
            finished: { outcome in
                switch outcome {
                case .success(let result): target.delegate.userClient(self, didHandle: result)
                case .failure(let error): target.delegate.userClient(self, didFailToHandle: source, error: error)
                }
            })
        launchMobileAuth(source, host: host)
    }

    /// Handles a request, answering challenges through a responder.
    ///
    /// ```swift
    /// let result = try await client.handleMobileAuthRequest(.push(push)) { challenge in
    ///     if case .mobileAuthConfirmation(let confirm) = challenge {
    ///         confirm.sender.respond(with: await askUser(confirm.request.message), to: confirm)
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - source: A push, a fetched request, or a one-time code.
    ///   - responder: Receives each challenge and answers through its sender.
    /// - Returns: The request and the user's decision; a denial is a result, not an error.
    /// - Throws: ``IdentityFlowError``: ``ErrorCode/mobileAuthRequestExpired``,
    ///   ``ErrorCode/mobileAuthRequestNotFound``, ``ErrorCode/mobileAuthNotEnrolled``,
    ///   ``ErrorCode/statelessUser`` for a stateless profile, ``ErrorCode/invalidMobileAuthOtp``
    ///   (also for a code whose profile is not on this device), ``ErrorCode/userDeregistered`` after the last wrong
    ///   PIN, ``ErrorCode/actionCancelled``, ...
    public func handleMobileAuthRequest(_ source: MobileAuthSource, responder: some ChallengeResponder) async throws(IdentityFlowError) -> MobileAuthResult {
        try await runAsync(responder: responder) { (host: FlowHost<UserProfile, MobileAuthResult>) in
            launchMobileAuth(source, host: host)
        }
    }

    /// Handles a request, answering challenges with a closure. See ``handleMobileAuthRequest(_:responder:)``.
    /// - Parameters:
    ///   - source: A push, a fetched request, or a one-time code.
    ///   - answer: Called with each challenge.
    /// - Returns: The request and the user's decision.
    /// - Throws: ``IdentityFlowError``.
    public func handleMobileAuthRequest(_ source: MobileAuthSource, answering answer: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void)
        async throws(IdentityFlowError) -> MobileAuthResult
    {
        try await handleMobileAuthRequest(source, responder: ClosureResponder(answer))
    }

    @discardableResult
    private func launchMobileAuth(_ source: MobileAuthSource, host: FlowHost<UserProfile, MobileAuthResult>) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            try self.authenticatorHome.requireServerAuthenticators()
            let profile: UserProfile, lookup: MobileAuthLookup, request: MobileAuthRequest?
            switch source {
            case .push(let push): (profile, lookup, request) = (push.userProfile, .id(push.requestId), nil)
            case .request(let known): (profile, lookup, request) = (known.userProfile, .id(known.id), known)
            case .otp(let text):
                guard let otp = MobileAuthOTP(text) else {
                    throw IdentityFlowError(.invalidMobileAuthOtp, "The text is not a mobile authentication one-time code.")
                }
                guard self.withState({ $0.profiles[otp.profile] }) != nil else {
                    throw IdentityFlowError(.invalidMobileAuthOtp, "The one-time code is for a profile that is not on this device.")
                }
                (profile, lookup, request) = (otp.profile, .otp(otp.code), nil)
            }
            let stored = try self.mobileAuthSteps.enrolledProfile(profile)
            if let request, request.expiresAt <= self.configuration.now() {
                throw IdentityFlowError(.mobileAuthRequestExpired, "The request expired before it was handled; nothing was confirmed.")
            }
            let context = MobileAuthMachine.Context(profile: profile, request: request, hasBiometrics: stored.hasBiometricKey)
            return MobileAuthFlow(steps: self.mobileAuthSteps, id: id, context: context, lookup: lookup, host: host)
        }
    }

    /// The logged-in profile and its tokens, for an enrolment of one of its device keys.
    func loggedInProfileWithKeys(for feature: String) throws(IdentityFlowError) -> (StoredProfile, TokenSet) {
        try requireStarted()
        let tokens = try sessionTokens()
        guard let profile = authenticatedUserProfile else { throw IdentityFlowError(.userNotAuthenticated) }
        if profile.isStateless {
            throw IdentityFlowError(.statelessUser, "\(feature) needs a profile stored on this device; this one is stateless.")
        }
        return (try storedProfile(profile), tokens)
    }

    /// The steps of the mobile authentication flow, for the entry points that make some of them.
    private var mobileAuthSteps: MobileAuthSteps { MobileAuthSteps(dependencies: dependencies) }
}
