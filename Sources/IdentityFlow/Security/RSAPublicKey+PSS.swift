extension RSAPublicKey {
    /// EMSA-PSS-VERIFY (RFC 8017 §9.1.2) as JWS `PS256`, `PS384` and `PS512` fix it (RFC 7518
    /// §3.5): MGF1 over `hash`, the message's hash, and a salt of exactly `hash`'s length, so a
    /// signature made with another salt length or MGF1 hash is inconsistent.
    ///
    /// `emBits` is modBits − 1, so that an encoding is smaller than the modulus. When modBits is
    /// not 1 more than a multiple of 8, the leftmost octet of `EM` has unused high bits (one for a
    /// 2048-bit modulus, seven for a 2050-bit one) that a signer must leave at zero (step 6) and
    /// that the mask covers but `DB` does not use (step 9); when it is (2049 bits), `EM` is one
    /// octet shorter than the signature.
    /// - Parameters:
    ///   - encoded: `EM`, ⌈`emBits` / 8⌉ octets.
    ///   - message: `M`, the signed message.
    ///   - emBits: The maximal bit length of `EM`: modBits − 1.
    ///   - hash: The hash of the message and of MGF1; its length is also the salt's.
    /// - Returns: `true` for "consistent".
    static func isPSSEncoding(_ encoded: [UInt8], of message: some Collection<UInt8>, emBits: Int, hash: Hashing.Function) -> Bool {
        let emLen = encoded.count, hLen = hash.byteCount, sLen = hash.byteCount
        // emLen = ⌈emBits / 8⌉ (§9.1.2's input), so that 0...7 bits of EM's first octet are unused.
        guard emLen == (emBits + 7) / 8 else { return false }
        // Step 1: SHA-2's input limit (2^61 − 1 octets or more) is beyond any message here.
        // Step 2: mHash = Hash(M).
        let mHash = hash.hash(message)
        // Step 3: emLen ≥ hLen + sLen + 2 (always true from a 2048-bit modulus: 256 ≥ 2 · 64 + 2).
        guard emLen >= hLen + sLen + 2 else { return false }
        // Step 4: the rightmost octet of EM is 0xbc.
        guard encoded[emLen - 1] == 0xbc else { return false }
        // Step 5: maskedDB is the leftmost emLen − hLen − 1 octets of EM, H the next hLen octets.
        let dbLen = emLen - hLen - 1
        let maskedDB = encoded[0..<dbLen]
        let h = Array(encoded[dbLen..<(emLen - 1)])
        // Step 6: the leftmost 8·emLen − emBits bits of maskedDB's leftmost octet are zero.
        let usedBits = UInt8(0xFF >> (8 * emLen - emBits))
        guard maskedDB[0] & ~usedBits == 0 else { return false }
        // Steps 7-8: DB = maskedDB ⊕ MGF1(H, emLen − hLen − 1).
        var db = zip(maskedDB, mgf1(seed: h, length: dbLen, hash: hash)).map { $0 ^ $1 }
        // Step 9: set the leftmost 8·emLen − emBits bits of DB's leftmost octet to zero.
        db[0] &= usedBits
        // Step 10: the emLen − hLen − sLen − 2 leftmost octets of DB are zero, and the octet at
        // position emLen − hLen − sLen − 1 (counting from 1) is 0x01.
        let zeroCount = emLen - hLen - sLen - 2
        guard db[0..<zeroCount].allSatisfy({ $0 == 0 }), db[zeroCount] == 0x01 else { return false }
        // Step 11: the salt is the last sLen octets of DB.
        let salt = db[(dbLen - sLen)...]
        // Steps 12-13: H' = Hash(M'), M' = 00 00 00 00 00 00 00 00 ‖ mHash ‖ salt.
        let hPrime = hash.hash([UInt8](repeating: 0, count: 8) + mHash + salt)
        // Step 14: consistent when H = H'.
        return constantTimeEqual(h, hPrime)
    }

    /// MGF1 (RFC 8017 §B.2.1) with `hash`: the leading `length` octets of
    /// Hash(seed ‖ C(0)) ‖ Hash(seed ‖ C(1)) ‖ …, C(i) the counter as 4 big-endian octets.
    static func mgf1(seed: [UInt8], length: Int, hash: Hashing.Function) -> [UInt8] {
        // Step 1: length ≤ 2^32 · hLen always holds for a modulus of at most 8192 bits.
        // Steps 2-3: T = T ‖ Hash(mgfSeed ‖ I2OSP(counter, 4)) for counter 0 to ⌈length / hLen⌉ − 1.
        var mask: [UInt8] = []
        mask.reserveCapacity(length + hash.byteCount)
        var counter: UInt32 = 0
        while mask.count < length {
            let c = [
                UInt8(truncatingIfNeeded: counter >> 24), UInt8(truncatingIfNeeded: counter >> 16),
                UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter),
            ]
            mask += hash.hash(seed + c)
            counter += 1
        }
        // Step 4: the leading length octets of T.
        return Array(mask.prefix(length))
    }
}
