import Foundation
import IdentityFlowTesting
import Testing

@Suite("RegistrationRequest: one value for every way to register")
struct RegistrationRequestTests {
    @Test("the factories say how the user signs in; stateless() and withScopes(_:) change only their part")
    func factories() {
        let custom = IdentityProvider(identifier: "custom", name: "Custom", kind: .custom(.oneStep))
        let token = ExternalToken(provider: "google", token: "secret-google-token")
        #expect(RegistrationRequest.default == RegistrationRequest(signIn: .serverDefault, scopes: nil, isStateless: false))
        #expect(RegistrationRequest.provider(nil) == .default)
        #expect(RegistrationRequest.provider(custom, scopes: ["openid"]) == RegistrationRequest(signIn: .identityProvider(custom), scopes: ["openid"]))
        #expect(RegistrationRequest.externalToken(token).signIn == .externalToken(token))
        #expect(RegistrationRequest.resume.signIn == .resume)
        #expect(RegistrationRequest.stateless == RegistrationRequest.default.stateless())
        let statelessCustom = RegistrationRequest.provider(custom).stateless().withScopes(["openid", "profile"])
        #expect(statelessCustom == RegistrationRequest(signIn: .identityProvider(custom), scopes: ["openid", "profile"], isStateless: true))
    }

    @Test("its description names the sign-in and leaves an external token out")
    func descriptionRedactsTheToken() {
        let request = RegistrationRequest.externalToken(ExternalToken(provider: "google", token: "secret-google-token")).stateless()
        #expect(!request.description.contains("secret-google-token"))
        #expect(request.description.contains("google") && request.description.contains("stateless"))
    }

    @Test("a resume takes scopes and mode from its checkpoint: setting either fails with requestInvalid, in every style")
    func resumeRefusesScopesAndStateless() async throws {
        let server = ReferenceIdentityService()
        let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
        try await client.start()
        for request in [RegistrationRequest.resume.withScopes(["openid"]), RegistrationRequest.resume.stateless()] {
            let responded = await Result { () async throws(IdentityFlowError) in try await client.registerUser(request, responder: ScriptedResponder([])) }
            #expect(responded.failure?.code == .requestInvalid)
            let answering = await Result { () async throws(IdentityFlowError) in try await client.registerUser(request) { $0.cancel() } }
            #expect(answering.failure?.code == .requestInvalid)
            let delegate = ScriptedResponder([])
            client.registerUser(request, delegate: delegate)
            #expect(await delegate.outcome().error?.code == .requestInvalid)
        }
        // Without flags, a resume with nothing checkpointed is the resume's own error.
        let nothing = ScriptedResponder([])
        client.registerUser(.resume, delegate: nothing)
        #expect(await nothing.outcome().error?.code == .registrationCheckpointNotFound)
    }

    @Test("a flow started from an actor calls its delegate back on that actor, in order")
    func callbacksOnTheStartingActor() async throws {
        let server = ReferenceIdentityService()
        let client = UserClient(configuration: .testing(), service: server, storage: InMemoryStorage())
        try await client.start()
        let screen = Screen()
        let recorder = ActorBoundRecorder(screen: screen, server: server)
        await screen.register(with: client, delegate: recorder)
        #expect(await recorder.outcome() == "didRegisterUser")
        #expect(await screen.callbacks == ["didStartRegistration", "browser", "createPin", "didRegisterUser"])
    }
}

/// An actor of the host's own that starts a registration.
actor Screen {
    var callbacks: [String] = []

    func register(with client: UserClient, delegate: ActorBoundRecorder) {
        client.registerUser(.default, delegate: delegate)
    }

    func record(_ callback: String) { callbacks.append(callback) }
}

/// A delegate that records into `screen` with `assumeIsolated`, which stops the process unless the
/// callback runs on `screen`'s executor.
final class ActorBoundRecorder: RegistrationDelegate, Sendable {
    let screen: Screen
    let server: ReferenceIdentityService
    private let done = ScriptedResponder([])

    init(screen: Screen, server: ReferenceIdentityService) {
        self.screen = screen
        self.server = server
    }

    func outcome() async -> String {
        switch await done.outcome() {
        case .registered: "didRegisterUser"
        case let other: "\(other)"
        }
    }

    private func note(_ callback: String) { screen.assumeIsolated { $0.record(callback) } }

    func userClient(_ client: UserClient, didStartRegistrationOf profile: UserProfile) { note("didStartRegistration") }

    func userClient(_ client: UserClient, didReceiveBrowserRegistrationChallenge challenge: BrowserRegistrationChallenge) {
        note("browser")
        guard let redirect = try? server.logIn(at: challenge.url) else { return _ = challenge.sender.cancel(challenge) }
        challenge.sender.respond(with: redirect, to: challenge)
    }

    func userClient(_ client: UserClient, didReceiveCustomRegistrationFinishChallenge challenge: CustomRegistrationChallenge) {
        challenge.sender.cancel(challenge)
    }

    func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge) {
        note("createPin")
        challenge.sender.respond(with: "24680", to: challenge)
    }

    func userClient(_ client: UserClient, didRegisterUser profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?) {
        note("didRegisterUser")
        done.userClient(client, didRegisterUser: profile, identityProvider: identityProvider, info: info)
    }

    func userClient(_ client: UserClient, didFailToRegisterUserWith identityProvider: IdentityProvider?, error: IdentityFlowError) {
        note("didFail")
        done.userClient(client, didFailToRegisterUserWith: identityProvider, error: error)
    }
}
