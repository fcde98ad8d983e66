#if canImport(Security)
import Foundation
import Security

/// Apple platforms: whether a server trust's certificate chain, once it passes the system's
/// evaluation, holds a pinned public key (SHA-256 of the DER `SubjectPublicKeyInfo`, base64).
///
/// `SecKeyCopyExternalRepresentation` gives the key without its `SubjectPublicKeyInfo` wrapper;
/// the wrapper's DER prefix for the key's type and size is put back in front before hashing, as
/// TrustKit does. Keys of other types and sizes never match.
///
/// Not built or run on Linux (no Security framework); the Linux path is ``PinnedTLSTransfer``.
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
        let header: [UInt8]?
        switch (type, size) {
        case (kSecAttrKeyTypeRSA as String, 2048):
            header = [
                0x30, 0x82, 0x01, 0x22, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x03, 0x82, 0x01, 0x0f, 0x00,
            ]
        case (kSecAttrKeyTypeRSA as String, 3072):
            header = [
                0x30, 0x82, 0x01, 0xa2, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x03, 0x82, 0x01, 0x8f, 0x00,
            ]
        case (kSecAttrKeyTypeRSA as String, 4096):
            header = [
                0x30, 0x82, 0x02, 0x22, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x03, 0x82, 0x02, 0x0f, 0x00,
            ]
        case (kSecAttrKeyTypeECSECPrimeRandom as String, 256):
            header = [
                0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03,
                0x42, 0x00,
            ]
        case (kSecAttrKeyTypeECSECPrimeRandom as String, 384):
            header = [0x30, 0x76, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22, 0x03, 0x62, 0x00]
        case (kSecAttrKeyTypeECSECPrimeRandom as String, 521):
            header = [
                0x30, 0x81, 0x9b, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x23, 0x03, 0x81, 0x86,
                0x00,
            ]
        default:
            header = nil
        }
        return header.map { Data($0) + raw }
    }
}
#endif
