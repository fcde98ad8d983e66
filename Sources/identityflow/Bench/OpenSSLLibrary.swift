import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// OpenSSL's libcrypto, opened at run time when the machine has it (never a build dependency),
/// for the crypto rows' same-process comparison.
// @unchecked Sendable is safe: every stored property is a `let` (a name and C function pointers
// resolved once by `dlopen`/`dlsym`); the pointers are plain code addresses with no Swift state,
// and the library stays loaded for the life of the process, so any thread may call them.
struct OpenSSLLibrary: @unchecked Sendable {
    typealias SHA256Function = @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?
    typealias DigestFunction = @convention(c) () -> OpaquePointer?
    typealias HMACFunction =
        @convention(c) (
            OpaquePointer?, UnsafeRawPointer?, Int32, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?
        ) -> UnsafeMutablePointer<UInt8>?
    typealias PBKDF2Function =
        @convention(c) (
            UnsafePointer<CChar>?, Int32, UnsafePointer<UInt8>?, Int32, Int32, OpaquePointer?, Int32, UnsafeMutablePointer<UInt8>?
        ) -> Int32
    typealias BinToBNFunction = @convention(c) (UnsafePointer<UInt8>?, Int32, OpaquePointer?) -> OpaquePointer?
    typealias RSANewFunction = @convention(c) () -> OpaquePointer?
    typealias RSASetKeyFunction = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    typealias RSAVerifyFunction =
        @convention(c) (
            Int32, UnsafePointer<UInt8>?, UInt32, UnsafePointer<UInt8>?, UInt32, OpaquePointer?
        ) -> Int32

    /// The file that was opened, e.g. `libcrypto.so.3`.
    let name: String
    let sha256: SHA256Function
    let evpSHA256: DigestFunction
    let hmac: HMACFunction
    let pbkdf2: PBKDF2Function
    let binToBN: BinToBNFunction
    let rsaNew: RSANewFunction
    let rsaSetKey: RSASetKeyFunction
    let rsaVerify: RSAVerifyFunction

    /// The NID of SHA-256 in OpenSSL's object table.
    static let sha256NID: Int32 = 672

    /// Opens the first libcrypto found, or `nil` when none is (the rows then say so).
    static let shared: OpenSSLLibrary? = open()

    private static func open() -> OpenSSLLibrary? {
        for name in ["libcrypto.so.3", "libcrypto.so", "libcrypto.3.dylib", "libcrypto.dylib"] {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            func symbol<T>(_ symbolName: String, as type: T.Type) -> T? {
                dlsym(handle, symbolName).map { unsafeBitCast($0, to: type) }
            }
            guard let sha256 = symbol("SHA256", as: SHA256Function.self),
                let evpSHA256 = symbol("EVP_sha256", as: DigestFunction.self),
                let hmac = symbol("HMAC", as: HMACFunction.self),
                let pbkdf2 = symbol("PKCS5_PBKDF2_HMAC", as: PBKDF2Function.self),
                let binToBN = symbol("BN_bin2bn", as: BinToBNFunction.self),
                let rsaNew = symbol("RSA_new", as: RSANewFunction.self),
                let rsaSetKey = symbol("RSA_set0_key", as: RSASetKeyFunction.self),
                let rsaVerify = symbol("RSA_verify", as: RSAVerifyFunction.self)
            else {
                dlclose(handle)
                continue
            }
            return OpenSSLLibrary(
                name: name, sha256: sha256, evpSHA256: evpSHA256, hmac: hmac, pbkdf2: pbkdf2,
                binToBN: binToBN, rsaNew: rsaNew, rsaSetKey: rsaSetKey, rsaVerify: rsaVerify)
        }
        return nil
    }

    /// An OpenSSL `RSA *` holding a public key (never freed: one per bench run).
    func publicKey(modulus: [UInt8], exponent: [UInt8]) -> OpaquePointer? {
        let rsa = rsaNew()
        let n = modulus.withUnsafeBufferPointer { binToBN($0.baseAddress, Int32($0.count), nil) }
        let e = exponent.withUnsafeBufferPointer { binToBN($0.baseAddress, Int32($0.count), nil) }
        return rsaSetKey(rsa, n, e, nil) == 1 ? rsa : nil
    }
}
