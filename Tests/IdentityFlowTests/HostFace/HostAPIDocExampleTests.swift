// The host API's other doors, as a host's test target sees them (IdentityFlowTesting alone).
import Foundation
import IdentityFlowTesting
import Testing

@Test func referenceServerThroughTheHostInitialiser() async throws {
    let server = ReferenceIdentityService()
    let client = UserClient(configuration: .testing(), server: .reference(server), storage: InMemoryStorage())
    try await client.start()
    let result = try await client.registerUser(
        .provider(ReferenceIdentityService.browserProvider),
        responder: ScriptedResponder([.browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680"))]))
    #expect(server.enrolledProfiles == [result.profile])
}

@Test func openIDConnectFactoryRefusesAnUnusableConfiguration() throws {
    // Neither an issuer nor a discovery URL: the factory fails as HTTPIdentityService's initialiser did.
    let configuration = HTTPServiceConfiguration(clientID: "app", redirectURI: URL(string: "myapp://callback")!)
    do {
        _ = try IdentityServer.openIDConnect(configuration)
        Issue.record("an unusable configuration was accepted")
    } catch { #expect(error.code == .configurationInvalid) }
    let usable = HTTPServiceConfiguration(issuer: URL(string: "https://idp.example")!, clientID: "app", redirectURI: URL(string: "myapp://callback")!)
    _ = try IdentityServer.openIDConnect(usable)
}
