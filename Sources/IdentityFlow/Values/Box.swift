/// An immutable heap cell for the fields of a value type that flows through the state machines.
///
/// The box is never mutated: a setter on the owning value puts a new box in place
/// (``replacing(_:with:)``), so copies keep value semantics and the box stays `Sendable`.
/// Why boxes: docs/performance-notes.md#boxed-payloads.
final class Box<Value: Sendable>: Sendable {
    /// The fields.
    let value: Value

    /// Boxes `value`.
    init(_ value: Value) { self.value = value }

    /// A new box whose value has `keyPath` set to `newValue`.
    func replacing<Field>(_ keyPath: WritableKeyPath<Value, Field>, with newValue: Field) -> Box {
        var copy = value
        copy[keyPath: keyPath] = newValue
        return Box(copy)
    }
}

extension Box: Equatable where Value: Equatable {
    /// Equal when the values are: boxes compare by value.
    static func == (lhs: Box, rhs: Box) -> Bool { lhs.value == rhs.value }
}

extension Box: Hashable where Value: Hashable {
    /// Hashes the value.
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
