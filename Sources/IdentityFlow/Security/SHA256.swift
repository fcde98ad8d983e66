/// A pure-Swift SHA-256 (FIPS 180-4) used where CryptoKit is unavailable, and by PBKDF2
/// everywhere, because PBKDF2 reuses precomputed HMAC states block by block.
///
/// The engine works on 32-bit words and unsafe buffers and never allocates per byte or per
/// block: a 64-word message schedule lives on the stack for the whole message.
struct SHA256 {
    /// The size of a digest in bytes.
    static let digestByteCount = 32

    /// The size of a message block in bytes.
    static let blockByteCount = 64

    /// The eight chaining words of SHA-256 (H0...H7).
    struct State: Equatable {
        var h0: UInt32, h1: UInt32, h2: UInt32, h3: UInt32
        var h4: UInt32, h5: UInt32, h6: UInt32, h7: UInt32

        /// The initial hash value of FIPS 180-4 §5.3.3.
        static let initial = State(
            h0: 0x6a09_e667, h1: 0xbb67_ae85, h2: 0x3c6e_f372, h3: 0xa54f_f53a,
            h4: 0x510e_527f, h5: 0x9b05_688c, h6: 0x1f83_d9ab, h7: 0x5be0_cd19
        )

        /// The state serialised big-endian: the digest once the message is finished.
        var bytes: [UInt8] {
            var result = [UInt8](repeating: 0, count: SHA256.digestByteCount)
            result.withUnsafeMutableBytes { raw in
                for (index, word) in [h0, h1, h2, h3, h4, h5, h6, h7].enumerated() {
                    raw.storeBytes(of: word.bigEndian, toByteOffset: index * 4, as: UInt32.self)
                }
            }
            return result
        }

        /// Stores the eight words into the first eight slots of a message schedule.
        func store(into words: UnsafeMutablePointer<UInt32>) {
            words[0] = h0; words[1] = h1; words[2] = h2; words[3] = h3
            words[4] = h4; words[5] = h5; words[6] = h6; words[7] = h7
        }

        /// XORs another state into this one, word by word (PBKDF2's running `T ^= U`).
        mutating func formXOR(_ other: State) {
            h0 ^= other.h0; h1 ^= other.h1; h2 ^= other.h2; h3 ^= other.h3
            h4 ^= other.h4; h5 ^= other.h5; h6 ^= other.h6; h7 ^= other.h7
        }
    }

    // MARK: - One-shot hashing

