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
    /// - Parameter message: The message.
    /// - Returns: The final outer state.
    func authenticationState(for message: some Collection<UInt8>) -> SHA256.State {
        let inner = SHA256.hash(message, continuing: innerState, priorByteCount: SHA256.blockByteCount)
        return SHA256.hash(inner.bytes, continuing: outerState, priorByteCount: SHA256.blockByteCount)
    }

    /// Computes the MAC of a 32-byte message held as a SHA-256 state, with exactly two
    /// compressions and no allocation: the inner loop of PBKDF2.
    /// - Parameters:
    ///   - message: The 32-byte message as eight big-endian words.
    ///   - schedule: A scratch schedule from ``SHA256/withSchedule(_:)``.
    /// - Returns: The MAC as eight big-endian words.
    @inline(__always)
    func authenticationState(forDigest message: SHA256.State, schedule: UnsafeMutablePointer<UInt32>) -> SHA256.State {
        // A 32-byte message after a 64-byte pad: one block of message, 0x80, zeros, bit length 768.
        message.store(into: schedule)
        Self.storeDigestPadding(into: schedule)
        var inner = innerState
        SHA256.compress(&inner, schedule)
        inner.store(into: schedule)
        Self.storeDigestPadding(into: schedule)
        var outer = outerState
        SHA256.compress(&outer, schedule)
        return outer
    }

    @inline(__always)
    private static func storeDigestPadding(into schedule: UnsafeMutablePointer<UInt32>) {
        schedule[8] = 0x8000_0000
        for index in 9..<15 {
            schedule[index] = 0
        }
        schedule[15] = UInt32((SHA256.blockByteCount + SHA256.digestByteCount) * 8)
    }
}
