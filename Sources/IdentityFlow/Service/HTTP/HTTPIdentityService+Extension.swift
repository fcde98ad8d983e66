import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The registration and PIN extension endpoints of docs/extension-api.openapi.yaml.
extension HTTPIdentityService {
    // MARK: - Identity providers

    /// The configured ``HTTPServiceConfiguration/identityProviders`` when there are any (nothing
    /// is asked then: a stock provider has no endpoint to list them), else `GET /identity-providers`.
    /// - Returns: The providers, in the configured or the server's order.
    /// - Throws: As the table in the type's discussion.
    public func identityProviders() async throws(IdentityFlowError) -> [IdentityProvider] {
        if let configured = configuration.identityProviders { return configured }
        let response = try await send("GET", path: "identity-providers", body: nil, context: "the identity providers")
        guard response.status == 200 else { throw Self.extensionError(response, context: "the identity providers") }
        return try Self.providers(from: response)
    }

    /// Whether the server offers the extension endpoints at all, decided by the shape of the
    /// provider list's answer: only the documented list (a `200` JSON array of entries with `id`,
    /// `name` and `type`) means it does. Any other answer (another status, HTML, other JSON) means
    /// it does not, and is described at debug level: providers answer unknown paths with `404`,
    /// `401` JSON or a login page alike.
    /// - Parameter logger: Where an answer taken as "no extension API" is described.
    /// - Returns: Whether the provider list answered as documented.
    /// - Throws: The transport's errors (no answer at all).
    package func servesExtensionEndpoints(logger: IdentityFlowLogger) async throws(IdentityFlowError) -> Bool {
        let response = try await send("GET", path: "identity-providers", body: nil, context: "the identity providers")
        do throws(IdentityFlowError) {
            guard response.status == 200 else { throw Self.extensionError(response, context: "the identity providers") }
            _ = try Self.providers(from: response)
            return true
        } catch {
            logger.log(
                .debug,
                "The provider list\(response.url.map { " at \($0.path)" } ?? "") answered HTTP \(response.status) (\(response.mediaType ?? "no content type")), not the documented list, so the provider is taken to serve no IdentityFlow extension API: \(error.message)"
            )
            return false
        }
    }

    /// The providers of a `200` answer of the provider list, in the documented shape.
    private static func providers(from response: HTTPResponse) throws(IdentityFlowError) -> [IdentityProvider] {
        guard let entries = try jsonObject(response, context: "The identity provider list").arrayValue else {
            throw IdentityFlowError(.invalidServerResponse, "The identity provider list is not a JSON array.")
        }
        var providers: [IdentityProvider] = []
        for entry in entries {
            guard let id = entry["id"]?.stringValue, let name = entry["name"]?.stringValue, let type = entry["type"]?.stringValue else {
                throw malformed("An identity provider entry", member: "id/name/type")
            }
            switch (type, entry["steps"]?.intValue) {
            case ("browser", _): providers.append(IdentityProvider(identifier: id, name: name, kind: .browser))
            case ("custom", let steps?):
                guard let kind = CustomRegistrationSteps(rawValue: steps) else { throw malformed("A custom identity provider entry", member: "steps") }
                providers.append(IdentityProvider(identifier: id, name: name, kind: .custom(kind)))
            default: throw malformed("An identity provider entry", member: "type/steps")
            }
        }
        return providers
    }

    // MARK: - Custom registration

    /// `POST /registration/custom/{idp}/init`.
    /// - Parameters:
    ///   - provider: A custom identity provider.
    ///   - data: The host's optional initial data.
    /// - Returns: The provider's status and data, and the session for the finish step.
    /// - Throws: 10021 for `410`, 10020 for an unknown provider; as the table otherwise.
    public func initCustomRegistration(provider: IdentityProvider, data: Redacted<String?>) async throws(IdentityFlowError) -> CustomRegistrationAnswer {
        let context = "the custom registration init"
        let response = try await send(
            "POST", path: try customPath(provider, "init"), body: ["data": data.value.map(JSONValue.string) ?? .null], context: context)
        guard response.status == 200 else { throw Self.extensionError(response, context: context) }
        let json = try Self.jsonObject(response, context: "The init answer")
        guard let session = json["session"]?.stringValue, !session.isEmpty else { throw Self.malformed("The init answer", member: "session") }
        return CustomRegistrationAnswer(info: try customInfo(json, context: "The init answer"), session: session)
    }

