import Foundation

/// Byte fields of a stored profile (its device secret, its vault's boxes): written as base64
/// strings (``JSONWriter/base64(_:)``) since issue 38, read in that form or as the array of
/// numbers that earlier versions wrote, so profiles stored before keep loading. An array
/// costs `JSONDecoder` one value per byte: a device-mode profile held about 700.
extension KeyedDecodingContainer {
    /// The bytes under `key`, in either stored form.
    /// - Throws: `DecodingError` when the value is neither base64 nor an array of bytes.
    func decodeBytes(forKey key: Key) throws -> [UInt8] {
        guard let text = try? decode(String.self, forKey: key) else { return try decode([UInt8].self, forKey: key) }
        guard let data = Data(base64Encoded: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "A stored byte field is not base64.")
        }
        return Array(data)
    }

    /// The bytes under `key` in either stored form, or `nil` when the key is absent or null.
    /// - Throws: `DecodingError` when the value is neither base64 nor an array of bytes.
    func decodeBytesIfPresent(forKey key: Key) throws -> [UInt8]? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeBytes(forKey: key)
    }
}
