import Foundation

/// The stored form of the resume record (``ProfileStore/saveResumeRecord(_:for:)``): the profile
/// whose session resumes at the next launch and its resume key, as JSON with the key in base64.
struct ResumeRecord {
    /// The profile to resume.
    var profileId: String
    /// The resume key (device mode: it unwraps the vault key; server mode: a marker byte).
    var key: [UInt8]

    init(profileId: String, key: [UInt8]) {
        self.profileId = profileId
        self.key = key
    }

    /// Reads a stored record; `nil` when `data` is not one.
    init?(decoding data: Data) {
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data), let key = Data(base64Encoded: stored.key) else { return nil }
        self.init(profileId: stored.profileId, key: Array(key))
    }

    /// The record as stored.
    /// - Throws: ``ErrorCode/dataStorageNotAvailable`` when it cannot be encoded.
    func encoded() throws(IdentityFlowError) -> Data {
        do { return try JSONEncoder().encode(Stored(profileId: profileId, key: Data(key).base64EncodedString())) } catch {
            throw IdentityFlowError(.dataStorageNotAvailable, "The resume record could not be encoded.", underlying: error)
        }
    }

    private struct Stored: Codable {
        var profileId: String
        var key: String
    }
}
