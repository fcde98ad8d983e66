import Foundation
#if canImport(CryptoKit) && !os(Linux)
import CryptoKit
#endif

/// What signs a ``DPoPKey``'s proofs: a software key (Linux, and Apple devices without a Secure
/// Enclave) or a Secure Enclave key (behind `#if canImport(CryptoKit)`). Tests fake it.
package protocol DPoPSigner: Sendable {
    /// SEC1 uncompressed P-256 point, 65 bytes.
    var publicKey: [UInt8] { get }
    /// ECDSA P-256 SHA-256 over `message`, raw r‖s (64 bytes).
    /// - Parameter message: The JWS signing input.
    func sign(_ message: [UInt8]) throws(IdentityFlowError) -> [UInt8]
    /// What to store so the same key can be loaded again: the private scalar (software; must
    /// only ever be written sealed in the device vault or in the platform keychain) or the Secure
    /// Enclave's opaque `dataRepresentation`.
    var storedForm: StoredDPoPKey { get }
}

/// A DPoP key held in memory: ``DeviceKey``'s P-256 (the C target's constant-time arithmetic,
/// or CryptoKit where it exists). Used on Linux and on Apple devices without a Secure Enclave.
package struct SoftwareDPoPSigner: DPoPSigner {
    /// The key.
    let key: DeviceKey

    /// A new key from the system's secure generator.
    /// - Throws: ``ErrorCode/unknown`` when the generator fails.
    package static func generate() throws(IdentityFlowError) -> SoftwareDPoPSigner { SoftwareDPoPSigner(key: try DeviceKey.random()) }

    /// The key of a stored private scalar.
    /// - Parameter privateKey: 32 bytes, big-endian, in 1...n-1.
    /// - Throws: ``ErrorCode/sealedDataInvalid`` when the bytes are no P-256 private key.
    package init(privateKey: Redacted<[UInt8]>) throws(IdentityFlowError) {
        guard let key = DeviceKey(privateKey: privateKey) else {
            throw IdentityFlowError(.sealedDataInvalid, "The stored DPoP key is not a P-256 private key.")
        }
        self.key = key
    }

    /// Wraps a device key.
    /// - Parameter key: The key.
    package init(key: DeviceKey) { self.key = key }

    package var publicKey: [UInt8] { key.publicKey }

    package func sign(_ message: [UInt8]) throws(IdentityFlowError) -> [UInt8] { key.sign(message) }

    package var storedForm: StoredDPoPKey { .software(privateKey: key.privateKey) }
}

#if canImport(CryptoKit) && !os(Linux)
/// A DPoP key in the Secure Enclave: created there, never exportable; what is stored is the
/// enclave's opaque `dataRepresentation`, which only this device's enclave can use.
///
/// - Important: Not run on this project's Linux CI; compiled by `scripts/check-ios.sh`.
package struct SecureEnclaveDPoPSigner: DPoPSigner {
    /// The enclave's handle of the key (CryptoKit's key type is not `Sendable`: the key is opened
    /// from its handle for each signature).
    private let dataRepresentation: Redacted<[UInt8]>
    package let publicKey: [UInt8]

    /// Whether this device has a Secure Enclave (not the simulator).
    static var isAvailable: Bool { SecureEnclave.isAvailable }

    /// A new key in the enclave.
    /// - Throws: ``ErrorCode/dataStorageNotAvailable`` when the enclave cannot create one.
    static func generate() throws(IdentityFlowError) -> SecureEnclaveDPoPSigner {
        do {
            let key = try SecureEnclave.P256.Signing.PrivateKey()
            return SecureEnclaveDPoPSigner(
                dataRepresentation: Redacted(Array(key.dataRepresentation)), publicKey: Array(key.publicKey.x963Representation))
        } catch {
            throw IdentityFlowError(.dataStorageNotAvailable, "The Secure Enclave could not create a DPoP key.", underlying: error)
        }
    }

    private init(dataRepresentation: Redacted<[UInt8]>, publicKey: [UInt8]) {
        self.dataRepresentation = dataRepresentation
        self.publicKey = publicKey
    }

    /// The enclave key of a stored handle.
    /// - Parameter dataRepresentation: The handle ``storedForm`` gave.
    /// - Throws: ``ErrorCode/sealedDataInvalid`` when this device's enclave cannot use it.
    init(dataRepresentation: Redacted<[UInt8]>) throws(IdentityFlowError) {
        let key = try Self.open(dataRepresentation)
        self.init(dataRepresentation: dataRepresentation, publicKey: Array(key.publicKey.x963Representation))
    }

    private static func open(_ dataRepresentation: Redacted<[UInt8]>) throws(IdentityFlowError) -> SecureEnclave.P256.Signing.PrivateKey {
        do { return try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(dataRepresentation.value)) } catch {
            throw IdentityFlowError(.sealedDataInvalid, "This device's Secure Enclave cannot use the profile's DPoP key.", underlying: error)
        }
    }

    package func sign(_ message: [UInt8]) throws(IdentityFlowError) -> [UInt8] {
        let key = try Self.open(dataRepresentation)
        do { return Array(try key.signature(for: Data(message)).rawRepresentation) } catch {
            throw IdentityFlowError(.dataStorageNotAvailable, "The Secure Enclave refused to sign a DPoP proof.", underlying: error)
        }
    }

    package var storedForm: StoredDPoPKey { .secureEnclave(dataRepresentation: dataRepresentation) }
}
#endif
