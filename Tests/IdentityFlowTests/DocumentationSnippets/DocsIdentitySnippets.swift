// swift-format-ignore-file
// docs/identity.md's Swift blocks, verbatim (DocumentationSnippetTests).
import Foundation
import IdentityFlow

/// A GraphQL client's shape (Apollo, say): headers the app sets.
private final class SnippetGraphQLClient {
    var headers: [String: String] = [:]
}

private func identityClaims(client: UserClient, profile: UserProfile) {
    var title = "", tenant: String?, department: String?
    if let claims = client.identityClaims {          // the logged-in user's
        title = claims.givenName ?? claims.name ?? claims.preferredUsername ?? "there"
        tenant = claims.tenantID                      // "tid", multi-tenant providers
        department = claims["department"]?.stringValue   // any claim, by name
    }
    let stored = client.identityClaims(of: profile)   // a registered profile's last ID token, logged in or not
    _ = (title, tenant, department, stored)
}

private func identityUserInfo(client: UserClient) async throws {
    let info = try await client.userInfo()   // UserInfo: subject, the standard claims, info["x"]
    _ = info
}

private func identityAccessToken(client: UserClient, apollo: SnippetGraphQLClient) async throws {
    let token = try await client.freshAccessToken()                    // valid for ≥ 60 s more
    apollo.headers["Authorization"] = "Bearer \(token.value)"
    let expiry = client.accessTokenExpiresAt                           // Date?, from expires_in
    _ = expiry
}

private func identityProviderLogout(client: UserClient, browser: SnippetClosableBrowser) async throws {
    do {
        try await client.providerLogout { challenge in
            guard case .providerLogout(let logout) = challenge else { return }
            // Open logout.url in the browser the user signed in with (not an ephemeral session),
            // then hand back the redirect: here, or through client.handleRedirect(url).
            let redirect = try? await browser.open(logout.url, callbackScheme: "myapp")
            if let redirect { logout.sender.respond(with: redirect, to: logout) } else { logout.sender.cancel(logout) }
        }
    } catch where error.code == .providerLogoutNotSupported {
        // The provider has no end_session_endpoint: logged out on the device, tokens revoked.
    } catch where error.code == .providerLogoutUnconfirmed {
        // Cancelled, another state or an error: logged out on the device; the provider's session may remain.
    }
}

private func identityParameters() {
    var parameters = AuthorizationParameters(acrValues: ["urn:example:loa:3"], maxAge: 300, prompt: "login")
    parameters.loginHint = "alice@example.com"
    parameters.uiLocales = ["nl-NL", "en"]
    parameters.extra["kc_idp_hint"] = "google"      // a provider's own parameter
    _ = parameters
}
