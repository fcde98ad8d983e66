// swift-format-ignore-file
// docs/transport.md's Swift blocks, verbatim (DocumentationSnippetTests); the first (Apple-only
// URLSessionConfiguration properties) is a listed fragment.
import Foundation
import IdentityFlow

private func transportPins(
    clientConfiguration: ClientConfiguration, server: IdentityServer, storage: InMemoryStorage, apiPin: String, apiBackupPin: String
) {
    let api = URLSessionTransport(
        requestTimeout: 30,
        options: HTTPTransportOptions(headers: ["X-App-Version": "7.1"], pinnedPublicKeys: ["api.example.com": [apiPin, apiBackupPin]]))
    let client = UserClient(configuration: clientConfiguration, server: server, storage: storage, transport: api)
    _ = client
}

private func transportHeaders(configuration: inout HTTPServiceConfiguration) {
    configuration.transportOptions.headers = ["X-OIDC": "v1"]   // Schibsted's header
}

private func transportPinnedKeys(configuration: inout HTTPServiceConfiguration) {
    configuration.transportOptions.pinnedPublicKeys = [
        "id.example.com": ["JzpHEGEoYwZUEGBmi5oVXi4OmrHLvm6y5MsfRhtJbIA=", "<the backup key's pin>"],
    ]
}

private func transportClientSecret(configuration: inout HTTPServiceConfiguration, secret: String) {
    configuration.clientAuthentication = .clientSecretBasic(Redacted(secret))   // or .clientSecretPost(Redacted(secret))
}
