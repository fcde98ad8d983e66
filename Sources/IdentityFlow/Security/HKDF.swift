/// HKDF with HMAC-SHA256 (RFC 5869): extract a pseudorandom key from input key material and a
/// salt, then expand it with `info` to the length asked for.
package enum HKDF {
    /// `HKDF-Expand(HKDF-Extract(salt, ikm), info, length)`.
    /// - Parameters:
    ///   - inputKeyMaterial: The input key material.
    ///   - salt: The salt (an empty salt means 32 zero bytes, as RFC 5869 says).
    ///   - info: Context and application information.
    ///   - outputLength: Bytes to produce, at most 255 × 32.
    /// - Returns: The output key material.
    package static func sha256(inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], outputLength: Int) -> [UInt8] {
        precondition((0...255 * 32).contains(outputLength), "HKDF-SHA256 output is at most 8160 bytes")
        let pseudorandomKey = Hashing.hmacSHA256(key: salt.isEmpty ? [UInt8](repeating: 0, count: 32) : salt, message: inputKeyMaterial)
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < outputLength {
            block = Hashing.hmacSHA256(key: pseudorandomKey, message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(outputLength))
    }
}
