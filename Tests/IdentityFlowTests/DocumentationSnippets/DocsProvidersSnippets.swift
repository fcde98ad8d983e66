// swift-format-ignore-file
// docs/providers.md's Swift blocks, verbatim (DocumentationSnippetTests); the last (UIApplication)
// is a listed fragment.
import Foundation
import IdentityFlow

private func providersHint(storage: InMemoryStorage, screen: SnippetPinScreen) async throws {
    var configuration = HTTPServiceConfiguration(
        issuer: URL(string: "https://sso.example.com/realms/app")!,
        clientID: "app", redirectURI: URL(string: "app://callback")!)
    configuration.identityProviderHintParameter = "kc_idp_hint"
    configuration.identityProviders = [
        IdentityProvider(identifier: "google", name: "Google", kind: .browser),
        IdentityProvider(identifier: "microsoft", name: "Microsoft", kind: .browser),
    ]
    let server = try IdentityServer.openIDConnect(configuration)
    let client = UserClient(configuration: ClientConfiguration(redirectURI: configuration.redirectURI), server: server, storage: storage)
    try await client.start()

    let providers = try await client.identityProviders()    // the configured list, nothing asked
    let result = try await client.registerUser(.provider(providers[1]).stateless(), responder: screen)
    // the browser challenge's URL carries kc_idp_hint=microsoft
    _ = result
}

private func providersEntra() {
    let configuration = HTTPServiceConfiguration(
        issuer: URL(string: "https://login.microsoftonline.com/common/v2.0")!,
        clientID: "00000000-0000-0000-0000-000000000000", redirectURI: URL(string: "msauth.com.example.app://auth")!)
    // discovery: …/common/v2.0/.well-known/openid-configuration, whose issuer is …/{tenantid}/v2.0
    _ = configuration
}

private func providersAppLogin() throws {
    var configuration = try HTTPServiceConfiguration(contentsOf: Bundle.main.url(forResource: "Info", withExtension: "plist")!)
    configuration.appAuthorizationSchemes = ["grabconnect2"]   // the scheme of Grab's app (only code can allow it)
    configuration.appLoginFallback = .appStore                  // or .browser, the default
    _ = configuration
}
