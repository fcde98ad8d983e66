/// What the server made of the attributes a partial registration sent.
@_spi(Integrator) public enum PartialRegistrationOutcome: Sendable, Hashable {
    /// The account is complete: the new user's tokens.
    case registered(TokenSet)
    /// The attributes were refused; the challenge comes back with the matching error.
    case refused(PartialRegistrationRefusal)
}

/// Why a partial registration's attributes were refused (Zephr's register outcomes).
@_spi(Integrator) public enum PartialRegistrationRefusal: String, Sendable, Hashable, CaseIterable {
    /// An account with these attributes exists: ``ErrorCode/userAlreadyExists``.
    case userAlreadyExists
    /// The e-mail address's domain is not allowed: ``ErrorCode/emailDomainBlocked``.
    case emailDomainBlocked
    /// The attributes are malformed or incomplete: ``ErrorCode/registrationDataInvalid``.
    case badRequest

    /// The error the challenge comes back with.
    package var error: IdentityFlowError {
        switch self {
        case .userAlreadyExists: IdentityFlowError(.userAlreadyExists)
        case .emailDomainBlocked: IdentityFlowError(.emailDomainBlocked)
        case .badRequest: IdentityFlowError(.registrationDataInvalid)
        }
    }
}
