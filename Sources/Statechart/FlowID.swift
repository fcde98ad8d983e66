/// Identifies one run of a machine (one flow) in logs and transcripts.
public struct FlowID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number, unique within the process.
    public let rawValue: UInt64

    /// Creates an identifier from a number.
    /// - Parameter rawValue: The number.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// A new identifier, unique within the process.
    public static func next() -> FlowID {
        FlowID(
            rawValue: counter.withLock { value in
                value += 1
                return value
            })
    }

    /// `flow#N`.
    public var description: String { "flow#\(rawValue)" }

    /// Orders identifiers by creation.
    public static func < (lhs: FlowID, rhs: FlowID) -> Bool { lhs.rawValue < rhs.rawValue }

    private static let counter = Locked<UInt64>(0)
}
