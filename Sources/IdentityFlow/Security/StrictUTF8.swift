/// Strict UTF-8 decoding that works on every platform the package declares.
///
/// `String(validating:as:)` (SE-0405) is iOS 18 / macOS 15 / tvOS 18 / watchOS 11 only, older
/// than the package's minimums; on older systems the same check is done with the standard
/// library's own UTF-8 decoder, which rejects what the Unicode standard rejects (overlong forms,
/// surrogates, values above U+10FFFF, truncated and stray continuation bytes).
package enum StrictUTF8 {
    /// The text the bytes encode, or `nil` when they are not well-formed UTF-8.
    /// - Parameter bytes: The bytes.
    /// - Returns: The decoded text, or `nil`.
    package static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            return String(validating: bytes, as: UTF8.self)
        }
        return decodeWithScalarDecoder(bytes)
    }

    /// The check older Apple systems use: the bytes are first run through the standard library's
    /// `Unicode.UTF8` decoder, which stops at the first ill-formed sequence, then decoded.
    /// Always available, so Linux tests compare it with `String(validating:as:)`.
    /// - Parameter bytes: The bytes.
    /// - Returns: The decoded text, or `nil`.
    package static func decodeWithScalarDecoder<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error: return nil
            }
        }
    }
}
