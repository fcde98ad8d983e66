import CIdentityFlowCrypto

/// HMAC-SHA256 (RFC 2104) over the pure-Swift ``SHA256`` with the key's padded states
/// precomputed, so a keyed instance can MAC many messages without rehashing the key pads.
struct HMACSHA256 {
    /// The SHA-256 state after compressing `K XOR ipad`.
    let innerState: SHA256.State

    /// The SHA-256 state after compressing `K XOR opad`.
    let outerState: SHA256.State

    /// Precomputes the inner and outer padded states for a key.
    /// - Parameter key: The key; keys longer than a block are hashed first (RFC 2104 §2).
    init(key: some Collection<UInt8>) {
        var block = key.count > SHA256.blockByteCount ? SHA256.hash(key) : Array(key)
        block.append(contentsOf: repeatElement(0, count: SHA256.blockByteCount - block.count))
        innerState = SHA256.state(afterBlock: block.map { $0 ^ 0x36 })
        outerState = SHA256.state(afterBlock: block.map { $0 ^ 0x5c })
    }

    /// Computes the MAC of a message.
    /// - Parameter message: The message.
    /// - Returns: The 32-byte MAC.
    func authenticationCode(for message: some Collection<UInt8>) -> [UInt8] {
        authenticationState(for: message).bytes
    }

    /// Computes the MAC of a message as a SHA-256 state (the MAC is its ``SHA256/State/bytes``).
    /// - Parameters:
    ///   - message: The message.
    ///   - engine: The compression engine.
    /// - Returns: The final outer state.
    func authenticationState(for message: some Collection<UInt8>, engine: SHA256.Engine = .fastest) -> SHA256.State {
        let inner = SHA256.hash(message, continuing: innerState, priorByteCount: SHA256.blockByteCount, engine: engine)
        return SHA256.hash(inner.bytes, continuing: outerState, priorByteCount: SHA256.blockByteCount, engine: engine)
    }

    /// PBKDF2's inner loop in C: `count` times `u = HMAC(u)` and `t ^= u`, with exactly two
    /// compressions per iteration and no allocation.
    /// - Parameters:
    ///   - u: The previous MAC as a SHA-256 state, replaced by the last one.
    ///   - t: The running XOR of the MACs.
    ///   - count: The number of iterations.
    ///   - engine: The compression engine.
    func iterate(u: inout SHA256.State, t: inout SHA256.State, count: Int, engine: SHA256.Engine) {
        var inner = innerState, outer = outerState
        inner.withWords { innerWords in
            outer.withWords { outerWords in
                u.withWords { uWords in
                    t.withWords { tWords in
                        ifc_pbkdf2_sha256_iterate(
                            innerWords, outerWords, uWords, tWords, UInt64(count), engine == .portable ? 1 : 0)
                    }
                }
            }
        }
    }
}
