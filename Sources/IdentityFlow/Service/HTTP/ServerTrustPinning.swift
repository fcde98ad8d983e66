#if canImport(Security)
import Foundation
import Security

/// Apple platforms: whether a server trust's certificate chain, once it passes the system's
/// evaluation, holds a pinned public key (SHA-256 of the DER `SubjectPublicKeyInfo`, base64).
///
/// `SecKeyCopyExternalRepresentation` gives the key without its `SubjectPublicKeyInfo` wrapper;
/// the wrapper's DER prefix for the key's type and size (``SubjectPublicKeyInfoHeader``, tested on
/// Linux) is put back in front before hashing, as TrustKit does. Keys of other types and sizes
/// never match.
///
/// Not built on Linux (no Security framework; the Linux path is ``PinnedTLSTransfer``): compiled
/// for iOS by `scripts/check-ios.sh`, never run.
enum ServerTrustPinning {
    /// Whether the chain is valid for the system and some certificate of it has one of `pins`.
    static func chainHoldsPinnedKey(_ trust: SecTrust, pins: Set<String>) -> Bool {
        guard SecTrustEvaluateWithError(trust, nil), let chain = SecTrustCopyCertificateChain(trust) as? [SecCertificate] else { return false }
        return chain.contains { certificate in
            guard let key = SecCertificateCopyKey(certificate), let spki = subjectPublicKeyInfo(of: key) else { return false }
            return pins.contains(Data(Hashing.sha256(spki)).base64EncodedString())
        }
    }

    /// The DER `SubjectPublicKeyInfo` of an RSA (2048, 3072, 4096) or EC (P-256, P-384, P-521) key.
    private static func subjectPublicKeyInfo(of key: SecKey) -> Data? {
        guard let attributes = SecKeyCopyAttributes(key) as? [CFString: Any], let type = attributes[kSecAttrKeyType] as? String,
            let size = attributes[kSecAttrKeySizeInBits] as? Int, let raw = SecKeyCopyExternalRepresentation(key, nil) as Data?
        else { return nil }
        // `kSecAttrKeyType…` are CFStrings: compared as Strings, not matched as type-casting patterns.
        let algorithm: SubjectPublicKeyInfoHeader.Algorithm
        if type == kSecAttrKeyTypeRSA as String {
            algorithm = .rsa
        } else if type == kSecAttrKeyTypeECSECPrimeRandom as String {
            algorithm = .ellipticCurve
        } else {
            return nil
        }
        return SubjectPublicKeyInfoHeader.prefix(for: algorithm, bits: size).map { Data($0) + raw }
    }
}
#endif
