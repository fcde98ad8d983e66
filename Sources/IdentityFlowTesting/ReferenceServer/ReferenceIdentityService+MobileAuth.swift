import Foundation
@_spi(Integrator) import IdentityFlow

// Mobile and implicit authentication (docs/mobile-auth.md), and the hooks tests use to send
// requests as a server would.
extension ReferenceIdentityService {
    // MARK: - Sending requests (what the server's back office does)

    /// Sends a mobile authentication request to a profile, as the server does when a user logs in
    /// on a website: the request is stored and, when the profile enrolled for push, a push
    /// carrying only its ids is recorded in ``pushesSent``.
    /// - Parameters:
    ///   - profile: A profile enrolled for mobile authentication.
    ///   - message: What the user is asked to confirm.
    ///   - type: What accepting takes.
    ///   - expiresIn: Seconds until the server stops taking an answer.
    /// - Returns: The push (what the host hands to `UserClient/handleMobileAuthRequest(_:delegate:isolation:)`).
    /// - Throws: `ErrorCode/mobileAuthNotEnrolled` for a profile that is not enrolled.
    @discardableResult
    public func sendMobileAuthRequest(
        to profile: UserProfile, message: String, type: MobileAuthType = .confirmation,
        expiresIn: TimeInterval = 300
    ) throws(IdentityFlowError) -> MobileAuthPush {
        let request = try newRequest(for: profile, message: message, type: type, expiresIn: expiresIn, otp: nil)
        let push = MobileAuthPush(requestId: request.id, userProfile: profile)
        state.withLock { state in
            if state.mobileAuth[profile.profileId]?.pushToken != nil { state.pushesSent.append(push) }
        }
        return push
    }

    /// Creates a request that arrives as a one-time code instead of a push (shown as a QR code on
    /// the website, scanned by the app).
    /// - Parameters:
    ///   - profile: A profile enrolled for mobile authentication.
    ///   - message: What the user is asked to confirm.
    ///   - type: What accepting takes.
    ///   - expiresIn: Seconds until the server stops taking an answer.
    /// - Returns: The one-time code.
    /// - Throws: `ErrorCode/mobileAuthNotEnrolled` for a profile that is not enrolled.
    public func createMobileAuthOTP(
        for profile: UserProfile, message: String, type: MobileAuthType = .confirmation,
        expiresIn: TimeInterval = 300
    ) throws(IdentityFlowError) -> String {
        let otp = try MobileAuthOTP.make(for: profile)
        _ = try newRequest(for: profile, message: message, type: type, expiresIn: expiresIn, otp: otp)
        return otp
    }

    /// The pushes sent so far, oldest first.
    public var pushesSent: [MobileAuthPush] { state.withLock { $0.pushesSent } }

    /// How a request was answered: `true` accepted, `false` denied, `nil` still open or unknown.
    /// - Parameter requestId: The request's id.
    /// - Returns: The decision the server took.
    public func mobileAuthDecision(of requestId: String) -> Bool? {
        state.withLock { $0.mobileAuthRequests[requestId]?.accepted }
    }

    /// Whether the server holds a mobile authentication key for a profile.
    /// - Parameter profile: The profile.
    /// - Returns: Whether it is enrolled.
    public func isMobileAuthEnrolled(_ profile: UserProfile) -> Bool {
        state.withLock { $0.mobileAuth[profile.profileId] != nil }
    }

    /// The push token the server holds for a profile, if any.
    /// - Parameter profile: The profile.
    /// - Returns: The token.
    public func pushToken(of profile: UserProfile) -> Data? {
        state.withLock { $0.mobileAuth[profile.profileId]?.pushToken.map { Data($0) } }
    }

    /// Sets the scopes the server marks implicit (default: `read`).
    /// - Parameter scopes: The scopes implicit authentication may obtain.
    public func setImplicitScopes(_ scopes: Set<String>) { state.withLock { $0.implicitScopes = scopes } }

    /// Whether the server holds an implicit authentication key for a profile.
    /// - Parameter profile: The profile.
    /// - Returns: Whether it is enrolled.
    public func isImplicitAuthenticationEnrolled(_ profile: UserProfile) -> Bool {
        state.withLock { $0.implicitKeys[profile.profileId] != nil }
    }

