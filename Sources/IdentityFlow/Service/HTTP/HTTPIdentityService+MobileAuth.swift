import Foundation

// The mobile and implicit authentication endpoints of docs/extension-api.openapi.yaml
// (docs/mobile-auth.md). Device-key proofs travel as unpadded base64url, as PIN proofs do.
extension HTTPIdentityService {
    /// `POST /mobile-auth/enrol` with the bearer token and the PIN key's proof.
    /// - Parameters:
    ///   - publicKey: The mobile authentication public key.
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof over a fresh nonce and `publicKey`.
    ///   - accessToken: The user's access token.
    /// - Throws: 9009 for a wrong proof (counted), 9003 when it was the last allowed one, 11020
    ///   when the server answers 404 without a known error; as the table otherwise.
    public func enrolMobileAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        try await enrolMobileAuthentication(publicKey: publicKey, for: profile, authorization: authorization, accessToken: accessToken, proofKey: nil)
    }

    /// `POST /mobile-auth/enrol` with a DPoP-proven access token when `proofKey` is given, as
    /// ``enrolPin(_:accessToken:proofKey:)``.
    /// - Parameters:
    ///   - publicKey: The mobile authentication public key.
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof over a fresh nonce and `publicKey`.
    ///   - accessToken: The user's access token.
    ///   - proofKey: The key the token is bound to, or `nil` for a bearer token.
    /// - Throws: As ``enrolPin(_:accessToken:proofKey:)`` and ``enrolMobileAuthentication(publicKey:for:authorization:accessToken:)``.
    public func enrolMobileAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        try await enrolDeviceKey(
            publicKey, path: "mobile-auth/enrol", context: "the mobile authentication enrolment", profile: profile,
            authorization: authorization, accessToken: accessToken, proofKey: proofKey)
    }

    /// `POST /mobile-auth/push` with the bearer token.
    /// - Parameters:
    ///   - deviceToken: The push token.
    ///   - profile: The profile, enrolled for mobile authentication.
    ///   - accessToken: The user's access token.
    /// - Throws: 11014 before the profile's enrolment; as the table otherwise.
    public func enrolPushMobileAuthentication(deviceToken: [UInt8], for profile: UserProfile, accessToken: Redacted<String>) async throws(IdentityFlowError) {
        try await enrolPushMobileAuthentication(deviceToken: deviceToken, for: profile, accessToken: accessToken, proofKey: nil)
    }

    /// `POST /mobile-auth/push` with a DPoP-proven access token when `proofKey` is given, as
    /// ``enrolPin(_:accessToken:proofKey:)``.
    /// - Parameters:
    ///   - deviceToken: The push token.
    ///   - profile: The profile, enrolled for mobile authentication.
    ///   - accessToken: The user's access token.
    ///   - proofKey: The key the token is bound to, or `nil` for a bearer token.
    /// - Throws: As ``enrolPin(_:accessToken:proofKey:)`` and ``enrolPushMobileAuthentication(deviceToken:for:accessToken:)``.
    public func enrolPushMobileAuthentication(deviceToken: [UInt8], for profile: UserProfile, accessToken: Redacted<String>, proofKey: DPoPKey?)
        async throws(IdentityFlowError)
    {
        let context = "the push enrolment"
        let body: JSONValue = ["profile_id": .string(profile.profileId), "device_token": .string(Base64URL.encode(deviceToken))]
        let response = try await sendAuthorized("POST", path: "mobile-auth/push", body: body, accessToken: accessToken, proofKey: proofKey, context: context)
        guard response.status == 204 || response.status == 200 else { throw Self.mobileAuthError(response, context: context, profile: profile) }
    }

    /// `POST /mobile-auth/requests`, signed by the mobile authentication key.
    /// - Parameters:
    ///   - lookup: Pending, by id, or by one-time code.
    ///   - profile: The profile.
    ///   - authorization: The nonce and the device key's signature.
    /// - Returns: The requests; their ``MobileAuthRequest/expiresAt`` is on the device's clock (the
    ///   server's `expires_at` moved by the difference between the device's clock and the answer's
    ///   `Date`).
    /// - Throws: 11016 (404 `unknown_request`), 11015 (410 `request_expired`), 11017 (401
    ///   `invalid_device_proof`), 11014 (404 `mobile_auth_not_enrolled`); as the table otherwise.
    public func mobileAuthRequests(_ lookup: MobileAuthLookup, for profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError)
        -> [MobileAuthRequest]
    {
        let context = "the mobile authentication lookup"
        var body: [String: JSONValue] = [
            "profile_id": .string(profile.profileId), "nonce": .string(Base64URL.encode(authorization.nonce)),
            "proof": .string(Base64URL.encode(authorization.proof.value)),
        ]
        switch lookup {
        case .pending: body["lookup"] = "pending"
        case .id(let id): (body["lookup"], body["id"]) = ("id", .string(id))
        case .otp(let otp): (body["lookup"], body["otp"]) = ("otp", .string(otp.value))
        }
        let response = try await send("POST", path: "mobile-auth/requests", body: .object(body), context: context)
        guard response.status == 200 else { throw Self.mobileAuthError(response, context: context, profile: profile) }
        guard let entries = try Self.jsonObject(response, context: "The mobile authentication requests")["requests"]?.arrayValue else {
            throw Self.malformed("The mobile authentication requests", member: "requests")
        }
        // The server's expiry, moved onto the device's clock by the answer's Date: a device whose
        // clock is off still sees how long each request stays open.
        let clockOffset = response.date.map { now().timeIntervalSince($0) } ?? 0
        var requests: [MobileAuthRequest] = []
        for entry in entries {
            guard let id = entry["id"]?.stringValue, !id.isEmpty else { throw Self.malformed("A mobile authentication request", member: "id") }
            guard entry["profile_id"]?.stringValue == profile.profileId else { throw Self.malformed("A mobile authentication request", member: "profile_id") }
            guard let message = entry["message"]?.stringValue else { throw Self.malformed("A mobile authentication request", member: "message") }
            guard let type = entry["type"]?.stringValue.flatMap(MobileAuthType.init(rawValue:)) else {
                throw Self.malformed("A mobile authentication request", member: "type")
            }
            guard let expires = entry["expires_at"]?.doubleValue, expires.isFinite else {
                throw Self.malformed("A mobile authentication request", member: "expires_at")
            }
            guard let nonce = entry["nonce"]?.stringValue.flatMap(Base64URL.decode), PinProof.acceptedNonceLengths.contains(nonce.count) else {
                throw Self.malformed("A mobile authentication request", member: "nonce")
            }
            requests.append(
                MobileAuthRequest(
                    id: id, userProfile: profile, message: message, type: type,
                    expiresAt: Date(timeIntervalSince1970: expires + clockOffset), nonce: nonce))
        }
        return requests
    }

    /// `POST /mobile-auth/answer`.
    /// - Parameter answer: The signed answer.
    /// - Returns: `.handled` (200), `.rejected` with the counts (401 `invalid_pin`), `.deregistered`
    ///   (410 `user_deregistered`).
    /// - Throws: 11016, 11015, 11017 and 11014 as for the lookup; as the table otherwise.
    public func answerMobileAuthRequest(_ answer: MobileAuthAnswer) async throws(IdentityFlowError) -> MobileAuthVerdict {
        let context = "the mobile authentication answer"
        var body: [String: JSONValue] = [
            "profile_id": .string(answer.profile.profileId), "request_id": .string(answer.requestId),
            "accepted": .bool(answer.accepted), "proof": .string(Base64URL.encode(answer.proof.value)),
        ]
        if let stepUp = answer.stepUp, let authenticator = answer.stepUpAuthenticator {
            body["step_up"] = [
                "authenticator": .string(authenticator.identifier), "nonce": .string(Base64URL.encode(stepUp.nonce)),
                "proof": .string(Base64URL.encode(stepUp.proof.value)),
            ]
        }
        let response = try await send("POST", path: "mobile-auth/answer", body: .object(body), context: context)
        switch (response.status, Self.errorCode(of: response)) {
        case (200, _), (204, _): return .handled
        case (401, "invalid_pin"):
            let (failures, max) = try Self.failureCounts(response)
            return .rejected(failureCount: failures, maxFailureCount: max)
        case (410, "user_deregistered"): return .deregistered
        default: throw Self.mobileAuthError(response, context: context, profile: answer.profile)
        }
    }

    /// `POST /implicit/enrol` with the bearer token and the PIN key's proof.
    /// - Parameters:
    ///   - publicKey: The implicit authentication public key.
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof over a fresh nonce and `publicKey`.
    ///   - accessToken: The user's access token.
    /// - Throws: 9009 for a wrong proof (counted), 9003 when it was the last allowed one, 11020
    ///   when the server answers 404 without a known error; as the table otherwise.
    public func enrolImplicitAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        try await enrolImplicitAuthentication(publicKey: publicKey, for: profile, authorization: authorization, accessToken: accessToken, proofKey: nil)
    }

    /// `POST /implicit/enrol` with a DPoP-proven access token when `proofKey` is given, as
    /// ``enrolPin(_:accessToken:proofKey:)``.
    /// - Parameters:
    ///   - publicKey: The implicit authentication public key.
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof over a fresh nonce and `publicKey`.
    ///   - accessToken: The user's access token.
    ///   - proofKey: The key the token is bound to, or `nil` for a bearer token.
    /// - Throws: As ``enrolPin(_:accessToken:proofKey:)`` and ``enrolImplicitAuthentication(publicKey:for:authorization:accessToken:)``.
    public func enrolImplicitAuthentication(
        publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        try await enrolDeviceKey(
            publicKey, path: "implicit/enrol", context: "the implicit authentication enrolment", profile: profile,
            authorization: authorization, accessToken: accessToken, proofKey: proofKey)
    }

    /// Registers a device key under the PIN key's proof: a wrong proof is a counted wrong PIN.
    private func enrolDeviceKey(
        _ publicKey: [UInt8], path: String, context: String, profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        let body = Self.proven(["profile_id": .string(profile.profileId), "public_key": .string(Base64URL.encode(publicKey))], by: authorization)
        let response = try await sendAuthorized("POST", path: path, body: .object(body), accessToken: accessToken, proofKey: proofKey, context: context)
        switch (response.status, Self.errorCode(of: response)) {
        case (200, _), (204, _): return
        case (401, "invalid_pin"), (410, "user_deregistered"): throw Self.proofError(response, context: context, profile: profile)
        default: throw Self.mobileAuthError(response, context: context, profile: profile)
        }
    }

    /// `POST /implicit/token`, signed by the implicit authentication key.
    /// - Parameters:
    ///   - scopes: Implicit scopes.
    ///   - profile: The profile.
    ///   - authorization: The nonce and the implicit key's signature.
    /// - Returns: The token response's access token, for those scopes.
    /// - Throws: 11018 (404 `implicit_not_enrolled`), 11017, 9003 for an unknown or deregistered
    ///   profile, 10015 with `oauthError` `invalid_scope`; as the table otherwise.
    public func implicitAccessToken(scopes: [String], for profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError) -> TokenSet
    {
        let context = "the implicit token request"
        let body: JSONValue = [
            "profile_id": .string(profile.profileId), "scopes": .array(scopes.map(JSONValue.string)),
            "nonce": .string(Base64URL.encode(authorization.nonce)), "proof": .string(Base64URL.encode(authorization.proof.value)),
        ]
        let response = try await send("POST", path: "implicit/token", body: body, context: context)
        guard response.status == 200 else { throw Self.mobileAuthError(response, context: context, profile: profile) }
        return try await tokenSet(from: try Self.jsonObject(response, context: "The implicit token response"), requestedScopes: scopes)
    }

    // MARK: - Helpers

    /// The errors of the mobile and implicit authentication endpoints; a bare 404 means the
    /// server does not offer them (11020, from ``extensionError(_:context:profile:)``).
    static func mobileAuthError(_ response: HTTPResponse, context: String, profile: UserProfile) -> IdentityFlowError {
        let code = errorCode(of: response)
        var error: IdentityFlowError
        switch (response.status, code) {
        case (404, "unknown_request"), (409, "already_handled"):
            error = IdentityFlowError(.mobileAuthRequestNotFound, "The server has no open request of that id for this profile.")
        case (410, "request_expired"): error = IdentityFlowError(.mobileAuthRequestExpired, "The request expired on the server.")
        case (401, "invalid_device_proof"): error = IdentityFlowError(.deviceProofRefused, "The server refused the device key's signature at \(context).")
        case (404, "mobile_auth_not_enrolled"):
            error = IdentityFlowError(.mobileAuthNotEnrolled, "The server holds no mobile authentication key for this profile.")
        case (404, "implicit_not_enrolled"):
            error = IdentityFlowError(.implicitAuthNotEnrolled, "The server holds no implicit authentication key for this profile.")
        case (400, "invalid_scope"): error = IdentityFlowError(.requestInvalid, "The server refused the scopes at \(context): they are not implicit.")
        default: return extensionError(response, context: context, profile: profile)
        }
        error.oauthError = code
        error.userProfile = profile
        return error
    }
}