    /// `POST /registration/custom/{idp}/complete`.
    /// - Parameters:
    ///   - provider: A custom identity provider.
    ///   - session: The init step's session (`nil` for one-step).
    ///   - data: The host's registration data.
    /// - Returns: The provider's answer, with the new user's tokens on 2000-2999.
    /// - Throws: 10021 for `410`, 10020 for an unknown provider, 11001 when a 2xxx answer has no tokens.
    public func completeCustomRegistration(provider: IdentityProvider, session: String?, data: Redacted<String?>) async throws(IdentityFlowError)
        -> CustomRegistrationAnswer
    {
        let context = "the custom registration complete"
        let body: JSONValue = ["session": session.map(JSONValue.string) ?? .null, "data": data.value.map(JSONValue.string) ?? .null]
        let response = try await send("POST", path: try customPath(provider, "complete"), body: body, context: context)
        guard response.status == 200 else { throw Self.extensionError(response, context: context) }
        let json = try Self.jsonObject(response, context: "The complete answer")
        let info = try customInfo(json, context: "The complete answer")
        guard info.outcome == .success else { return CustomRegistrationAnswer(info: info, session: session) }
        guard let tokens = json["tokens"], tokens.objectValue != nil else { throw Self.malformed("The successful complete answer", member: "tokens") }
        return CustomRegistrationAnswer(info: info, session: session, tokens: try await tokenSet(from: tokens, requestedScopes: configuration.scopes))
    }

    private func customPath(_ provider: IdentityProvider, _ step: String) throws(IdentityFlowError) -> String {
        guard case .custom = provider.kind else {
            throw IdentityFlowError(.invalidIdentityProvider, "\(provider.identifier) is not a custom identity provider.")
        }
        return "registration/custom/\(Self.pathSegment(provider.identifier))/\(step)"
    }

    private func customInfo(_ json: JSONValue, context: String) throws(IdentityFlowError) -> CustomInfo {
        guard let status = json["status"]?.intValue else { throw Self.malformed(context, member: "status") }
        let info = CustomInfo(status: status, data: json["data"]?.stringValue ?? "")
        guard info.outcome != .invalid else {
            throw IdentityFlowError(.invalidServerResponse, "\(context) has status \(status), outside 2000-2999, 4000-4999 and 5000-5999.")
        }
        return info
    }

    // MARK: - PIN

