import Foundation

extension HTTPServiceConfiguration {
    /// The snake_case spellings of the sender-constraint keys, read like the camelCase ones (the
    /// file's other keys are OAuth parameter names); a file naming a key both ways is refused.
    static let senderConstraintKeys: [(alias: String, key: String)] = [
        ("accepts_bearer_tokens_for_dpop", "acceptsBearerTokensForDPoP"), ("pushed_authorization", "pushedAuthorization"),
        ("security_profile", "securityProfile"),
    ]

    /// Reads `dpop` (`off`, `whenAdvertised`, `required`), `acceptsBearerTokensForDPoP` (a
    /// boolean), `pushedAuthorization` (`off`, `whenAdvertised`, `required`) and
    /// `securityProfile` (`standard`, `fapi2`); `when_advertised` is read as `whenAdvertised`.
    mutating func readSenderConstraintKeys(_ values: [String: Any], name: String) throws(IdentityFlowError) {
        func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, _: Choice.Type) throws(IdentityFlowError) -> Choice?
        where Choice.RawValue == String {
            guard let value = values[key] else { return nil }
            let text = (value as? String).map { $0 == "when_advertised" ? "whenAdvertised" : $0 }
            guard let text, let chosen = Choice(rawValue: text) else {
                let allowed = Choice.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                throw IdentityFlowError(.configurationInvalid, "'\(key)' in the \(name) must be one of \(allowed).")
            }
            return chosen
        }
        if let policy = try choice("dpop", DPoPPolicy.self) { dpop = policy }
        if let policy = try choice("pushedAuthorization", PushedAuthorizationPolicy.self) { pushedAuthorization = policy }
        if let profile = try choice("securityProfile", SecurityProfile.self) { securityProfile = profile }
        if let accepts = values["acceptsBearerTokensForDPoP"] {
            guard accepts is Bool, let flag = accepts as? Bool else {
                throw IdentityFlowError(.configurationInvalid, "'acceptsBearerTokensForDPoP' in the \(name) must be true or false.")
            }
            acceptsBearerTokensForDPoP = flag
        }
    }
}
