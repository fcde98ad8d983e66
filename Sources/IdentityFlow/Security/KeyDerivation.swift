/// Password-based key derivation.
///
/// ```swift
/// let key = try KeyDerivation.pbkdf2SHA256(
///     password: Array("correct horse".utf8), salt: salt, iterations: 600_000, keyLength: 32)
/// ```
package enum KeyDerivation {
    /// The largest derived key PBKDF2-HMAC-SHA256 allows: (2³² − 1) blocks of 32 bytes (RFC 8018 §5.2),
    /// or `Int.max` where `Int` is smaller.
    package static let maximumPBKDF2KeyLength = Int(exactly: UInt64(UInt32.max) * UInt64(SHA256.digestByteCount)) ?? Int.max

    /// Derives a key with PBKDF2 using HMAC-SHA256 as the pseudorandom function (RFC 8018 §5.2).
    ///
    /// The HMAC inner and outer padded states are computed once per derivation, so each
    /// iteration costs two SHA-256 compressions.
    /// - Parameters:
    ///   - password: The password bytes (typically UTF-8), used as the HMAC key.
    ///   - salt: The salt.
    ///   - iterations: The iteration count `c`, at least 1.
    ///   - keyLength: The derived key length `dkLen` in bytes, from 1 to ``maximumPBKDF2KeyLength``.
    /// - Returns: The derived key of `keyLength` bytes.
    /// - Throws: ``CryptoError`` with code ``CryptoError/Code/invalidArgument`` when `iterations`
    ///   or `keyLength` is out of range.
    package static func pbkdf2SHA256(
        password: some Collection<UInt8>,
        salt: some Collection<UInt8>,
        iterations: Int,
        keyLength: Int
    ) throws -> [UInt8] {
        guard iterations >= 1 else {
            throw CryptoError(.invalidArgument, reason: "PBKDF2 needs at least one iteration, got \(iterations)")
        }
        guard (1...maximumPBKDF2KeyLength).contains(keyLength) else {
            throw CryptoError(.invalidArgument, reason: "PBKDF2 key length \(keyLength) is out of range")
        }
        return pbkdf2SHA256(password: password, salt: salt, iterations: iterations, keyLength: keyLength, engine: .fastest)
    }

    /// PBKDF2-HMAC-SHA256 with a chosen SHA-256 engine; the arguments are already validated.
    static func pbkdf2SHA256(
        password: some Collection<UInt8>,
        salt: some Collection<UInt8>,
        iterations: Int,
        keyLength: Int,
        engine: SHA256.Engine
    ) -> [UInt8] {
        let prf = HMACSHA256(key: password)
        var blockInput = Array(salt)
        let saltCount = blockInput.count
        var derived: [UInt8] = []
        derived.reserveCapacity(keyLength)
        var blockIndex: UInt32 = 1
        while derived.count < keyLength {
            // U1 = PRF(P, S || INT(i)); Uj = PRF(P, Uj-1); T = U1 ^ ... ^ Uc.
            blockInput.removeSubrange(saltCount...)
            withUnsafeBytes(of: blockIndex.bigEndian) { blockInput.append(contentsOf: $0) }
            var u = prf.authenticationState(for: blockInput, engine: engine)
            var t = u
            prf.iterate(u: &u, t: &t, count: iterations - 1, engine: engine)
            derived.append(contentsOf: t.bytes.prefix(keyLength - derived.count))
            blockIndex &+= 1
        }
        return derived
    }
}