    /// `POST /pin/enrol` with the bearer token.
    /// - Parameters:
    ///   - enrolment: Profile, salt, iterations, public key and, for a re-enrolment, the current key's proof.
    ///   - accessToken: The user's access token.
    /// - Returns: The server's failure limit.
    /// - Throws: 9009 for a wrong proof (counted), 9010 for a refused token, 9003 for a deregistered
    ///   profile, 10015 for a profile of another user or a re-enrolment without proof.
    public func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>) async throws(IdentityFlowError) -> PinEnrolmentReceipt {
        try await enrolPin(enrolment, accessToken: accessToken, proofKey: nil)
    }

    /// `POST /pin/enrol` with `Authorization: DPoP <token>` and a `DPoP` proof by `proofKey` for
    /// its method and URL with `ath` of the token, when a key is given (a `use_dpop_nonce` answer,
    /// `401` with a `DPoP` challenge or `400` JSON, retried once with the nonce); as
    /// ``enrolPin(_:accessToken:)`` without one.
    /// - Parameters:
    ///   - enrolment: As for ``enrolPin(_:accessToken:)``.
    ///   - accessToken: The user's access token.
    ///   - proofKey: The key the token is bound to, or `nil` for a bearer token.
    /// - Returns: The server's failure limit.
    /// - Throws: ``ErrorCode/securityProfileNotMet`` without a key under ``SecurityProfile/fapi2``
    ///   (nothing is sent); ``ErrorCode/dpopProofRefused``; as ``enrolPin(_:accessToken:)``.
    public func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>, proofKey: DPoPKey?) async throws(IdentityFlowError)
        -> PinEnrolmentReceipt
    {
        let context = "the PIN enrolment"
        var body: [String: JSONValue] = [
            "profile_id": .string(enrolment.profile.profileId), "salt": .string(Base64URL.encode(enrolment.salt)),
            "iterations": .number(Double(enrolment.iterations)), "public_key": .string(Base64URL.encode(enrolment.publicKey)),
        ]
        if let authorization = enrolment.authorization { body = Self.proven(body, by: authorization) }
        let response = try await sendAuthorized("POST", path: "pin/enrol", body: .object(body), accessToken: accessToken, proofKey: proofKey, context: context)
        guard response.status == 200 else { throw Self.proofError(response, context: context, profile: enrolment.profile) }
        guard let max = try Self.jsonObject(response, context: "The enrolment answer")["max_failure_count"]?.intValue, max >= 1 else {
            throw Self.malformed("The enrolment answer", member: "max_failure_count")
        }
        return PinEnrolmentReceipt(maxFailureCount: max)
    }

    /// `POST /pin/challenge`.
    /// - Parameter profile: The profile logging in.
    /// - Returns: The nonce and derivation parameters.
    /// - Throws: 9003 when the server deregistered the profile, 10007 when it does not know it.
    public func pinLoginChallenge(for profile: UserProfile) async throws(IdentityFlowError) -> PinLoginChallenge {
        let context = "the PIN challenge"
        let response = try await send("POST", path: "pin/challenge", body: ["profile_id": .string(profile.profileId)], context: context)
        guard response.status == 200 else { throw Self.extensionError(response, context: context, profile: profile) }
        let json = try Self.jsonObject(response, context: "The PIN challenge")
        func bytes(_ member: String) throws(IdentityFlowError) -> [UInt8] {
            guard let text = json[member]?.stringValue, let bytes = Base64URL.decode(text), !bytes.isEmpty else {
                throw Self.malformed("The PIN challenge", member: member)
            }
            return bytes
        }
        func integer(_ member: String) throws(IdentityFlowError) -> Int {
            guard let value = json[member]?.intValue, value >= 0 else { throw Self.malformed("The PIN challenge", member: member) }
            return value
        }
        let version = json["version"] == nil ? 1 : try integer("version")
        return PinLoginChallenge(
            nonce: try bytes("nonce"), salt: try bytes("salt"), iterations: try integer("iterations"),
            maxFailureCount: try integer("max_failure_count"), failureCount: try integer("failure_count"), version: version)
    }

    /// `POST /pin/verify`.
    /// - Parameters:
    ///   - proof: The PIN proof.
    ///   - profile: The profile logging in.
    ///   - nonce: The challenge's nonce.
    /// - Returns: `.accepted` with tokens (200), `.rejected` with the counts (401 `invalid_pin`),
    ///   `.deregistered` (410 `user_deregistered`).
    /// - Throws: 10015 for `invalid_nonce`, 10007 for an unknown profile; as the table otherwise.
    public func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError) -> PinVerification {
        try await verify(proof, for: profile, nonce: nonce, path: "pin/verify", context: "the PIN verification", proofKey: nil)
    }

    /// `POST /pin/verify` with a `DPoP` proof by `proofKey` for its method and URL, when a key is
    /// given (a `use_dpop_nonce` answer retried once, as at the token endpoint); the answer's
    /// tokens must then say `token_type` `DPoP`, as the token endpoint's must.
    /// - Parameters:
    ///   - proof: The PIN proof.
    ///   - profile: The profile logging in.
    ///   - nonce: The challenge's nonce.
    ///   - proofKey: The profile's DPoP key, or `nil` for bearer tokens (then as ``verifyPinProof(_:for:nonce:)``).
    /// - Returns: As ``verifyPinProof(_:for:nonce:)``.
    /// - Throws: ``ErrorCode/tokenNotSenderConstrained`` for a `Bearer` answer to a proof (unless
    ///   ``HTTPServiceConfiguration/acceptsBearerTokensForDPoP``; the tokens are revoked);
    ///   ``ErrorCode/dpopProofRefused``; as ``verifyPinProof(_:for:nonce:)``.
    public func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8], proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> PinVerification
    {
        try await verify(proof, for: profile, nonce: nonce, path: "pin/verify", context: "the PIN verification", proofKey: proofKey)
    }

    /// `POST /biometric/enrol` with the bearer token.
    /// - Parameters:
    ///   - publicKey: The biometric public key.
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof over a fresh nonce and `publicKey`.
    ///   - accessToken: The user's access token.
    /// - Throws: 9009 for a wrong proof (counted), 9003 when it was the last allowed one; as the table otherwise.
    public func enrolBiometricKey(
        _ publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>
    ) async throws(IdentityFlowError) {
        try await enrolBiometricKey(publicKey, for: profile, authorization: authorization, accessToken: accessToken, proofKey: nil)
    }

    /// `POST /biometric/enrol` with a DPoP-proven access token when `proofKey` is given, as
    /// ``enrolPin(_:accessToken:proofKey:)``.
    /// - Parameters:
    ///   - publicKey: The biometric public key.
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof over a fresh nonce and `publicKey`.
    ///   - accessToken: The user's access token.
    ///   - proofKey: The key the token is bound to, or `nil` for a bearer token.
    /// - Throws: As ``enrolPin(_:accessToken:proofKey:)`` and ``enrolBiometricKey(_:for:authorization:accessToken:)``.
    public func enrolBiometricKey(
        _ publicKey: [UInt8], for profile: UserProfile, authorization: PinKeyAuthorization,
        accessToken: Redacted<String>, proofKey: DPoPKey?
    ) async throws(IdentityFlowError) {
        let context = "the biometric key registration"
        let body = Self.proven(["profile_id": .string(profile.profileId), "public_key": .string(Base64URL.encode(publicKey))], by: authorization)
        let response = try await sendAuthorized(
            "POST", path: "biometric/enrol", body: .object(body), accessToken: accessToken, proofKey: proofKey, context: context)
        guard response.status == 204 || response.status == 200 else { throw Self.proofError(response, context: context, profile: profile) }
    }

    /// `POST /biometric/verify`, answered like `pin/verify`.
    /// - Parameters:
    ///   - proof: The biometric key's signature.
    ///   - profile: The profile logging in.
    ///   - nonce: The challenge's nonce.
    /// - Returns: As ``verifyPinProof(_:for:nonce:)``.
    /// - Throws: 10007 when the server holds no biometric key for the profile; as the table otherwise.
    public func verifyBiometricProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError) -> PinVerification {
        try await verify(proof, for: profile, nonce: nonce, path: "biometric/verify", context: "the biometric verification", proofKey: nil)
    }

    /// `POST /biometric/verify` with a `DPoP` proof by `proofKey` when a key is given, as
    /// ``verifyPinProof(_:for:nonce:proofKey:)``.
    /// - Parameters:
    ///   - proof: The biometric key's signature.
    ///   - profile: The profile logging in.
    ///   - nonce: The challenge's nonce.
    ///   - proofKey: The profile's DPoP key, or `nil` for bearer tokens.
    /// - Returns: As ``verifyPinProof(_:for:nonce:)``.
    /// - Throws: As ``verifyPinProof(_:for:nonce:proofKey:)`` and ``verifyBiometricProof(_:for:nonce:)``.
    public func verifyBiometricProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8], proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> PinVerification
    {
        try await verify(proof, for: profile, nonce: nonce, path: "biometric/verify", context: "the biometric verification", proofKey: proofKey)
    }

    /// `POST /biometric/revoke` with the PIN key's proof; `404 unknown_profile` or
    /// `authenticator_not_registered` and 410 count as done.
    /// - Parameters:
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof over a fresh nonce.
    /// - Throws: 9009 for a wrong proof (counted), 9003 when it was the last allowed one; as the table otherwise.
    public func revokeBiometricKey(for profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError) {
        try await removal("biometric/revoke", of: profile, authorization: authorization, context: "the biometric key revocation")
    }

    /// A removal proven by the PIN key: the server's own "nothing there" (a 404 with
    /// `unknown_profile` or `authenticator_not_registered`, or a 410) counts as done. A bare 404,
    /// as a proxy or a server without the extension API answers, is an error (11020): the profile
    /// may still be enrolled.
    private func removal(_ path: String, of profile: UserProfile, authorization: PinKeyAuthorization, context: String) async throws(IdentityFlowError) {
        let response = try await send(
            "POST", path: path, body: .object(Self.proven(["profile_id": .string(profile.profileId)], by: authorization)), context: context)
        switch (response.status, Self.errorCode(of: response)) {
        case (200, _), (204, _), (404, "unknown_profile"), (404, "authenticator_not_registered"), (410, "user_deregistered"): return
        default: throw Self.proofError(response, context: context, profile: profile)
        }
    }

    /// `body` with the proof's `nonce` and `proof` members.
    static func proven(_ body: [String: JSONValue], by authorization: PinKeyAuthorization) -> [String: JSONValue] {
        body.merging(["nonce": .string(Base64URL.encode(authorization.nonce)), "proof": .string(Base64URL.encode(authorization.proof.value))]) { $1 }
    }

    private func verify(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8], path: String, context: String, proofKey: DPoPKey?)
        async throws(IdentityFlowError) -> PinVerification
    {
        // Under FAPI 2.0 the tokens a login issues are bound like every other: a keyless login
        // (a profile without a DPoP key) is refused before anything is sent. A PIN proof v1
        // profile's login carries its key like a v2 login, so it is not refused here.
        try requireKeyUnderFAPI2(proofKey)
        let body: JSONValue = [
            "profile_id": .string(profile.profileId), "nonce": .string(Base64URL.encode(nonce)), "proof": .string(Base64URL.encode(proof.value)),
        ]
        let response = try await send("POST", path: path, body: body, context: context, proofKey: proofKey)
        switch (response.status, Self.errorCode(of: response)) {
        case (200, _):
            let json = try Self.jsonObject(response, context: "The \(context) answer")
            return .accepted(try await tokenSet(from: json, requestedScopes: configuration.scopes, proofKey: proofKey))
        case (401, "invalid_pin"):
            let (failures, max) = try Self.failureCounts(response)
            return .rejected(failureCount: failures, maxFailureCount: max)
        case (410, "user_deregistered"):
            return .deregistered
        case (404, "authenticator_not_registered"):
            throw IdentityFlowError(.authenticatorNotRegistered, "The server holds no biometric key for this profile.")
        default:
            throw Self.extensionError(response, context: context, profile: profile)
        }
    }

    /// The counters of a `401 invalid_pin` answer.
    static func failureCounts(_ response: HTTPResponse) throws(IdentityFlowError) -> (failures: Int, max: Int) {
        let json = try jsonObject(response, context: "The invalid_pin answer")
        guard let failures = json["failure_count"]?.intValue, let max = json["max_failure_count"]?.intValue, failures >= 1, max > failures else {
            throw malformed("The invalid_pin answer", member: "failure_count/max_failure_count")
        }
        return (failures, max)
    }

    /// Maps the refusal of a request that carried a proof (PIN change, a key registration, a
    /// revocation, a deregistration): a wrong proof is a counted wrong PIN, the last allowed one
    /// deregistered the profile.
    static func proofError(_ response: HTTPResponse, context: String, profile: UserProfile) -> IdentityFlowError {
        switch (response.status, errorCode(of: response)) {
        case (401, "invalid_pin"):
            var error = IdentityFlowError(.invalidPin, "The server refused the PIN key's proof at \(context).")
            error.oauthError = "invalid_pin"
            return error
        default:
            return extensionError(response, context: context, profile: profile)
        }
    }

    // MARK: - Profiles

    /// `POST /deregister` with the PIN key's proof; 404 and 410 count as done.
    /// - Parameters:
    ///   - profile: The profile.
    ///   - authorization: The PIN key's proof over a fresh nonce.
    /// - Throws: 9009 for a wrong proof (counted), 9003 when it was the last allowed one; as the table otherwise.
    public func deregister(_ profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError) {
        try await removal("deregister", of: profile, authorization: authorization, context: "the deregistration")
    }

    /// `GET /profiles/{id}`: `true` for 200, `false` for `404 unknown_profile` and for 410.
    ///
    /// Only the server's own answer says a profile is gone: a bare 404 (a proxy, a server without
    /// the extension API, a wrong ``HTTPServiceConfiguration/extensionBaseURL``) throws 11020, so
    /// that ``UserClient/start()`` keeps the profile instead of deleting it.
    /// - Parameter profile: The profile.
    /// - Returns: Whether the server knows the profile.
    /// - Throws: As the table in the type's discussion.
    public func profileExists(_ profile: UserProfile) async throws(IdentityFlowError) -> Bool {
        let context = "the profile check"
        let response = try await send("GET", path: "profiles/\(Self.pathSegment(profile.profileId))", body: nil, context: context)
        switch (response.status, Self.errorCode(of: response)) {
        case (200, _): return true
        case (404, "unknown_profile"), (410, _): return false
        default: throw Self.extensionError(response, context: context, profile: profile)
        }
    }

    // MARK: - Requests

    func send(_ method: String, path: String, body: JSONValue?, bearer: Redacted<String>? = nil, context: String, proofKey: DPoPKey? = nil)
        async throws(IdentityFlowError) -> HTTPResponse
    {
        guard let base = configuration.resolvedExtensionBaseURL else {
            throw IdentityFlowError(.configurationInvalid, "No extension base URL could be derived.")
        }
        let trimmed = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        guard let url = URL(string: trimmed + "/" + path) else {
            throw IdentityFlowError(.configurationInvalid, "The extension URL for \(context) is invalid.")
        }
        // With a key, a proof for this method and URL, as at the token endpoint (a PIN or
        // biometric login); with an access token too, the token goes as `DPoP` and the proof
        // names it (`ath`), as at a resource server (an enrolment).
        let request = try jsonRequest(url, method: method, body: body, bearer: bearer)
        return try await sendWithDPoP(request, key: proofKey, accessToken: proofKey == nil ? nil : bearer)
    }

    /// Sends a request that carries the user's access token: as a bearer token, or with a key as
    /// `Authorization: DPoP` with a proof naming it (RFC 9449 §7). Under ``SecurityProfile/fapi2``
    /// every token is bound, so a call without the key is refused before anything is sent.
    ///
    /// An extension server that takes only bearer tokens answers the `DPoP` scheme with a `401`
    /// whose challenge offers no `DPoP` scheme: that is ``ErrorCode/dpopProofRefused``, naming the
    /// cause, rather than a refused token (the user's session is fine; the server is not ready).
    /// - Throws: ``ErrorCode/securityProfileNotMet`` for a keyless call under the profile;
    ///   ``ErrorCode/dpopProofRefused`` from a bearer-only server; as ``send(_:path:body:bearer:context:proofKey:)``.
    func sendAuthorized(_ method: String, path: String, body: JSONValue?, accessToken: Redacted<String>, proofKey: DPoPKey?, context: String)
        async throws(IdentityFlowError) -> HTTPResponse
    {
        try requireKeyUnderFAPI2(proofKey, for: context)
        let response = try await send(method, path: path, body: body, bearer: accessToken, context: context, proofKey: proofKey)
        if proofKey != nil, response.status == 401, let challenge = response.header("WWW-Authenticate"), !challenge.lowercased().contains("dpop") {
            var error = IdentityFlowError(
                .dpopProofRefused,
                "The server refused the DPoP-bound access token at \(context), and its challenge offers no DPoP scheme: it takes bearer tokens only. An extension server must accept `Authorization: DPoP` with a proof (RFC 9449 §7, docs/extension-api.openapi.yaml) once the provider binds tokens; until then set `dpop` to `.off`."
            )
            error.oauthError = Self.errorCode(of: response)
            throw error
        }
        return response
    }

    private static func pathSegment(_ text: String) -> String { formEncode(text) }
}
