import Foundation

extension StoredProfile {
    /// The profile as the JSON that `JSONEncoder` would write for it (same keys, nesting and
    /// value forms, absent optionals left out), written directly
    /// (docs/performance-notes.md#stored-profile-json).
    ///
    /// `JSONDecoder` reads it back, as it reads profiles that earlier versions stored with
    /// `JSONEncoder`. Dates are seconds since 2001-01-01, `JSONEncoder`'s default.
    /// - Throws: `EncodingError.invalidValue` for an expiry date that is not a finite number.
    func jsonData() throws -> Data {
        var writer = JSONWriter(capacity: 384 + (biometricKey?.value.count ?? 0) * 4)
        writer.punctuation("{")
        writer.key("profile")
        writer.punctuation("{")
        writer.key("profileId")
        writer.string(profile.profileId)
        writer.punctuation("}")
        writer.punctuation(",")
        writer.key("tokens")
        // A device-mode profile's tokens are in its vault, sealed: only the ID token, which grants
        // nothing at the provider, is written in clear, for identityClaims(of:) while logged out.
        try (vault == nil ? tokens : tokens.withoutCredentials).writeJSON(to: &writer)
        if let deviceSecret {
            writer.punctuation(",")
            writer.key("deviceSecret")
            writer.base64(deviceSecret.value)
        }
        if hasBiometricKey {
            writer.punctuation(",")
            writer.key("hasBiometricKey")
            writer.bool(true)
        }
        if let biometricKey {
            writer.punctuation(",")
            writer.key("biometricKey")
            writer.base64(biometricKey.value)
        }
        if mobileAuthEnrolled {
            writer.punctuation(",")
            writer.key("mobileAuthEnrolled")
            writer.bool(true)
        }
        if pushMobileAuthEnrolled {
            writer.punctuation(",")
            writer.key("pushMobileAuthEnrolled")
            writer.bool(true)
        }
        if biometricRevocationPending {
            writer.punctuation(",")
            writer.key("biometricRevocationPending")
            writer.bool(true)
        }
        if let vault {
            writer.punctuation(",")
            writer.key("vault")
            vault.writeJSON(to: &writer)
        }
        writer.punctuation("}")
        return Data(writer.bytes)
    }
}

extension TokenSet {
    /// Writes the token set as `JSONEncoder` would: an object with the present members.
    fileprivate func writeJSON(to writer: inout JSONWriter) throws {
        writer.punctuation("{")
        writer.key("accessToken")
        writer.string(accessToken.value)
        if let refreshToken {
            writer.punctuation(",")
            writer.key("refreshToken")
            writer.string(refreshToken.value)
        }
        if let idToken {
            writer.punctuation(",")
            writer.key("idToken")
            writer.string(idToken.value)
        }
        if let expiresAt {
            writer.punctuation(",")
            writer.key("expiresAt")
            try writer.number(expiresAt.timeIntervalSinceReferenceDate)
        }
        writer.punctuation(",")
        writer.key("scopes")
        writer.strings(scopes)
        if let tokenType {
            writer.punctuation(",")
            writer.key("tokenType")
            writer.string(tokenType)
        }
        writer.punctuation("}")
    }
}
