import Foundation

#if canImport(CryptoKit)
import CryptoKit
#endif

/// A key the device's hardware holds and never hands out (on Apple platforms a Secure Enclave
/// P-256 key): a device-mode vault mixes a secret only it can compute into the PIN key, so a copy
/// of the storage cannot be searched for the PIN anywhere but on this device
/// (`docs/device-authenticators.md`).
protocol HardwareKey: Sendable {
    /// A new hardware key for `profile`, as what the vault stores to reach it again.
    func newBinding(for profile: UserProfile) throws(IdentityFlowError) -> HardwareBinding
    /// The secret the hardware computes for `binding`; the same every time on this device.
    /// - Throws: ``ErrorCode/sealedDataInvalid`` when this device's hardware cannot use it.
    func secret(for binding: HardwareBinding) throws(IdentityFlowError) -> Redacted<[UInt8]>
}

/// How a vault reaches its hardware key: the key's opaque handle (a Secure Enclave key's data
/// representation, usable by that enclave only), the public half of the key agreement's peer,
/// and a check value of the secret.
struct HardwareBinding: Sendable, Hashable, Decodable {
    var keyBlob: [UInt8]
    var peerPublicKey: [UInt8]
    var check: [UInt8] = []
}

extension HardwareBinding {
    private enum CodingKeys: String, CodingKey {
        case keyBlob, peerPublicKey, check
    }

    /// Reads a stored binding, its fields in base64 or as the arrays earlier versions wrote.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        keyBlob = try container.decodeBytes(forKey: .keyBlob)
        peerPublicKey = try container.decodeBytes(forKey: .peerPublicKey)
        check = try container.decodeBytesIfPresent(forKey: .check) ?? []
    }
}

enum HardwareKeys {
    /// The hardware key a client uses by default: the Secure Enclave where the platform has one,
    /// none elsewhere (Linux; then the PIN key rests on the PIN and the device secret alone).
    static var platformDefault: (any HardwareKey)? {
        #if canImport(CryptoKit) && !os(Linux)
        if SecureEnclave.isAvailable { return SecureEnclaveKey() }
        #endif
        return nil
    }
}

#if canImport(CryptoKit) && !os(Linux)
/// The Secure Enclave as a ``HardwareKey``: a P-256 key agreement key created in the enclave,
/// whose shared secret with a throwaway peer key only this enclave can compute again.
///
/// - Important: Not compiled or run on this project's Linux CI; kept to this one type.
struct SecureEnclaveKey: HardwareKey {
    func newBinding(for profile: UserProfile) throws(IdentityFlowError) -> HardwareBinding {
        do {
            let key = try SecureEnclave.P256.KeyAgreement.PrivateKey()
            let peer = P256.KeyAgreement.PrivateKey()
            return HardwareBinding(keyBlob: Array(key.dataRepresentation), peerPublicKey: Array(peer.publicKey.x963Representation))
        } catch {
            throw IdentityFlowError(.dataStorageNotAvailable, "The Secure Enclave could not create a key.", underlying: error)
        }
    }

    func secret(for binding: HardwareBinding) throws(IdentityFlowError) -> Redacted<[UInt8]> {
        do {
            let key = try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: Data(binding.keyBlob))
            let shared = try key.sharedSecretFromKeyAgreement(with: P256.KeyAgreement.PublicKey(x963Representation: binding.peerPublicKey))
            return Redacted(shared.withUnsafeBytes { Array($0) })
        } catch {
            throw IdentityFlowError(.sealedDataInvalid, "This device's Secure Enclave cannot use the profile's hardware key.", underlying: error)
        }
    }
}
#endif