    /// Hashes a message.
    /// - Parameter bytes: The message.
    /// - Returns: The 32-byte digest.
    static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        hash(bytes, continuing: .initial, priorByteCount: 0).bytes
    }

    /// Hashes a message after a prefix that has already been compressed into `state`.
    /// - Parameters:
    ///   - bytes: The rest of the message.
    ///   - state: The state after compressing the prefix (whole blocks only).
    ///   - priorByteCount: The length of the prefix in bytes, a multiple of 64.
    /// - Returns: The final state; its ``State/bytes`` are the digest.
    static func hash(_ bytes: some Collection<UInt8>, continuing state: State, priorByteCount: Int) -> State {
        if let result = bytes.withContiguousStorageIfAvailable({
            finish($0, continuing: state, priorByteCount: priorByteCount)
        }) {
            return result
        }
        return Array(bytes).withUnsafeBufferPointer {
            finish($0, continuing: state, priorByteCount: priorByteCount)
        }
    }

    /// Compresses one full 64-byte block (such as an HMAC key pad) into a fresh initial state.
    /// - Parameter block: Exactly 64 bytes.
    /// - Returns: The state after that block.
    static func state(afterBlock block: [UInt8]) -> State {
        var state = State.initial
        withSchedule { schedule in
            block.withUnsafeBytes { raw in
                load(raw, at: 0, into: schedule)
            }
            compress(&state, schedule)
        }
        return state
    }

    private static func finish(_ message: UnsafeBufferPointer<UInt8>, continuing start: State, priorByteCount: Int) -> State {
        var state = start
        withSchedule { schedule in
            let raw = UnsafeRawBufferPointer(message)
            let fullBlocks = message.count / blockByteCount
            for block in 0..<fullBlocks {
                load(raw, at: block * blockByteCount, into: schedule)
                compress(&state, schedule)
            }
            // Padding: the remaining bytes, 0x80, zeros and the 64-bit bit length, in one or two blocks.
            let remainder = message.count - fullBlocks * blockByteCount
            let bitLength = UInt64(priorByteCount + message.count) &* 8
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * blockByteCount) { tail in
                tail.initialize(repeating: 0)
                for index in 0..<remainder {
                    tail[index] = message[fullBlocks * blockByteCount + index]
                }
                tail[remainder] = 0x80
                let tailLength = remainder < 56 ? blockByteCount : 2 * blockByteCount
                let tailRaw = UnsafeMutableRawBufferPointer(tail)
                tailRaw.storeBytes(of: bitLength.bigEndian, toByteOffset: tailLength - 8, as: UInt64.self)
                for offset in stride(from: 0, to: tailLength, by: blockByteCount) {
                    load(UnsafeRawBufferPointer(tailRaw), at: offset, into: schedule)
                    compress(&state, schedule)
                }
            }
        }
        return state
    }

    // MARK: - Compression

    /// Runs `body` with a message schedule on the stack: 64 words for the expanded block,
    /// followed by a copy of the 64 round constants so compression reads no global state.
    @inline(__always)
    static func withSchedule<Result>(_ body: (UnsafeMutablePointer<UInt32>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 128) { buffer in
            buffer.initialize(repeating: 0)
            for (index, constant) in roundConstants.enumerated() {
                buffer[64 + index] = constant
            }
            // The buffer is non-empty (capacity 128), so its base address exists.
            return body(buffer.baseAddress.unsafelyUnwrapped)
        }
    }

    /// Loads 16 big-endian words from `raw[offset..<offset + 64]` into the schedule.
    @inline(__always)
    private static func load(_ raw: UnsafeRawBufferPointer, at offset: Int, into schedule: UnsafeMutablePointer<UInt32>) {
        for index in 0..<16 {
            schedule[index] = UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset + index * 4, as: UInt32.self))
        }
    }

    /// The SHA-256 compression function (FIPS 180-4 §6.2.2).
    ///
    /// Reads words 0..<16 of `schedule` as the block, overwrites words 16..<64 with the expanded
    /// schedule and reads the round constants from words 64..<128; words 0..<16 are left
    /// unchanged, so callers may reuse them.
    /// - Parameters:
    ///   - state: The chaining state, updated in place.
    ///   - schedule: A schedule from ``withSchedule(_:)`` whose first 16 words hold the block.
    @inline(__always)
    static func compress(_ state: inout State, _ schedule: UnsafeMutablePointer<UInt32>) {
        let w = schedule
        for t in 16..<64 {
            let x = w[t - 15], y = w[t - 2]
            let s0 = x.rotatedRight(7) ^ x.rotatedRight(18) ^ (x >> 3)
            let s1 = y.rotatedRight(17) ^ y.rotatedRight(19) ^ (y >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var a = state.h0, b = state.h1, c = state.h2, d = state.h3
        var e = state.h4, f = state.h5, g = state.h6, h = state.h7
        let k = schedule + 64
        for t in 0..<64 {
            let sigma1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
            let choice = (e & f) ^ (~e & g)
            let t1 = h &+ sigma1 &+ choice &+ k[t] &+ w[t]
            let sigma0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let t2 = sigma0 &+ majority
            h = g; g = f; f = e; e = d &+ t1
            d = c; c = b; b = a; a = t1 &+ t2
        }
        state.h0 &+= a; state.h1 &+= b; state.h2 &+= c; state.h3 &+= d
        state.h4 &+= e; state.h5 &+= f; state.h6 &+= g; state.h7 &+= h
    }

    /// The round constants K of FIPS 180-4 §4.2.2.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

extension UInt32 {
    /// Rotates the bits right by `count` (0 < count < 32).
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self &>> count) | (self &<< (32 &- count))
    }
}
