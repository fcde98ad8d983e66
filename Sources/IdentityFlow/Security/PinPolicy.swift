/// The rules a new PIN must follow, checked on the device before it is enrolled.
///
/// A PIN is exactly ``length`` decimal digits, is not on the ``blockList``, is not a sequence
/// (digits stepping by the same non-zero amount, such as 12345, 13579 or 97531) unless
/// ``allowsSequences``, and uses no digit more than ``maxSimilarDigits`` times (with 2, `11` is
/// fine and `111` is not). Creating a PIN can be retried without limit; violations never count.
public struct PinPolicy: Sendable, Hashable, Codable {
    /// The number of digits, 5 to 32.
    public var length: Int
    /// How often one digit may appear at most, or `nil` for no limit.
    public var maxSimilarDigits: Int?
    /// Whether sequences such as 12345 are allowed.
    public var allowsSequences: Bool
    /// PINs that are refused outright.
    public var blockList: Set<String>

    /// Creates a policy.
    /// - Parameters:
    ///   - length: The number of digits (5 to 32).
    ///   - maxSimilarDigits: How often one digit may appear at most.
    ///   - allowsSequences: Whether sequences are allowed.
    ///   - blockList: PINs refused outright.
    public init(length: Int = 5, maxSimilarDigits: Int? = 2, allowsSequences: Bool = false, blockList: Set<String> = []) {
        self.length = length
        self.maxSimilarDigits = maxSimilarDigits
        self.allowsSequences = allowsSequences
        self.blockList = blockList
    }

    /// The range of lengths a policy may ask for.
    package static let allowedLengths = 5...32

    /// Whether the policy itself is valid: a length in ``allowedLengths`` and a positive maximum.
    package var isValid: Bool {
        Self.allowedLengths.contains(length) && (maxSimilarDigits ?? 1) >= 1
    }

    /// Checks a PIN.
    /// - Parameter pin: The PIN the user chose.
    /// - Returns: The first rule it breaks, as an error with a 9011-9014 code, or `nil` when it is fine.
    public func violation(of pin: String) -> IdentityFlowError? {
        let digits = DigitScan(pin)
        guard digits.allDigits, digits.count == length else {
            var error = IdentityFlowError(.wrongPinLength, "The PIN must be exactly \(length) digits.")
            error.requiredPinLength = length
            return error
        }
        if !blockList.isEmpty, blockList.contains(pin) {
            return IdentityFlowError(.pinBlackListed, "This PIN is too easy to guess; choose another.")
        }
        if !allowsSequences, digits.isSequence {
            return IdentityFlowError(.pinShouldNotBeASequence, "The PIN must not be a sequence such as 12345 or 13579.")
        }
        if let maxSimilarDigits, digits.mostFrequentDigitCount > maxSimilarDigits {
            var error = IdentityFlowError(.pinShouldNotUseSimilarDigits, "No digit may appear more than \(maxSimilarDigits) times in the PIN.")
            error.maxSimilarDigits = maxSimilarDigits
            return error
        }
        return nil
    }
}
