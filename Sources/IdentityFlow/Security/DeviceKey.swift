import CIdentityFlowCrypto
#if canImport(CryptoKit)
import CryptoKit
import Foundation
#endif

/// A P-256 signing key of this device (`docs/pin-proof.md`): the PIN key, derived from the PIN
/// and the device secret, or the biometric key, drawn at random. ECDSA-P256-SHA256 with
/// deterministic nonces (RFC 6979) and low `s`; signatures are raw `r ‖ s` (64 bytes), public
/// keys SEC1 uncompressed points (65 bytes). The arithmetic is `CIdentityFlowCrypto`'s P256.c,
/// constant time wherever the private scalar or the nonce is involved; where CryptoKit exists
/// (Apple platforms) it signs and verifies instead (its signatures use random nonces, which any
/// verifier accepts alike).
package struct DeviceKey: Sendable, Hashable {
    /// How many bytes of key material become a private scalar (64 bits over the group order's
    /// 256, so that the reduction has no usable bias: FIPS 186-5 A.2.1).
    package static let keyMaterialLength = 48

    /// The private scalar, 32 bytes big-endian, in 1...n-1.
    package let privateKey: Redacted<[UInt8]>
    /// The public key, SEC1 uncompressed.
    package let publicKey: [UInt8]

    /// The key whose scalar is `material` reduced mod (n − 1), plus 1.
    /// - Parameter material: At least ``keyMaterialLength`` bytes of key material.
    package init(keyMaterial material: [UInt8]) {
        precondition(material.count >= Self.keyMaterialLength, "P-256 key material must be at least 48 bytes")
        var scalar = [UInt8](repeating: 0, count: 32)
        _ = ifc_p256_scalar_from_material(&scalar, material, material.count)
        // A scalar in 1...n-1 by construction, so the public key exists.
        self.init(validScalar: scalar)
    }

    /// The key of a stored private scalar, or `nil` when it is not one (not 32 bytes, zero, or not below n).
    /// - Parameter privateKey: The scalar.
    package init?(privateKey: Redacted<[UInt8]>) {
        guard privateKey.value.count == 32, ifc_p256_valid_scalar(privateKey.value) == 1 else { return nil }
        self.init(validScalar: privateKey.value)
    }

    private init(validScalar scalar: [UInt8]) {
        var publicKey = [UInt8](repeating: 0, count: 65)
        _ = ifc_p256_public_key(&publicKey, scalar)
        self.privateKey = Redacted(scalar)
        self.publicKey = publicKey
    }

    /// A key drawn from the system's secure generator.
    /// - Throws: ``ErrorCode/unknown`` if the generator fails.
    package static func random() throws(IdentityFlowError) -> DeviceKey {
        DeviceKey(keyMaterial: try PinProof.randomBytes(keyMaterialLength))
    }

    /// The ECDSA signature of `message` (hashed with SHA-256), `r ‖ s`.
    /// - Parameter message: The bytes to sign.
    /// - Returns: 64 bytes.
    package func sign(_ message: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
        if let key = try? P256.Signing.PrivateKey(rawRepresentation: privateKey.value),
            let signature = try? key.signature(for: Data(message))
        {
            return Array(signature.rawRepresentation)
        }
        #endif
        let digest = Hashing.sha256(message)
        var signature = [UInt8](repeating: 0, count: 64)
        // RFC 6979's nonce and the signature, both in C (P256Nonce.c); the scalar is valid by construction.
        _ = ifc_p256_sign_deterministic(&signature, digest, privateKey.value)
        return signature
    }

    /// Whether `signature` (`r ‖ s`) is a valid signature of `message` by `publicKey`.
    /// - Parameters:
    ///   - signature: 64 bytes.
    ///   - message: The signed bytes.
    ///   - publicKey: A SEC1 uncompressed point.
    /// - Returns: `false` as well for a malformed signature or key.
    package static func verify(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, publicKey.count == 65 else { return false }
        #if canImport(CryptoKit)
        if let key = try? P256.Signing.PublicKey(x963Representation: publicKey),
            let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
        {
            return key.isValidSignature(parsed, for: Data(message))
        }
        #endif
        return ifc_p256_verify(signature, Hashing.sha256(message), publicKey) == 1
    }

    /// Whether `publicKey` is a SEC1 uncompressed point on P-256.
    package static func isValidPublicKey(_ publicKey: [UInt8]) -> Bool {
        publicKey.count == 65 && ifc_p256_valid_public_key(publicKey) == 1
    }

    /// Whether `signature` is 64 bytes with `r` and `s` in 1...n-1.
    package static func isWellFormedSignature(_ signature: [UInt8]) -> Bool {
        signature.count == 64 && ifc_p256_valid_signature_encoding(signature) == 1
    }
}
