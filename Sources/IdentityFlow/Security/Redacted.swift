/// A secret value (PIN, token, authorization code, registration data) that prints as
/// `<redacted>` in descriptions, debug descriptions, `dump` and reflection.
///
/// Read the value with ``value`` only where it is used: to derive a key, to send it to the server.
public struct Redacted<Value: Sendable>: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret itself.
    public let value: Value

    /// Wraps a secret.
    /// - Parameter value: The secret.
    public init(_ value: Value) { self.value = value }

    /// Always `<redacted>`.
    public var description: String { "<redacted>" }
    /// Always `<redacted>`.
    public var debugDescription: String { "<redacted>" }
    /// A mirror with no children, so `dump` and `Mirror` show nothing of the value.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension Redacted: Equatable where Value: Equatable {}
extension Redacted: Hashable where Value: Hashable {}
