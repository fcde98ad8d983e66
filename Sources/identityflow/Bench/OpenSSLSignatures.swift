import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rest of libcrypto the crypto rows compare against: SHA-384/512 and ECDSA on P-256,
/// P-384 and P-521 through the `EC_KEY` API (deprecated in OpenSSL 3 but present, and the
/// shortest path to a raw ECDSA operation), opened from the same library as ``OpenSSLLibrary``.
// @unchecked Sendable is safe for the reason OpenSSLLibrary's is: `let` C function pointers of a
// library that stays loaded.
struct OpenSSLSignatures: @unchecked Sendable {
    typealias HashFunction = @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?
    typealias KeyByCurveFunction = @convention(c) (Int32) -> OpaquePointer?
    typealias SetCoordinatesFunction = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    typealias SetBignumFunction = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    typealias GroupFunction = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias PointMultiplyFunction = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    typealias PointToBytesFunction = @convention(c) (OpaquePointer?, OpaquePointer?, Int32, UnsafeMutablePointer<UInt8>?, Int, OpaquePointer?) -> Int
    typealias SetPointFunction = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    typealias VerifyFunction = @convention(c) (UnsafePointer<UInt8>?, Int32, OpaquePointer?, OpaquePointer?) -> Int32
    typealias SignFunction = @convention(c) (UnsafePointer<UInt8>?, Int32, OpaquePointer?) -> OpaquePointer?
    typealias NewFunction = @convention(c) () -> OpaquePointer?
    typealias FreeFunction = @convention(c) (OpaquePointer?) -> Void
    typealias SignatureSetFunction = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    typealias BinToBNFunction = @convention(c) (UnsafePointer<UInt8>?, Int32, OpaquePointer?) -> OpaquePointer?

    /// OpenSSL's NIDs of the three curves.
    static let p256NID: Int32 = 415, p384NID: Int32 = 715, p521NID: Int32 = 716
    /// `POINT_CONVERSION_UNCOMPRESSED`.
    static let uncompressed: Int32 = 4

    let sha384: HashFunction
    let sha512: HashFunction
    let keyByCurve: KeyByCurveFunction
    let setPublicCoordinates: SetCoordinatesFunction
    let setPrivateKey: SetBignumFunction
    let group: GroupFunction
    let pointNew: GroupFunction
    let pointMultiply: PointMultiplyFunction
    let pointToBytes: PointToBytesFunction
    let setPublicPoint: SetPointFunction
    let verify: VerifyFunction
    let sign: SignFunction
    let signatureNew: NewFunction
    let signatureFree: FreeFunction
    let signatureSet: SignatureSetFunction
    let binToBN: BinToBNFunction
    let contextNew: NewFunction

    /// The functions from the library ``OpenSSLLibrary`` opened, or `nil` without one of them.
    static let shared: OpenSSLSignatures? = OpenSSLLibrary.shared.flatMap { open($0.name) }

    private static func open(_ name: String) -> OpenSSLSignatures? {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { return nil }
        func symbol<T>(_ symbolName: String, as type: T.Type) -> T? {
            dlsym(handle, symbolName).map { unsafeBitCast($0, to: type) }
        }
        guard let sha384 = symbol("SHA384", as: HashFunction.self), let sha512 = symbol("SHA512", as: HashFunction.self),
            let keyByCurve = symbol("EC_KEY_new_by_curve_name", as: KeyByCurveFunction.self),
            let setPublicCoordinates = symbol("EC_KEY_set_public_key_affine_coordinates", as: SetCoordinatesFunction.self),
            let setPrivateKey = symbol("EC_KEY_set_private_key", as: SetBignumFunction.self),
            let group = symbol("EC_KEY_get0_group", as: GroupFunction.self), let pointNew = symbol("EC_POINT_new", as: GroupFunction.self),
            let pointMultiply = symbol("EC_POINT_mul", as: PointMultiplyFunction.self),
            let pointToBytes = symbol("EC_POINT_point2oct", as: PointToBytesFunction.self),
            let setPublicPoint = symbol("EC_KEY_set_public_key", as: SetPointFunction.self),
            let verify = symbol("ECDSA_do_verify", as: VerifyFunction.self), let sign = symbol("ECDSA_do_sign", as: SignFunction.self),
            let signatureNew = symbol("ECDSA_SIG_new", as: NewFunction.self), let signatureFree = symbol("ECDSA_SIG_free", as: FreeFunction.self),
            let signatureSet = symbol("ECDSA_SIG_set0", as: SignatureSetFunction.self),
            let binToBN = symbol("BN_bin2bn", as: BinToBNFunction.self), let contextNew = symbol("BN_CTX_new", as: NewFunction.self)
        else { return nil }
        return OpenSSLSignatures(
            sha384: sha384, sha512: sha512, keyByCurve: keyByCurve, setPublicCoordinates: setPublicCoordinates, setPrivateKey: setPrivateKey,
            group: group, pointNew: pointNew, pointMultiply: pointMultiply, pointToBytes: pointToBytes, setPublicPoint: setPublicPoint,
            verify: verify, sign: sign, signatureNew: signatureNew, signatureFree: signatureFree, signatureSet: signatureSet,
            binToBN: binToBN, contextNew: contextNew)
    }

    /// A big number of the unsigned big-endian bytes (never freed: a few per bench run).
    func bignum(_ bytes: [UInt8]) -> OpaquePointer? {
        bytes.withUnsafeBufferPointer { binToBN($0.baseAddress, Int32($0.count), nil) }
    }

    /// An `EC_KEY` holding the public point (x, y) on the curve `nid`.
    func publicKey(nid: Int32, x: [UInt8], y: [UInt8]) -> OpaquePointer? {
        let key = keyByCurve(nid)
        return setPublicCoordinates(key, bignum(x), bignum(y)) == 1 ? key : nil
    }

    /// An `EC_KEY` holding a private scalar and its public point, on the curve `nid`.
    func privateKey(nid: Int32, scalar: [UInt8]) -> OpaquePointer? {
        let key = keyByCurve(nid), d = bignum(scalar), point = pointNew(group(key))
        guard setPrivateKey(key, d) == 1, pointMultiply(group(key), point, d, nil, nil, contextNew()) == 1,
            setPublicPoint(key, point) == 1
        else { return nil }
        return key
    }

    /// An `ECDSA_SIG` of `r ‖ s` (two halves of equal length).
    func signature(_ bytes: [UInt8]) -> OpaquePointer? {
        let half = bytes.count / 2
        let signature = signatureNew()
        return signatureSet(signature, bignum(Array(bytes[..<half])), bignum(Array(bytes[half...]))) == 1 ? signature : nil
    }
}
