/// Cryptographically secure random bytes and tokens from the system generator.
///
/// Backed by `SystemRandomNumberGenerator` (`getrandom(2)` on Linux, `arc4random_buf` on Apple
/// platforms), which is cryptographically secure.
///
/// ```swift
/// let state = try SecureRandom.token()        // 43 base64url characters, 256 bits
/// let nonce = try SecureRandom.bytes(count: 16)
/// ```
public enum SecureRandom {
    /// Returns random bytes.
    /// - Parameter count: The number of bytes, zero or more.
    /// - Returns: `count` bytes from the system's secure generator.
    /// - Throws: ``CryptoError`` with code ``CryptoError/Code/invalidArgument`` when `count` is negative.
    public static func bytes(count: Int) throws -> [UInt8] {
        guard count >= 0 else {
            throw CryptoError(.invalidArgument, reason: "random byte count must not be negative, got \(count)")
        }
        var generator = SystemRandomNumberGenerator()
        var result: [UInt8] = []
        result.reserveCapacity(count)
        while result.count < count {
            var word: UInt64 = generator.next()
            for _ in 0..<min(8, count - result.count) {
                result.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return result
    }

    /// Returns a random token encoded as base64url without padding (RFC 4648 §5), suitable
    /// for OAuth `state`, OpenID Connect `nonce` and similar unguessable values.
    /// - Parameter byteCount: The number of random bytes (entropy) in the token, at least 1.
    ///   The default of 32 bytes gives 256 bits and a 43-character token.
    /// - Returns: The token, `⌈byteCount × 4 / 3⌉` characters from `A–Z a–z 0–9 - _`.
    /// - Throws: ``CryptoError`` with code ``CryptoError/Code/invalidArgument`` when `byteCount` is below 1.
    public static func token(byteCount: Int = 32) throws -> String {
        guard byteCount >= 1 else {
            throw CryptoError(.invalidArgument, reason: "token needs at least one random byte, got \(byteCount)")
        }
        return Base64URL.encode(try bytes(count: byteCount))
    }
}
