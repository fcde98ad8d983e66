import Foundation

#if canImport(CryptoKit)
import CryptoKit
#endif

/// Cryptographic hash functions and message authentication codes.
///
/// Uses CryptoKit where it is available and a pure-Swift FIPS 180-4 implementation elsewhere
/// (Linux). Both produce identical results.
///
/// ```swift
/// let digest = Hashing.sha256("abc")                      // 32 bytes
/// let mac = Hashing.hmacSHA256(key: key, message: body)   // 32 bytes
/// ```
package enum Hashing {
    // MARK: - SHA-256

    /// Computes the SHA-256 digest (FIPS 180-4) of a byte sequence.
    /// - Parameter bytes: The message.
    /// - Returns: The 32-byte digest.
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        #if canImport(CryptoKit)
        if let digest = bytes.withContiguousStorageIfAvailable({ Array(CryptoKit.SHA256.hash(data: UnsafeRawBufferPointer($0))) }) {
            return digest
        }
        return Array(CryptoKit.SHA256.hash(data: Array(bytes)))
        #else
        return SHA256.hash(bytes)
        #endif
    }

    /// Computes the SHA-256 digest (FIPS 180-4) of `Data`.
    /// - Parameter data: The message.
    /// - Returns: The 32-byte digest.
    package static func sha256(_ data: Data) -> [UInt8] {
        sha256(data.withUnsafeBytes { Array($0) })
    }

    /// Computes the SHA-256 digest (FIPS 180-4) of a string's UTF-8 encoding.
    /// - Parameter string: The message; hashed as its UTF-8 bytes without terminator.
    /// - Returns: The 32-byte digest.
    package static func sha256(_ string: String) -> [UInt8] {
        sha256(Array(string.utf8))
    }

    // MARK: - HMAC-SHA256

    /// Computes HMAC-SHA256 (RFC 2104) of a message.
    /// - Parameters:
    ///   - key: The secret key, of any length; keys longer than 64 bytes are hashed first.
    ///   - message: The message to authenticate.
    /// - Returns: The 32-byte authentication code.
    package static func hmacSHA256(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        #if canImport(CryptoKit)
        let code = HMAC<CryptoKit.SHA256>.authenticationCode(for: Array(message), using: SymmetricKey(data: Array(key)))
        return Array(code)
        #else
        return HMACSHA256(key: key).authenticationCode(for: message)
        #endif
    }
}
