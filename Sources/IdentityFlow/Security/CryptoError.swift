/// An error thrown by the security primitives: hashing helpers, key derivation, random
/// generation, RSA keys and JSON Web Token decoding.
///
/// Errors are a ``Code`` plus a human-readable reason. Compare ``code`` to decide what happened;
/// the reason is for logs and never contains key material, passwords or token contents.
///
/// ```swift
/// do {
///     _ = try KeyDerivation.pbkdf2SHA256(password: p, salt: s, iterations: 0, keyLength: 32)
/// } catch let error as CryptoError where error.code == .invalidArgument {
///     // reject the configuration
/// }
/// ```
package struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure happened.
    ///
    /// New codes may be added in later versions; switch with a `default` branch.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The stable string identifying the code, such as `"invalidArgument"`.
        package let rawValue: String

        /// Creates a code from its raw string.
        /// - Parameter rawValue: The stable identifier of the code.
        package init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A numeric or size argument is out of its documented range
        /// (for example zero PBKDF2 iterations or a negative byte count).
        package static let invalidArgument = Code(rawValue: "invalidArgument")

        /// An RSA package key is unusable: modulus too small or too large, even modulus,
        /// exponent below 3, even or not smaller than the modulus, or undecodable JWK fields.
        package static let invalidKey = Code(rawValue: "invalidKey")

        /// A compact JSON Web Token is malformed: wrong number of parts, invalid base64url,
        /// or a header or claims set that is not a JSON object.
        package static let malformedToken = Code(rawValue: "malformedToken")

        /// The raw string of the code.
        package var description: String { rawValue }
    }

    /// What kind of failure happened.
    package let code: Code

    /// A human-readable explanation for logs. Never contains secrets.
    package let reason: String

    /// Creates an error.
    /// - Parameters:
    ///   - code: What kind of failure happened.
    ///   - reason: A human-readable explanation without secrets.
    package init(_ code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The code followed by the reason, for logs.
    package var description: String { "CryptoError(\(code.rawValue)): \(reason)" }
}
