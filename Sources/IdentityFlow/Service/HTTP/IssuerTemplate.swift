import Foundation

/// An issuer with a `{tenantid}` placeholder, as Entra ID's multi-tenant endpoints (`common`,
/// `organizations`, `consumers`) publish it: `https://login.microsoftonline.com/{tenantid}/v2.0`.
///
/// Each ID token then names its own tenant: its `iss` must be the template with the token's `tid`
/// claim in place of the placeholder, and `tid` must be present and a tenant id (a GUID). Every
/// other issuer is compared as bytes, as before.
struct IssuerTemplate: Sendable, Hashable {
    /// The placeholder, as Entra ID spells it.
    static let placeholder = "{tenantid}"
    /// The same placeholder as `URL` writes it (braces are not allowed in a URL).
    private static let encodedPlaceholder = "%7btenantid%7d"

    /// The template's text before and after the placeholder.
    let prefix: String
    let suffix: String

    /// The template in `issuer`, or `nil` when it has no placeholder, or more than one. The
    /// placeholder may be written as is or percent-encoded (`%7Btenantid%7D`).
    init?(_ issuer: String) {
        let normalised = Self.normalised(issuer)
        let parts = normalised.components(separatedBy: Self.placeholder)
        guard parts.count == 2 else { return nil }
        prefix = parts[0]
        suffix = parts[1]
    }

    /// `issuer` with a percent-encoded placeholder written as the placeholder.
    private static func normalised(_ issuer: String) -> String {
        guard let range = issuer.range(of: encodedPlaceholder, options: .caseInsensitive) else { return issuer }
        return issuer.replacingCharacters(in: range, with: placeholder)
    }

    /// The template's text, with the placeholder.
    var text: String { prefix + Self.placeholder + suffix }

    /// The issuer of tenant `tenant`.
    func issuer(forTenant tenant: String) -> String { prefix + tenant + suffix }

    /// What stands in the placeholder's place in `issuer`: one non-empty path segment, or `nil`
    /// when `issuer` is not of this template.
    func segment(of issuer: String) -> String? {
        // Compared as bytes, as issuers are everywhere else.
        let head = Array(prefix.utf8)
        var tail = Array(suffix.utf8)
        var bytes = Array(issuer.utf8)
        if tail.last == UInt8(ascii: "/") { tail.removeLast() }
        if bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard bytes.count > head.count + tail.count, bytes.starts(with: head), bytes.suffix(tail.count).elementsEqual(tail) else { return nil }
        let middle = bytes[head.count..<(bytes.count - tail.count)]
        guard !middle.contains(where: { "/?#%{}".utf8.contains($0) }) else { return nil }
        return String(decoding: middle, as: UTF8.self)
    }

    /// The segments a configured issuer may name for a template discovery document: Entra ID's
    /// multi-tenant endpoints. A configured tenant (a GUID or a domain) is never widened to every
    /// tenant: its discovery document names that tenant's issuer, and a template would be refused.
    static let multiTenantSegments: Set<String> = ["common", "organizations", "consumers"]

    /// Whether a configured issuer fits a discovered template issuer: the template itself, or the
    /// template at one of the ``multiTenantSegments``.
    static func configured(_ configured: String, fits discovered: String) -> Bool {
        guard let template = IssuerTemplate(discovered) else { return false }
        if let own = IssuerTemplate(configured) { return own == template }
        guard let segment = template.segment(of: configured) else { return false }
        return multiTenantSegments.contains(segment.lowercased())
    }

    /// Whether `tenant` is a plausible tenant id: a GUID (8-4-4-4-12 hexadecimal digits), as
    /// Entra ID's `tid` always is.
    static func isPlausibleTenantID(_ tenant: String) -> Bool {
        let groups = tenant.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.utf8.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit } }
    }
}