    private func newRequest(
        for profile: UserProfile, message: String, type: MobileAuthType, expiresIn: TimeInterval,
        otp: String?
    ) throws(IdentityFlowError) -> MobileAuthRequest {
        let nonce: [UInt8]
        do { nonce = try SecureRandom.bytes(count: 32) } catch { throw IdentityFlowError(.unknown, underlying: error) }
        let expiresAt = now().addingTimeInterval(expiresIn)
        return try state.withLock { state throws(IdentityFlowError) in
            guard state.mobileAuth[profile.profileId] != nil else {
                throw IdentityFlowError(.mobileAuthNotEnrolled, "The reference server holds no mobile authentication key for \(profile.profileId).")
            }
            let request = MobileAuthRequest(
                id: "mar-" + state.nextSerial(), userProfile: profile, message: message, type: type,
                expiresAt: expiresAt, nonce: nonce)
            state.mobileAuthRequests[request.id] = ServerState.MobileAuthEntry(request: request, otp: otp, accepted: nil)
            return request
        }
    }

    // MARK: - IdentityService

    /// Registers the profile's mobile authentication key; the access token must be its user's.
    @_spi(Integrator) public nonisolated(nonsending) func enrolMobileAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        try await enrolMobileAuthentication(publicKey: publicKey, for: profile, authorization: authorization, accessToken: accessToken, proofKey: nil)
    }

    /// Registers as ``enrolMobileAuthentication(publicKey:for:authorization:accessToken:)`` does,
    /// with a proof by `proofKey` for ``mobileAuthEnrolEndpoint`` naming the token: a DPoP-bound
    /// access token is accepted only with a proof by its key.
    @_spi(Integrator) public nonisolated(nonsending) func enrolMobileAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        try await enter(.enrolMobileAuthentication)
        try enrolDeviceKey(
            publicKey, of: profile, purpose: .mobileAuthEnrolment, authorization: authorization, accessToken: accessToken,
            proof: (proofKey, Self.mobileAuthEnrolEndpoint)
        ) { state in
            state.mobileAuth[profile.profileId] = ServerState.MobileAuthEnrolment(publicKey: publicKey, pushToken: nil)
        }
    }

    /// Records the device's push token for an enrolled profile.
    public nonisolated(nonsending) func enrolPushMobileAuthentication(deviceToken: [UInt8], for profile: UserProfile, accessToken: Redacted<String>)
        async throws(IdentityFlowError)
    {
        try await enrolPushMobileAuthentication(deviceToken: deviceToken, for: profile, accessToken: accessToken, proofKey: nil)
    }

    /// Records the push token as ``enrolPushMobileAuthentication(deviceToken:for:accessToken:)``
    /// does, with a proof by `proofKey` for ``mobileAuthPushEndpoint`` naming the token.
    @_spi(Integrator) public nonisolated(nonsending) func enrolPushMobileAuthentication(
        deviceToken: [UInt8], for profile: UserProfile, accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        try await enter(.enrolPushMobileAuthentication)
        let date = now()
        try state.withLock { state throws(IdentityFlowError) in
            let proven = try Self.accessProof(of: proofKey, at: Self.mobileAuthPushEndpoint, accessToken: accessToken, date: date, in: &state)
            _ = try state.enrolment(of: profile, boundTo: accessToken, proofThumbprint: proven, at: date, required: true)
            guard state.mobileAuth[profile.profileId] != nil else {
                throw IdentityFlowError(.mobileAuthNotEnrolled, "Enrol for mobile authentication before push.")
            }
            state.mobileAuth[profile.profileId]?.pushToken = deviceToken
        }
    }

    /// Returns open requests for a lookup signed by the profile's mobile authentication key.
    @_spi(Integrator) public nonisolated(nonsending) func mobileAuthRequests(
        _ lookup: MobileAuthLookup, for profile: UserProfile, authorization: PinKeyAuthorization
    )
        async throws(IdentityFlowError) -> [MobileAuthRequest]
    {
        try await enter(.mobileAuthRequests)
        let date = now()
        return try state.withLock { state throws(IdentityFlowError) in
            try state.consumeNonce(authorization.nonce, of: profile)
            let message = DeviceKeyProof.message(.mobileAuthLookup, profile: profile, nonce: authorization.nonce, subject: lookup.signedSubject)
            try state.checkDeviceProof(authorization.proof.value, of: message, for: profile)
            let entries = state.mobileAuthRequests.values.filter { $0.request.userProfile == profile && $0.accepted == nil }
            let selected: [ServerState.MobileAuthEntry]
            switch lookup {
            case .pending: return entries.map(\.request).filter { $0.expiresAt > date }.sorted { $0.expiresAt < $1.expiresAt }
            case .id(let id): selected = entries.filter { $0.request.id == id }
            case .otp(let otp): selected = entries.filter { $0.otp == otp.value }
            }
            guard let entry = selected.first else { throw Self.requestNotFound }
            guard entry.request.expiresAt > date else { throw Self.requestExpired }
            return [entry.request]
        }
    }

    /// Takes an answer signed by the mobile authentication key, checking a stepped-up
    /// acceptance's PIN or biometric proof (wrong ones count as at login). A request is answered
    /// once: a replay finds it closed.
    @_spi(Integrator) public nonisolated(nonsending) func answerMobileAuthRequest(_ answer: MobileAuthAnswer) async throws(IdentityFlowError)
        -> MobileAuthVerdict
    {
        try await enter(.answerMobileAuthRequest)
        let date = now()
        let profile = answer.profile
        return try state.withLock { state throws(IdentityFlowError) in
            guard let entry = state.mobileAuthRequests[answer.requestId], entry.accepted == nil, entry.request.userProfile == profile else {
                throw Self.requestNotFound
            }
            guard entry.request.expiresAt > date else { throw Self.requestExpired }
            let subject = DeviceKeyProof.answerSubject(requestId: answer.requestId, accepted: answer.accepted)
            let message = DeviceKeyProof.message(.mobileAuthAnswer, profile: profile, nonce: entry.request.nonce, subject: subject)
            try state.checkDeviceProof(answer.proof.value, of: message, for: profile)
            if answer.accepted, entry.request.type != .confirmation {
                guard let stepUp = answer.stepUp, let key = try state.stepUpKey(answer.stepUpAuthenticator, for: entry.request) else {
                    throw Self.invalidRequest("Accepting this request needs a \(entry.request.type.rawValue) step-up proof.")
                }
                try state.consumeNonce(stepUp.nonce, of: profile)
                let purpose: DeviceKeyProof.Purpose = answer.stepUpAuthenticator == .biometric ? .mobileAuthBiometric : .mobileAuthPin
                let stepMessage = DeviceKeyProof.message(purpose, profile: profile, nonce: stepUp.nonce, subject: Array(answer.requestId.utf8))
                guard DeviceKey.isWellFormedSignature(stepUp.proof.value), DeviceKey.verify(stepUp.proof.value, of: stepMessage, publicKey: key) else {
                    switch state.countWrongProof(of: profile) {
                    case .rejected(let failures, let maximum): return .rejected(failureCount: failures, maxFailureCount: maximum)
                    default: return .deregistered
                    }
                }
                state.enrolments[profile.profileId]?.failureCount = 0
            }
            state.mobileAuthRequests[answer.requestId]?.accepted = answer.accepted
            return .handled
        }
    }

    /// Registers the profile's implicit authentication key; the access token must be its user's.
    @_spi(Integrator) public nonisolated(nonsending) func enrolImplicitAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        try await enrolImplicitAuthentication(publicKey: publicKey, for: profile, authorization: authorization, accessToken: accessToken, proofKey: nil)
    }

    /// Registers as ``enrolImplicitAuthentication(publicKey:for:authorization:accessToken:)``
    /// does, with a proof by `proofKey` for ``implicitEnrolEndpoint`` naming the token.
    @_spi(Integrator) public nonisolated(nonsending) func enrolImplicitAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        try await enter(.enrolImplicitAuthentication)
        try enrolDeviceKey(
            publicKey, of: profile, purpose: .implicitEnrolment, authorization: authorization, accessToken: accessToken,
            proof: (proofKey, Self.implicitEnrolEndpoint)
        ) {
            $0.implicitKeys[profile.profileId] = publicKey
        }
    }

    /// Issues an access token (no refresh token) for implicit scopes, on the implicit key's signature.
    @_spi(Integrator) public nonisolated(nonsending) func implicitAccessToken(scopes: [String], for profile: UserProfile, authorization: PinKeyAuthorization)
        async throws(IdentityFlowError) -> TokenSet
    {
        try await enter(.implicitAccessToken)
        let expiresAt = now().addingTimeInterval(state.withLock { $0.accessTokenLifetime })
        return try state.withLock { state throws(IdentityFlowError) in
            try state.consumeNonce(authorization.nonce, of: profile)
            guard let enrolment = state.enrolments[profile.profileId] else { throw Self.unknownProfile(profile) }
            guard let key = state.implicitKeys[profile.profileId] else {
                throw IdentityFlowError(.implicitAuthNotEnrolled, "The reference server holds no implicit authentication key for \(profile.profileId).")
            }
            let message = DeviceKeyProof.message(.implicitToken, profile: profile, nonce: authorization.nonce, subject: DeviceKeyProof.scopeSubject(scopes))
            guard DeviceKey.isWellFormedSignature(authorization.proof.value), DeviceKey.verify(authorization.proof.value, of: message, publicKey: key) else {
                throw Self.deviceProofRefused
            }
            guard !scopes.isEmpty, Set(scopes).isSubset(of: state.implicitScopes) else {
                var error = IdentityFlowError(.requestInvalid, "Implicit authentication covers only \(state.implicitScopes.sorted()).")
                error.oauthError = "invalid_scope"
                throw error
            }
            let access = "it-" + state.nextSerial()
            state.accessTokens[access] = ServerState.AccessGrant(user: enrolment.user, expiresAt: expiresAt, family: nil)
            return TokenSet(accessToken: access, expiresAt: expiresAt, scopes: scopes)
        }
    }

    /// Checks the token is the profile's user's (never an implicit one; a DPoP-bound one with a
    /// proof by its key for `proof`'s endpoint), the key a P-256 point and the PIN key's proof over
    /// a fresh nonce and the key (a wrong one counted), then stores it with `store`.
    private func enrolDeviceKey(
        _ publicKey: [UInt8], of profile: UserProfile, purpose: PinProof.Purpose, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proof: (key: DPoPKey?, endpoint: URL), store: (inout ServerState) -> Void
    ) throws(IdentityFlowError) {
        let date = now()
        try state.withLock { state throws(IdentityFlowError) in
            let proven = try Self.accessProof(of: proof.key, at: proof.endpoint, accessToken: accessToken, date: date, in: &state)
            _ = try state.enrolment(of: profile, boundTo: accessToken, proofThumbprint: proven, at: date, required: true)
            guard DeviceKey.isValidPublicKey(publicKey) else { throw Self.invalidRequest("The public key is not a P-256 point.") }
            try Self.checkPinKeyProof(authorization, for: purpose, subject: publicKey, of: profile, in: &state)
            store(&state)
        }
    }

    static var requestNotFound: IdentityFlowError {
        IdentityFlowError(.mobileAuthRequestNotFound, "The reference server has no open request of that id for this profile.")
    }

    static var requestExpired: IdentityFlowError {
        IdentityFlowError(.mobileAuthRequestExpired, "The request expired on the reference server.")
    }

    static var deviceProofRefused: IdentityFlowError {
        IdentityFlowError(.deviceProofRefused, "The reference server refused the device key's signature.")
    }
}

