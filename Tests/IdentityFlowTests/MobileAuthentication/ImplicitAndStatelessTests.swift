import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting

/// Implicit authentication and stateless registration through the public API.
@Suite("Implicit authentication and stateless registration")
struct ImplicitAndStatelessTests {
    @Test("a registered profile gets an implicit token without interaction; it is not a login")
    func implicitToken() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        #expect(harness.server.isImplicitAuthenticationEnrolled(profile), "the registration enrolled the implicit key")
        try await harness.client.logout()
        let implicit = try await harness.client.implicitlyAuthenticate(profile, scopes: ["read"])
        #expect(implicit.profile == profile && implicit.tokens.scopes == ["read"] && implicit.tokens.refreshToken == nil)
        #expect(harness.server.acceptsAccessToken(implicit.tokens.accessToken.value))
        #expect(harness.client.authenticatedUserProfile == nil, "implicit authentication logged the user in")
        #expect(!"\(implicit)".contains(implicit.tokens.accessToken.value))
    }

    @Test("PIN-protected scopes, empty scopes and unknown profiles are refused")
    func implicitRefusals() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        do {
            _ = try await harness.client.implicitlyAuthenticate(profile, scopes: ["read", "payments"])
            Issue.record("a non-implicit scope was granted")
        } catch { #expect(error.code == .requestInvalid && error.oauthError == "invalid_scope") }
        do { _ = try await harness.client.implicitlyAuthenticate(profile, scopes: []) } catch { #expect(error.code == .requestInvalid) }
        do { _ = try await harness.client.implicitlyAuthenticate(UserProfile(profileId: "nobody"), scopes: ["read"]) } catch {
            #expect(error.code == .requestInvalid)
        }
    }

    @Test("a profile deregistered on the server fails with 9003 and is removed from the device")
    func implicitDeregistered() async throws {
        let harness = try await Harness.make()
        let profile = try await AuthenticationFlowTests.registered(harness)
        harness.server.removeProfile(profile)
        do {
            _ = try await harness.client.implicitlyAuthenticate(profile, scopes: ["read"])
            Issue.record("a deregistered profile got an implicit token")
        } catch {
            #expect(error.code == .userDeregistered && error.userProfile == profile)
        }
        #expect(!harness.client.userProfiles.contains(profile))
    }

    @Test("a server that never enrolled the key says 11018; enrolling while logged in fixes it")
    func implicitNotEnrolled() async throws {
        let harness = try await Harness.make()
        harness.server.inject(.serverError, into: .enrolImplicitAuthentication)
        let profile = try await AuthenticationFlowTests.registered(harness)
        #expect(!harness.server.isImplicitAuthenticationEnrolled(profile), "the failed enrolment did not fail the registration")
        do { _ = try await harness.client.implicitlyAuthenticate(profile, scopes: ["read"]) } catch { #expect(error.code == .implicitAuthNotEnrolled) }
        try await harness.client.enrollImplicitAuthentication()
        _ = try await harness.client.implicitlyAuthenticate(profile, scopes: ["read"])
        await confirmation("the completion form calls back once") { called in
            await withCheckedContinuation { continuation in
                harness.client.implicitlyAuthenticate(profile, scopes: ["read"]) { result in
                    #expect((try? result.get())?.profile == profile)
                    called()
                    continuation.resume()
                }
            }
        }
    }

    @Test("a stateless browser registration asks no PIN, stores nothing, and ends at logout")
    func statelessBrowser() async throws {
        let harness = try await Harness.make()
        let responder = ScriptedResponder([harness.browserLogin()])
        let result = try await harness.client.registerUser(.stateless, responder: responder)
        try responder.verify()
        #expect(result.profile.isStateless)
        #expect(harness.client.authenticatedUserProfile == result.profile)
        #expect(harness.client.userProfiles.isEmpty)
        let written = try harness.storage.keys()
        #expect(written.isEmpty, "a stateless registration wrote \(written)")
        #expect(harness.client.isValidAccessToken)
        #expect(harness.server.enrolledProfiles.isEmpty)
        try await harness.client.logout()
        #expect(harness.client.authenticatedUserProfile == nil)
        #expect(harness.server.activeAccessTokenCount == 0)
    }

    @Test("a stateless custom registration with a 4xxx retry, through the delegate API")
    func statelessCustomDelegate() async throws {
        let harness = try await Harness.make()
        let provider = harness.customProvider()
        let responder = ScriptedResponder([
            .customRegistrationFinish(.respond("status:4001")),
            .customRegistrationFinish(.respond("name=Ada"), expecting: .customRegistrationFailure),
        ])
        harness.client.registerUser(.provider(provider).stateless(), delegate: responder)
        let outcome = await responder.outcome()
        try responder.verify()
        guard case .registered(let result) = outcome else { Issue.record("\(outcome)"); return }
        #expect(result.profile.isStateless && result.info?.status == 2000)
        #expect(try harness.storage.keys().isEmpty)
    }

    @Test("a stateless user cannot change a PIN, register biometrics or enrol device keys (9033); a new registration ends its session")
    func statelessRefusals() async throws {
        let harness = try await Harness.make()
        let stateless = try await harness.client.registerUser(.stateless, responder: ScriptedResponder([harness.browserLogin()])).profile
        do { _ = try await harness.client.changePin(responder: ScriptedResponder([])) } catch { #expect(error.code == .statelessUser) }
        do { try await harness.client.registerBiometricAuthenticator(for: stateless, responder: ScriptedResponder([])) } catch {
            #expect(error.code == .statelessUser)
        }
        do { _ = try await harness.client.authenticateUser(stateless, responder: ScriptedResponder([])) } catch { #expect(error.code == .statelessUser) }
        do { try await harness.client.enrollMobileAuthentication() } catch { #expect(error.code == .statelessUser) }
        do { _ = try await harness.client.implicitlyAuthenticate(stateless, scopes: ["read"]) } catch { #expect(error.code == .statelessUser) }
        let registered = try await AuthenticationFlowTests.registered(harness)
        #expect(harness.client.authenticatedUserProfile == registered)
        #expect(harness.client.userProfiles == [registered])
        // The replaced stateless session is revoked in the background.
        for _ in 0..<200 where harness.server.activeAccessTokenCount > 1 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(harness.server.activeAccessTokenCount == 1)
    }
}
