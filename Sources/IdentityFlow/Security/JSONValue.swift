/// A JSON value: the members of JSON Web Token headers and claims, JWKs and other JSON
/// documents whose shape is not fixed.
///
/// ```swift
/// let token = try JSONWebToken(compact: idToken)
/// let subject = token.claims["sub"]?.stringValue
/// let audiences = token.claims["aud"]?.arrayValue?.compactMap(\.stringValue)
/// ```
package enum JSONValue: Sendable, Hashable {
    /// A JSON string.
    case string(String)
    /// A JSON number. Integers are exact up to 2⁵³.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object.
    case object([String: JSONValue])

    // MARK: - Accessors

    /// The string, if this is a `.string`.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, if this is a `.number`.
    package var doubleValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, if this is a `.number` holding an integer that `Int` can represent exactly.
    package var intValue: Int? {
        guard case .number(let value) = self else { return nil }
        return Int(exactly: value)
    }

    /// The Boolean, if this is a `.bool`.
    package var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an `.array`.
    package var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members, if this is an `.object`.
    package var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// Whether this is `.null`.
    package var isNull: Bool { self == .null }

    /// The member named `key`, if this is an `.object` that has it.
    /// - Parameter key: The member name.
    /// - Returns: The member's value, or `nil`.
    package subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }
}

// MARK: - Codable

extension JSONValue: Codable {
    /// Decodes any JSON value.
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` if the input is not JSON the decoder can represent.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value as the corresponding JSON.
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: `EncodingError` if the encoder refuses a value (such as a non-finite number).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// Creates a `.string`.
    /// - Parameter value: The string.
    package init(stringLiteral value: String) { self = .string(value) }

    /// Creates a `.number`.
    /// - Parameter value: The number.
    package init(floatLiteral value: Double) { self = .number(value) }

    /// Creates a `.number` from an integer literal.
    /// - Parameter value: The integer.
    package init(integerLiteral value: Int) { self = .number(Double(value)) }

    /// Creates a `.bool`.
    /// - Parameter value: The Boolean.
    package init(booleanLiteral value: Bool) { self = .bool(value) }

    /// Creates `.null`.
    /// - Parameter nilLiteral: The `nil` literal.
    package init(nilLiteral: ()) { self = .null }

    /// Creates an `.array`.
    /// - Parameter elements: The elements.
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// Creates an `.object`; a repeated key keeps its last value.
    /// - Parameter elements: The members.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
