// The unit tests the documentation shows, verbatim: README.md and the DocC article TestingYourIntegration
// ("Unit-test your integration") show the first, the article MobileAuthentication the second, docs/host-api.md and the test kit's catalog the third.
// DocumentationExampleTests checks that each page still holds its test as written here.
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

@Test func acceptsAPushedPinRequest() async throws {
    let server = ReferenceIdentityService()
    let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
    try await client.start()
    let profile = try await client.registerUser(
        responder: ScriptedResponder([
            .browserRegistration(.respondWith { try server.logIn(at: $0.url) }),
            .createPin(.respond("24680")),
        ])
    ).profile
    try await client.enrollMobileAuthentication()
    let push = try server.sendMobileAuthRequest(to: profile, message: "Log in to shop.example?", type: .pin)
    let responder = ScriptedResponder([.mobileAuthConfirmation(.respond(true)), .pin(.respond("24680"))])
    let result = try await client.handleMobileAuthRequest(.push(push), responder: responder)
    try responder.verify()
    #expect(result.accepted && server.mobileAuthDecision(of: push.requestId) == true)
}

@Test func registersWithARequest() async throws {
    let server = ReferenceIdentityService()
    let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
    try await client.start()
    let responder = ScriptedResponder([
        .browserRegistration(.respondWith { try server.logIn(at: $0.url, as: "alice") }),
        .createPin(.respond("24680")),
    ])
    let result = try await client.registerUser(.default, responder: responder)
    try responder.verify()
    #expect(client.authenticatedUserProfile == result.profile)
}
