import Foundation

/// The standard claims of OpenID Connect Core §5.1, typed, over a set of claims: what
/// ``IdentityClaims`` (the ID token's) and ``UserInfo`` (the userinfo endpoint's) share.
public protocol StandardClaims: Sendable {
    /// Every claim, as the provider sent it.
    var all: [String: IdentityClaims.Value] { get }
}

extension StandardClaims {
    /// A claim by name, whatever its type.
    /// - Parameter claim: The claim's name, e.g. `"department"`.
    public subscript(claim: String) -> IdentityClaims.Value? { all[claim] }

    /// `name`: the full name.
    public var name: String? { string("name") }
    /// `given_name`.
    public var givenName: String? { string("given_name") }
    /// `family_name`.
    public var familyName: String? { string("family_name") }
    /// `preferred_username`: a shorthand name (not unique, not stable: use the `sub` claim as the key).
    public var preferredUsername: String? { string("preferred_username") }
    /// `email`.
    public var email: String? { string("email") }
    /// `email_verified`.
    public var emailVerified: Bool? { all["email_verified"]?.boolValue }
    /// `phone_number`.
    public var phoneNumber: String? { string("phone_number") }
    /// `phone_number_verified`.
    public var phoneNumberVerified: Bool? { all["phone_number_verified"]?.boolValue }
    /// `locale`, a BCP 47 tag such as `en-US`.
    public var locale: String? { string("locale") }
    /// `picture`: the URL of a profile picture.
    public var picture: URL? { string("picture").flatMap(URL.init(string:)) }
    /// `tid`: the tenant (Entra ID and other multi-tenant providers).
    public var tenantID: String? { string("tid") }

    private func string(_ claim: String) -> String? { all[claim]?.stringValue }
}
