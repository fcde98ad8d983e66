/// The effects of one transition, in order, held without a heap allocation when there are at most
/// two.
///
/// Machines build it with ``init(_:)`` and ``init(_:_:)``, which store the effects inline. It is
/// also a random-access collection that an array literal builds (the literal is an array first,
/// so that way allocates), and a runner iterates it like an array.
///
/// ```swift
/// let effects = Effects<DoorEffect>(.unlock, .chime)
/// for effect in effects { perform(effect) }
/// ```
///
/// Speed: docs/performance-notes.md#effects-inline-slots (inline slots, `@inlinable` members).
public struct Effects<Effect>: RandomAccessCollection, ExpressibleByArrayLiteral {
    /// Up to two effects inline; more go to an array, so the representation of a count is unique.
    @usableFromInline
    enum Storage {
        case none
        case one(Effect)
        case two(Effect, Effect)
        case many([Effect])
    }

    /// The number of effects, stored ahead of them (see the performance notes).
    public let count: Int
    @usableFromInline
    let storage: Storage

    /// No effects.
    @inlinable
    public init() {
        count = 0
        storage = .none
    }

    /// One effect.
    /// - Parameter effect: The effect.
    @inlinable
    public init(_ effect: Effect) {
        count = 1
        storage = .one(effect)
    }

    /// Two effects, in order.
    /// - Parameters:
    ///   - first: The effect performed first.
    ///   - second: The effect performed next.
    @inlinable
    public init(_ first: Effect, _ second: Effect) {
        count = 2
        storage = .two(first, second)
    }

    /// The effects of an array literal, in order.
    /// - Parameter elements: The effects.
    @inlinable
    public init(arrayLiteral elements: Effect...) {
        count = elements.count
        switch elements.count {
        case 0: storage = .none
        case 1: storage = .one(elements[0])
        case 2: storage = .two(elements[0], elements[1])
        default: storage = .many(elements)
        }
    }

    /// The position of the first effect: 0.
    @inlinable
    public var startIndex: Int { 0 }

    /// One past the last effect's position: ``count``.
    @inlinable
    public var endIndex: Int { count }

    /// The effect at `position`.
    /// - Parameter position: A valid index, `0..<count`.
    @inlinable
    public subscript(position: Int) -> Effect {
        switch storage {
        case .one(let effect) where position == 0:
            return effect
        case .two(let first, let second) where position == 0 || position == 1:
            return position == 0 ? first : second
        case .many(let effects):
            return effects[position]
        default:
            preconditionFailure("Effects index \(position) out of range")
        }
    }
}

extension Effects: Sendable where Effect: Sendable {}
extension Effects.Storage: Sendable where Effect: Sendable {}

extension Effects: Equatable where Effect: Equatable {
    /// Whether both hold equal effects in the same order.
    @inlinable
    public static func == (lhs: Effects, rhs: Effects) -> Bool { lhs.elementsEqual(rhs) }
}
