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
    init(_ pin: String) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 10) { counts in
            counts.initialize(repeating: 0)
            var previous = 0
            var step = 0
            var steady = true
            for byte in pin.utf8 {
                guard (48...57).contains(byte) else { allDigits = false; break }
                let digit = Int(byte) - 48
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
}
