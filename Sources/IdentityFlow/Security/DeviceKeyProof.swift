import Foundation

/// The device keys of mobile and implicit authentication (`docs/mobile-auth.md`): P-256 keys
/// derived from the profile's device secret, one per purpose, whose public halves the server
/// holds. They sign the same `label ‖ 0 ‖ profile ‖ 0 ‖ nonce ‖ subject` messages as PIN proof v2.
package enum DeviceKeyProof {
    /// What a device key is for; each has its own derivation label.
    package enum Key: String, Sendable {
        /// Signs mobile authentication lookups and answers.
        case mobileAuthentication = "identityflow-mobile-auth-key-v1"
        /// Signs implicit authentication token requests.
        case implicitAuthentication = "identityflow-implicit-key-v1"
    }

    /// What a signature is for; each purpose signs under its own versioned label.
    package enum Purpose: String, Sendable {
        /// Fetching requests (pending, by id or by one-time code), by the mobile authentication key.
        case mobileAuthLookup = "identityflow-mobile-auth-lookup-v1"
        /// Accepting or denying a request, by the mobile authentication key.
        case mobileAuthAnswer = "identityflow-mobile-auth-answer-v1"
        /// The PIN step-up of an accepted request, by the PIN key.
        case mobileAuthPin = "identityflow-mobile-auth-pin-v1"
        /// The biometric step-up of an accepted request, by the biometric key.
        case mobileAuthBiometric = "identityflow-mobile-auth-biometric-v1"
        /// An implicit token request, by the implicit authentication key.
        case implicitToken = "identityflow-implicit-token-v1"
    }

    /// The profile's key for `key`: HKDF-SHA256 of the device secret (no salt) with the key's
    /// label and the profile in `info`, reduced to a P-256 scalar as the PIN key is.
    /// - Parameters:
    ///   - key: Which key.
    ///   - deviceSecret: The profile's device secret.
    ///   - profile: The profile.
    /// - Returns: The key pair.
    package static func key(_ key: Key, deviceSecret: Redacted<[UInt8]>, profile: UserProfile) -> DeviceKey {
        let material = HKDF.sha256(
            inputKeyMaterial: deviceSecret.value, salt: [],
            info: Array(key.rawValue.utf8) + [0] + Array(profile.profileId.utf8),
            outputLength: DeviceKey.keyMaterialLength)
        return DeviceKey(keyMaterial: material)
    }

    /// The bytes signed for `purpose`.
    /// - Parameters:
    ///   - purpose: The purpose.
    ///   - profile: The profile.
    ///   - nonce: The server's nonce.
    ///   - subject: What is signed for: the lookup, the request id and decision, the scopes.
    /// - Returns: The message.
    package static func message(_ purpose: Purpose, profile: UserProfile, nonce: [UInt8], subject: [UInt8]) -> [UInt8] {
        PinProof.message(purpose.rawValue, profile: profile, nonce: nonce, subject: subject)
    }

    /// The subject of an answer: `UTF-8(request id) ‖ 0x00 ‖ (0x01 accept | 0x00 deny)`.
    package static func answerSubject(requestId: String, accepted: Bool) -> [UInt8] {
        Array(requestId.utf8) + [0, accepted ? 1 : 0]
    }

    /// The subject of an implicit token request: the scopes, sorted, joined by spaces.
    package static func scopeSubject(_ scopes: [String]) -> [UInt8] {
        Array(scopes.sorted().joined(separator: " ").utf8)
    }
}

/// A mobile authentication one-time code: `IFOTP1.` ‖ base64url(profile id) ‖ `.` ‖
/// base64url(secret of at least 24 bytes). The server makes it; the device reads only the
/// profile from it and sends the whole code, signed, to look the request up.
package struct MobileAuthOTP: Sendable, Hashable {
    /// The profile the code is for.
    package let profile: UserProfile
    /// The whole code.
    package let code: Redacted<String>

    private static let prefix = "IFOTP1."

    /// Reads a code; `nil` for text that is not one.
    package init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(Self.prefix) else { return nil }
        let parts = trimmed.dropFirst(Self.prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Base64URL.decode(String(parts[0])), !id.isEmpty,
            let profileId = StrictUTF8.decode(id),
            let secret = Base64URL.decode(String(parts[1])), secret.count >= 24
        else { return nil }
        profile = UserProfile(profileId: profileId)
        code = Redacted(trimmed)
    }

    /// A new code for `profile` with a fresh 32-byte secret (servers and the test kit make them).
    /// - Throws: ``ErrorCode/unknown`` if the random generator fails.
    package static func make(for profile: UserProfile) throws(IdentityFlowError) -> String {
        prefix + Base64URL.encode(Array(profile.profileId.utf8)) + "." + Base64URL.encode(try PinProof.randomBytes(32))
    }
}
