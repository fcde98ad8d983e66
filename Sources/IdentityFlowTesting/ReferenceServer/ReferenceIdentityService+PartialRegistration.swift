import Foundation
@_spi(Integrator) import IdentityFlow

// Zephr-style partial registration: ReferenceIdentityService.Consent.partial(identifier:) opens
// one at the browser step; the attributes complete it.
extension ReferenceIdentityService {
    /// Completes a partial registration: the PKCE verifier must match the browser step's
    /// challenge; `email` is required, a `@blocked.example` address is refused, and so is the
    /// address of a user the server knows. Success creates the user and issues tokens.
    @_spi(Integrator) public nonisolated(nonsending) func completePartialRegistration(
        stateKey: Redacted<String>, attributes: Redacted<[String: String]>,
        request: AuthorizationRequest
    ) async throws(IdentityFlowError) -> PartialRegistrationOutcome {
        try await enter(.completePartialRegistration)
        let date = now()
        return try state.withLock { state throws(IdentityFlowError) in
            guard let pending = state.partialGrants[stateKey.value], pending.expiresAt > date,
                PKCE.challenge(for: request.codeVerifier.value) == pending.grant.codeChallenge, pending.grant.redirectURI == request.redirectURI
            else {
                state.partialGrants[stateKey.value] = nil
                throw IdentityFlowError(.partialRegistrationExpired, "The reference server has no partial registration for this state key and verifier.")
            }
            guard let email = attributes.value["email"], let at = email.lastIndex(of: "@"), at != email.startIndex else { return .refused(.badRequest) }
            let user = String(email[..<at]), domain = email[email.index(after: at)...].lowercased()
            if domain == "blocked.example" { return .refused(.emailDomainBlocked) }
            if state.users.contains(user) { return .refused(.userAlreadyExists) }
            state.partialGrants[stateKey.value] = nil
            state.users.insert(user)
            return .registered(issueTokens(for: user, scopes: pending.grant.scopes, in: &state))
        }
    }

    /// Makes every open partial registration expire, for tests of 11024.
    public func expirePartialRegistrations() {
        state.withLock { state in
            state.partialGrants = state.partialGrants.mapValues { ($0.grant, $0.identifier, .distantPast) }
        }
    }

}
