import CIdentityFlowCrypto

/// SHA-256 (FIPS 180-4) with its compression in the CIdentityFlowCrypto C target: SHA
/// instructions when the CPU has them, a portable unrolled engine otherwise. Used where
/// CryptoKit is unavailable, and by HMAC and PBKDF2 everywhere, because they reuse
/// precomputed HMAC states block by block.
///
/// Hashing never allocates per byte or per block.
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

        /// XORs another state into this one, word by word (PBKDF2's running `T ^= U`).
        mutating func formXOR(_ other: State) {
            h0 ^= other.h0; h1 ^= other.h1; h2 ^= other.h2; h3 ^= other.h3
            h4 ^= other.h4; h5 ^= other.h5; h6 ^= other.h6; h7 ^= other.h7
        }

        /// Runs `body` with the eight words as the `uint32_t[8]` the C engines take.
        @inline(__always)
        mutating func withWords<Result>(_ body: (UnsafeMutablePointer<UInt32>) -> Result) -> Result {
            withUnsafeMutableBytes(of: &self) { raw in
                // A struct of eight UInt32 is laid out as eight consecutive words.
                body(raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt32.self))
            }
        }
    }

    /// Which compression engine to use: the fastest this CPU has, or the portable one
    /// (tests run both on the same inputs).
    enum Engine: Sendable {
        case fastest, portable

        /// Whether ``fastest`` uses SHA instructions (SHA-NI, ARMv8 SHA2) on this CPU.
        static var fastestUsesHardware: Bool { ifc_sha256_has_hardware() != 0 }
    }

    // MARK: - One-shot hashing

    /// Hashes a message.
    /// - Parameter bytes: The message.
    /// - Returns: The 32-byte digest.
    static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        hash(bytes, continuing: .initial, priorByteCount: 0).bytes
    }

    /// Hashes a message with a chosen engine.
    static func hash(_ bytes: some Collection<UInt8>, engine: Engine) -> [UInt8] {
        hash(bytes, continuing: .initial, priorByteCount: 0, engine: engine).bytes
    }

    /// Hashes a message after a prefix that has already been compressed into `state`.
    /// - Parameters:
    ///   - bytes: The rest of the message.
    ///   - state: The state after compressing the prefix (whole blocks only).
    ///   - priorByteCount: The length of the prefix in bytes, a multiple of 64.
    ///   - engine: The compression engine.
    /// - Returns: The final state; its ``State/bytes`` are the digest.
    static func hash(
        _ bytes: some Collection<UInt8>, continuing state: State, priorByteCount: Int, engine: Engine = .fastest
    ) -> State {
        if let result = bytes.withContiguousStorageIfAvailable({
            finish($0, continuing: state, priorByteCount: priorByteCount, engine: engine)
        }) {
            return result
        }
        return Array(bytes).withUnsafeBufferPointer {
            finish($0, continuing: state, priorByteCount: priorByteCount, engine: engine)
        }
    }

    /// Compresses one full 64-byte block (such as an HMAC key pad) into a fresh initial state.
    /// - Parameter block: Exactly 64 bytes.
    /// - Returns: The state after that block.
    static func state(afterBlock block: [UInt8]) -> State {
        var state = State.initial
        block.withUnsafeBytes { compress(&state, blocks: $0, engine: .fastest) }
        return state
    }

    private static func finish(
        _ message: UnsafeBufferPointer<UInt8>, continuing start: State, priorByteCount: Int, engine: Engine
    ) -> State {
        var state = start
        let raw = UnsafeRawBufferPointer(message)
        let wholeBytes = message.count / blockByteCount * blockByteCount
        compress(&state, blocks: UnsafeRawBufferPointer(rebasing: raw[0..<wholeBytes]), engine: engine)
        // Padding: the remaining bytes, 0x80, zeros and the 64-bit bit length, in one or two blocks.
        let remainder = message.count - wholeBytes
        let bitLength = UInt64(priorByteCount + message.count) &* 8
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * blockByteCount) { tail in
            tail.initialize(repeating: 0)
            for index in 0..<remainder {
                tail[index] = message[wholeBytes + index]
            }
            tail[remainder] = 0x80
            let tailLength = remainder < 56 ? blockByteCount : 2 * blockByteCount
            let tailRaw = UnsafeMutableRawBufferPointer(tail)
            tailRaw.storeBytes(of: bitLength.bigEndian, toByteOffset: tailLength - 8, as: UInt64.self)
            compress(&state, blocks: UnsafeRawBufferPointer(rebasing: tailRaw[0..<tailLength]), engine: engine)
        }
        return state
    }

    // MARK: - Compression

    /// The SHA-256 compression function (FIPS 180-4 §6.2.2) over whole 64-byte blocks, in C:
    /// SHA-NI or ARMv8 SHA2 when the CPU has them (checked once at run time), otherwise an
    /// unrolled portable engine.
    /// - Parameters:
    ///   - state: The chaining state, updated in place.
    ///   - blocks: A multiple of 64 bytes.
    ///   - engine: The compression engine.
    @inline(__always)
    static func compress(_ state: inout State, blocks: UnsafeRawBufferPointer, engine: Engine) {
        let count = blocks.count / blockByteCount
        guard count > 0, let base = blocks.baseAddress else { return }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        state.withWords { words in
            switch engine {
            case .fastest: ifc_sha256_blocks(words, bytes, count)
            case .portable: ifc_sha256_blocks_portable(words, bytes, count)
            }
        }
    }
}
