import Foundation

/// What is stored of a ``DPoPKey`` so that it can be loaded again: a secret, written only sealed
/// (the device vault) or in the platform's secure storage.
///
/// JSON: `{"kind":"software","key":"<base64>"}` or `{"kind":"secureEnclave","key":"<base64>"}`
/// (the byte field also read as an array of numbers, as ``StoredBytes`` fields are).
package enum StoredDPoPKey: Codable, Sendable, Equatable {
    /// A software key's private scalar (32 bytes, big-endian).
    case software(privateKey: Redacted<[UInt8]>)
    /// A Secure Enclave key's opaque handle, usable by that device's enclave only.
    case secureEnclave(dataRepresentation: Redacted<[UInt8]>)

    private enum CodingKeys: String, CodingKey { case kind, key }

    /// Reads a stored key.
    /// - Throws: `DecodingError` for an unknown kind or a byte field that is neither base64 nor bytes.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let bytes = Redacted(try container.decodeBytes(forKey: .key))
        switch try container.decode(String.self, forKey: .kind) {
        case "software": self = .software(privateKey: bytes)
        case "secureEnclave": self = .secureEnclave(dataRepresentation: bytes)
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "Unknown DPoP key kind.")
        }
    }

    /// Writes the kind and the bytes as base64.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .software(let privateKey):
            try container.encode("software", forKey: .kind)
            try container.encode(Data(privateKey.value).base64EncodedString(), forKey: .key)
        case .secureEnclave(let dataRepresentation):
            try container.encode("secureEnclave", forKey: .kind)
            try container.encode(Data(dataRepresentation.value).base64EncodedString(), forKey: .key)
        }
    }
}
