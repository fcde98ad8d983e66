// The unit test the README shows under "Unit-test your integration", verbatim.
import Testing
import IdentityFlowTesting

@Test func registersThroughTheBrowser() async throws {
    let server = ReferenceIdentityService()
    let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
    try await client.start()
    let responder = ScriptedResponder([
        .browserRegistration(.respondWith { try server.logIn(at: $0.url, as: "alice") }),
        .createPin(.respond("12345")),
        .createPin(.respond("24680"), expecting: .pinShouldNotBeASequence),
    ])
    let result = try await client.registerUser(responder: responder)
    try responder.verify()
    #expect(client.authenticatedUserProfile == result.profile)
}
