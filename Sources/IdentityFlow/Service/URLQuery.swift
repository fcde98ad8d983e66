import Foundation

/// URL query strings read and written directly, without `URLComponents` round trips (each of
/// which parses the whole URL string again).
///
/// Reading splits and decodes exactly as `URLComponents.queryItems` does; writing percent-encodes
/// every character but the unreserved ones, so a value never changes on the way through.
///
/// ```swift
/// let url = URLQuery.url(endpoint, appending: [("state", state), ("scope", "openid profile")])
/// let items = URLQuery.items(of: redirect) ?? []   // [(name: "code", value: "C"), ...]
/// ```
package enum URLQuery {
    /// One query item: its name and value, percent-decoded; `value` is `nil` when there is no `=`.
    package typealias Item = (name: String, value: String?)

    /// The items of a URL's own query (a relative URL's base is not consulted).
    ///
    /// Items are separated by `&`; the first `=` separates name from value; `%XX` is decoded and
    /// `+` is kept as it is, as `URLComponents.queryItems` does. A name or value that is not valid
    /// percent-encoded UTF-8 reads as an empty name or a `nil` value.
    /// - Parameter url: The URL.
    /// - Returns: The items in order, or `nil` when the URL has no query at all.
    package static func items(of url: URL) -> [Item]? {
        items(of: url, plusIsSpace: false)
    }

    /// The items of a URL's own query read as form data (`application/x-www-form-urlencoded`):
    /// as ``items(of:)``, but `+` decodes to a space, as the query of an authorization response
    /// is written (RFC 6749 Appendix B). `%2B` still decodes to `+`.
    /// - Parameter url: The URL.
    /// - Returns: The items in order, or `nil` when the URL has no query at all.
    package static func formItems(of url: URL) -> [Item]? {
        items(of: url, plusIsSpace: true)
    }

    private static func items(of url: URL, plusIsSpace: Bool) -> [Item]? {
        guard var query = standalone(url)?.query(percentEncoded: true) else { return nil }
        guard !query.isEmpty else { return [] }
        return query.withUTF8 { bytes in
            var items: [Item] = []
            items.reserveCapacity(bytes.reduce(1) { $1 == UInt8(ascii: "&") ? $0 + 1 : $0 })
            var start = 0
            while start <= bytes.count {
                var end = start
                var equals: Int?
                while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                    if equals == nil, bytes[end] == UInt8(ascii: "=") { equals = end }
                    end += 1
                }
                if let equals {
                    items.append((decode(bytes[start..<equals], plusIsSpace: plusIsSpace) ?? "", decode(bytes[(equals + 1)..<end], plusIsSpace: plusIsSpace)))
                } else {
                    items.append((decode(bytes[start..<end], plusIsSpace: plusIsSpace) ?? "", nil))
                }
                start = end + 1
            }
            return items
        }
    }

    /// The URL with `items` appended to its query (after any items already there, before any
    /// fragment), each name and value percent-encoded with ``encode(_:)``.
    /// - Parameters:
    ///   - url: The URL.
    ///   - items: The names and values to append, in order.
    /// - Returns: The new URL, or `nil` if the result does not parse as a URL.
    package static func url(_ url: URL, appending items: [(name: String, value: String)]) -> URL? {
        var absolute = url.absoluteString
        let encodedLength = items.reduce(0) { $0 + 2 + 3 * ($1.name.utf8.count + $1.value.utf8.count) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(absolute.utf8.count + 1 + encodedLength)
        absolute.withUTF8 { absolute in
            let hash = absolute.firstIndex(of: UInt8(ascii: "#")) ?? absolute.count
            let base = UnsafeBufferPointer(rebasing: absolute[..<hash])
            bytes.append(contentsOf: base)
            if !base.contains(UInt8(ascii: "?")) {
                bytes.append(UInt8(ascii: "?"))
            } else if base.last != UInt8(ascii: "?") && !items.isEmpty {
                bytes.append(UInt8(ascii: "&"))
            }
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: "&")) }
                appendEncoded(item.name, to: &bytes)
                bytes.append(UInt8(ascii: "="))
                appendEncoded(item.value, to: &bytes)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: absolute[hash...]))
        }
        return URL(string: String(decoding: bytes, as: UTF8.self))
    }

    /// Percent-encodes every byte of the UTF-8 text except the unreserved characters
    /// `A–Z a–z 0–9 - . _ ~` (RFC 3986 §2.3), with upper-case hex digits: `a b&c` → `a%20b%26c`.
    /// - Parameter text: A name or value.
    /// - Returns: Text that is safe anywhere in a query.
    package static func encode(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        appendEncoded(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the text to `bytes`, percent-encoded as ``encode(_:)`` does: runs of unreserved
    /// characters are copied whole.
    private static func appendEncoded(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices where !isUnreserved(utf8[index]) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigit(utf8[index] >> 4))
                bytes.append(hexDigit(utf8[index] & 0x0F))
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }

    /// A URL that stands on its own: the URL itself, or a relative URL's own part without its base.
    package static func standalone(_ url: URL) -> URL? {
        url.baseURL == nil ? url : URL(string: url.relativeString)
    }

    /// Decodes `%XX` escapes (and `+` to a space when `plusIsSpace`); `nil` for a malformed
    /// escape or bytes that are not UTF-8.
    /// - Parameters:
    ///   - text: Part of a query that is valid UTF-8, cut at ASCII separators.
    ///   - plusIsSpace: Whether `+` stands for a space (form encoding).
    private static func decode(_ text: Slice<UnsafeBufferPointer<UInt8>>, plusIsSpace: Bool) -> String? {
        guard text.contains(UInt8(ascii: "%")) || (plusIsSpace && text.contains(UInt8(ascii: "+"))) else {
            return String(decoding: UnsafeBufferPointer(rebasing: text), as: UTF8.self)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == UInt8(ascii: "%") else {
                bytes.append(plusIsSpace && text[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : text[index])
                index += 1
                continue
            }
            guard index + 2 < text.endIndex, let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2]) else { return nil }
            bytes.append(high << 4 | low)
            index += 3
        }
        // Decoding repairs ill-formed UTF-8, so the text is valid exactly when its bytes are unchanged.
        let decoded = String(decoding: bytes, as: UTF8.self)
        return decoded.utf8.elementsEqual(bytes) ? decoded : nil
    }

    /// The value of one hexadecimal digit (either case), or `nil`.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    @inline(__always)
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte &- UInt8(ascii: "A")) < 26 || (byte &- UInt8(ascii: "a")) < 26 || (byte &- UInt8(ascii: "0")) < 10
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    /// The upper-case hex digit of a value below 16.
    @inline(__always)
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") - 10 + value
    }
}
