import CIdentityFlowCrypto

/// SHA-512 and SHA-384 (FIPS 180-4 §6.4, §6.5) for ID tokens signed `RS384`, `RS512`, `PS384`,
/// `PS512`, `ES384` or `ES512` and their `at_hash`. The compression and the padding run in the
/// CIdentityFlowCrypto C target (`SHA512.c`, unrolled portable C); a hash allocates nothing but
/// its digest.
struct SHA512 {
    /// The two members of the family: the same compression from different initial values,
    /// SHA-384 keeping the first 48 bytes of the final state.
    enum Variant: Sendable {
        case sha512, sha384

        /// The size of a digest in bytes.
        var digestByteCount: Int {
            switch self {
            case .sha512: 64
            case .sha384: 48
            }
        }
    }

    /// Hashes a message.
    /// - Parameters:
    ///   - bytes: The message.
    ///   - variant: SHA-512 (the default) or SHA-384.
    /// - Returns: The 64-byte (SHA-512) or 48-byte (SHA-384) digest.
    static func hash(_ bytes: some Collection<UInt8>, variant: Variant = .sha512) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ hash($0, variant: variant) }) {
            return digest
        }
        return Array(bytes).withUnsafeBufferPointer { hash($0, variant: variant) }
    }

    /// Hashes contiguous bytes with the C engine.
    private static func hash(_ message: UnsafeBufferPointer<UInt8>, variant: Variant) -> [UInt8] {
        let count = variant.digestByteCount
        return [UInt8](unsafeUninitializedCapacity: count) { digest, initialized in
            _ = ifc_sha512(digest.baseAddress, count, message.baseAddress, message.count)
            initialized = count
        }
    }
}
