/// The base64url encoding of RFC 4648 §5 (`-` and `_` instead of `+` and `/`), as used by
/// JSON Web Tokens, JWKs and PKCE.
///
/// ```swift
/// let text = Base64URL.encode([0xfb, 0xff])   // "-_8"
/// let bytes = Base64URL.decode("-_8")          // [0xfb, 0xff]
/// ```
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Maps an ASCII byte to its 6-bit value, or 0xFF when the byte is not in the alphabet.
    private static let decodingTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()

    /// Encodes bytes as base64url without padding.
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The encoded string (no `=` padding, no line breaks).
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        if let encoded = bytes.withContiguousStorageIfAvailable(encode(buffer:)) { return encoded }
        return Array(bytes).withUnsafeBufferPointer(encode(buffer:))
    }

    /// Encodes contiguous bytes straight into the string's storage, one 3-byte group at a time.
    private static func encode(buffer input: UnsafeBufferPointer<UInt8>) -> String {
        let length = (input.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: length) { output in
            alphabet.withUnsafeBufferPointer { alphabet in
                var index = 0
                var out = 0
                while index + 3 <= input.count {
                    let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                    output[out] = alphabet[Int((chunk >> 18) & 0x3F)]
                    output[out + 1] = alphabet[Int((chunk >> 12) & 0x3F)]
                    output[out + 2] = alphabet[Int((chunk >> 6) & 0x3F)]
                    output[out + 3] = alphabet[Int(chunk & 0x3F)]
                    index += 3
                    out += 4
                }
                let remaining = input.count - index
                if remaining > 0 {
                    let second = remaining == 2 ? UInt32(input[index + 1]) << 8 : 0
                    let chunk = UInt32(input[index]) << 16 | second
                    output[out] = alphabet[Int((chunk >> 18) & 0x3F)]
                    output[out + 1] = alphabet[Int((chunk >> 12) & 0x3F)]
                    if remaining == 2 { output[out + 2] = alphabet[Int((chunk >> 6) & 0x3F)] }
                }
            }
            return length
        }
    }

    /// Decodes base64url, with or without `=` padding.
    ///
    /// Decoding is strict: characters outside the base64url alphabet (including `+`, `/` and
    /// whitespace), misplaced or wrong padding, impossible lengths and non-zero unused trailing
    /// bits are all rejected, so every byte sequence has exactly one accepted unpadded form.
    /// - Parameter string: The encoded text.
    /// - Returns: The decoded bytes, or `nil` if `string` is not valid base64url.
    package static func decode(_ string: String) -> [UInt8]? { decode(utf8: string.utf8) }

    /// Decodes base64url given as its UTF-8 bytes, as ``decode(_:)`` decodes a string.
    /// - Parameter utf8: The encoded text's bytes.
    /// - Returns: The decoded bytes, or `nil` if they are not valid base64url.
    package static func decode(utf8: some Collection<UInt8>) -> [UInt8]? {
        var characters = Array(utf8)
        if let firstPad = characters.firstIndex(of: UInt8(ascii: "=")) {
            let padCount = characters.count - firstPad
            guard characters.count % 4 == 0,
                padCount <= 2,
                characters[firstPad...].allSatisfy({ $0 == UInt8(ascii: "=") }),
                (firstPad % 4) + padCount == 4
            else { return nil }
            characters.removeSubrange(firstPad...)
        }
        guard characters.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bitCount = 0
        for character in characters {
            let value = decodingTable[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
                accumulator &= (1 << UInt32(bitCount)) - 1
            }
        }
        guard accumulator == 0 else { return nil }
        return output
    }
}