extension ServerState {
    /// Checks a signature by the profile's mobile authentication key.
    func checkDeviceProof(_ proof: [UInt8], of message: [UInt8], for profile: UserProfile) throws(IdentityFlowError) {
        guard let key = mobileAuth[profile.profileId]?.publicKey else {
            throw IdentityFlowError(.mobileAuthNotEnrolled, "The reference server holds no mobile authentication key for \(profile.profileId).")
        }
        guard DeviceKey.isWellFormedSignature(proof), DeviceKey.verify(proof, of: message, publicKey: key) else {
            throw ReferenceIdentityService.deviceProofRefused
        }
    }

    /// The public key a step-up must be signed with: the PIN key for `.pin`, the biometric key for
    /// `.biometric` (allowed only where the request takes biometrics).
    func stepUpKey(_ authenticator: Authenticator?, for request: MobileAuthRequest) throws(IdentityFlowError) -> [UInt8]? {
        guard let enrolment = enrolments[request.userProfile.profileId] else { throw ReferenceIdentityService.unknownProfile(request.userProfile) }
        switch authenticator {
        case .pin?:
            guard case .v2(let publicKey) = enrolment.verifier else { return nil }
            return publicKey
        case .biometric? where request.type == .biometric:
            return enrolment.biometricKey
        default:
            return nil
        }
    }
}
