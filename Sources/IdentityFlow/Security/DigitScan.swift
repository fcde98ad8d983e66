/// What ``PinPolicy`` needs to know about a PIN's digits, found in one pass without allocating.
struct DigitScan {
    /// Whether every character is an ASCII digit (the scan stops at the first that is not).
    private(set) var allDigits = true
    /// The number of digits read.
    private(set) var count = 0
    /// Whether the digits step by the same non-zero amount (12345, 97531); needs two digits.
    private(set) var isSequence = false
    /// How often the most frequent digit appears.
    private(set) var mostFrequentDigitCount = 0

    /// Scans a PIN.
    ///
    /// ASCII "0"..."9" are exactly the scalars whose numeric type is decimal, and every other
    /// scalar encodes to UTF-8 bytes outside 48...57, so comparing UTF-8 bytes needs no Unicode
    /// property lookup and sees the same digits as the scalars would.
    ///
    /// The bytes are read as one contiguous buffer (a native string already is one, so nothing is
    /// copied) rather than through `String.UTF8View`'s index checks; the ten counts are a stack
    /// buffer.
    init(_ pin: String) {
        var pin = pin
        pin.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 10) { counts in
                scan(bytes, counting: counts)
            }
        }
    }

    /// Counts and compares the digits of `bytes`, stopping at the first byte that is not one.
    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, counting counts: UnsafeMutableBufferPointer<Int>) {
        counts.initialize(repeating: 0)
        var previous = 0
        var step = 0
        var steady = true
        for byte in bytes {
            let digit = Int(byte &- 48)
            guard digit < 10 else { allDigits = false; break }
            counts[digit] += 1
            mostFrequentDigitCount = max(mostFrequentDigitCount, counts[digit])
            if count == 1 {
                step = digit - previous
            } else if count > 1, digit - previous != step {
                steady = false
            }
            previous = digit
            count += 1
        }
        isSequence = count > 1 && step != 0 && steady
    }
}
