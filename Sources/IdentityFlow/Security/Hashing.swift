import Foundation

#if canImport(CryptoKit)
import CryptoKit
#endif

/// Cryptographic hash functions and message authentication codes.
///
/// Uses CryptoKit where it is available and the FIPS 180-4 C engines of CIdentityFlowCrypto
/// elsewhere (Linux). Both produce identical results.
///
/// ```swift
/// let digest = Hashing.sha256("abc")                      // 32 bytes
/// let long = Hashing.sha512(Array("abc".utf8))            // 64 bytes
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

    // MARK: - SHA-384 and SHA-512

    /// Computes the SHA-384 digest (FIPS 180-4) of a byte sequence.
    /// - Parameter bytes: The message.
    /// - Returns: The 48-byte digest.
    package static func sha384(_ bytes: some Collection<UInt8>) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(CryptoKit.SHA384.hash(data: Array(bytes)))
        #else
        return SHA512.hash(bytes, variant: .sha384)
        #endif
    }

    /// Computes the SHA-512 digest (FIPS 180-4) of a byte sequence.
    /// - Parameter bytes: The message.
    /// - Returns: The 64-byte digest.
    package static func sha512(_ bytes: some Collection<UInt8>) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(CryptoKit.SHA512.hash(data: Array(bytes)))
        #else
        return SHA512.hash(bytes)
        #endif
    }

    /// A SHA-2 hash function, as a JSON Web Signature algorithm names it (`RS256`, `RS384`,
    /// `RS512`, `PS256`, `PS384`, `PS512`, `ES256`, `ES384`, `ES512`): signatures and `at_hash`
    /// follow the token's choice.
    package enum Function: Sendable, Equatable {
        case sha256, sha384, sha512

        /// The digest's length in bytes (`hLen` in RFC 8017): 32, 48 or 64.
        package var byteCount: Int {
            switch self {
            case .sha256: 32
            case .sha384: 48
            case .sha512: 64
            }
        }

        /// Hashes a message with this function.
        /// - Parameter bytes: The message.
        /// - Returns: The 32-, 48- or 64-byte digest.
        package func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
            switch self {
            case .sha256: Hashing.sha256(bytes)
            case .sha384: Hashing.sha384(bytes)
            case .sha512: Hashing.sha512(bytes)
            }
        }
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
