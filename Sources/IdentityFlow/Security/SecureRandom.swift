#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Cryptographically secure random bytes and tokens from the system generator.
///
/// Each call fills its whole buffer from the system's CSPRNG in as few calls as it allows:
/// `getentropy(3)` on Linux (one `getrandom(2)` system call per 256 bytes, retried on `EINTR`),
/// `arc4random_buf` on Apple platforms, and `SystemRandomNumberGenerator` elsewhere or where
/// `getrandom` is unavailable.
///
/// ```swift
/// let state = try SecureRandom.token()        // 43 base64url characters, 256 bits
/// let nonce = try SecureRandom.bytes(count: 16)
/// ```
package enum SecureRandom {
    /// Returns random bytes.
    /// - Parameter count: The number of bytes, zero or more.
    /// - Returns: `count` bytes from the system's secure generator.
    /// - Throws: ``CryptoError`` with code ``CryptoError/Code/invalidArgument`` when `count` is negative.
    package static func bytes(count: Int) throws -> [UInt8] {
        guard count >= 0 else {
            throw CryptoError(.invalidArgument, reason: "random byte count must not be negative, got \(count)")
        }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            fill(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
            initializedCount = count
        }
    }

    /// Returns a random token encoded as base64url without padding (RFC 4648 §5), suitable
    /// for OAuth `state`, OpenID Connect `nonce` and similar unguessable values.
    /// - Parameter byteCount: The number of random bytes (entropy) in the token, at least 1.
    ///   The default of 32 bytes gives 256 bits and a 43-character token.
    /// - Returns: The token, `⌈byteCount × 4 / 3⌉` characters from `A–Z a–z 0–9 - _`.
    /// - Throws: ``CryptoError`` with code ``CryptoError/Code/invalidArgument`` when `byteCount` is below 1.
    package static func token(byteCount: Int = 32) throws -> String {
        guard byteCount >= 1 else {
            throw CryptoError(.invalidArgument, reason: "token needs at least one random byte, got \(byteCount)")
        }
        return Base64URL.encode(try bytes(count: byteCount))
    }

    /// Fills every byte of `buffer` from the system's secure generator.
    private static func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        #if canImport(Darwin)
        arc4random_buf(base, buffer.count)
        #elseif canImport(Glibc) || canImport(Musl)
        var filled = 0
        while filled < buffer.count {
            let chunk = min(maximumEntropyRequest, buffer.count - filled)
            guard getentropy(base + filled, chunk) == 0 else {
                // No getrandom system call (old kernel, sandbox): the standard library falls back to /dev/urandom.
                fillFromSystemGenerator(UnsafeMutableBufferPointer(rebasing: buffer[filled...]))
                return
            }
            filled += chunk
        }
        #else
        fillFromSystemGenerator(buffer)
        #endif
    }

    #if !canImport(Darwin)
    /// The most `getentropy` hands out in one call.
    private static let maximumEntropyRequest = 256

    /// Fills `buffer` from `SystemRandomNumberGenerator`, eight bytes per draw.
    private static func fillFromSystemGenerator(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        var generator = SystemRandomNumberGenerator()
        var index = 0
        while index < buffer.count {
            var word: UInt64 = generator.next()
            for _ in 0..<min(8, buffer.count - index) {
                buffer[index] = UInt8(truncatingIfNeeded: word)
                word >>= 8
                index += 1
            }
        }
    }
    #endif
}
