import Foundation
import IdentityFlowTesting
import Testing

/// A challenge that reaches a delegate method the host did not implement ends the flow with an
/// error naming the method, and a warning naming it: a misspelt method is no silent cancel.
@Suite("Unimplemented delegate methods")
struct UnimplementedDelegateMethodTests {
    /// A registration screen whose browser method is misspelt: it compiles, and the protocol's
    /// default is what the challenge reaches.
    final class MisspeltRegistrationScreen: RegistrationDelegate, Sendable {
        let (failures, failed) = AsyncStream<IdentityFlowError?>.makeStream()

        func userClient(_ client: UserClient, didReceiveBrowserChallenge challenge: BrowserRegistrationChallenge) {
            Issue.record("the misspelt method is not a requirement and is never called")
        }

        func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge) {
            challenge.sender.respond(with: "24680", to: challenge)
        }

        func userClient(_ client: UserClient, didRegisterUser profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?) {
            failed.yield(nil)
        }

        func userClient(_ client: UserClient, didFailToRegisterUserWith identityProvider: IdentityProvider?, error: IdentityFlowError) {
            failed.yield(error)
        }
    }

    /// A provider logout screen that implements only the terminal callbacks.
    final class LogoutWithoutPage: ProviderLogoutDelegate, Sendable {
        let (failures, failed) = AsyncStream<IdentityFlowError?>.makeStream()

        func userClient(_ client: UserClient, didLogOutAtProvider profile: UserProfile) { failed.yield(nil) }

        func userClient(_ client: UserClient, didFailProviderLogoutOf profile: UserProfile?, error: IdentityFlowError) {
            failed.yield(error)
        }
    }

    @Test("a misspelt browser method: 9006 naming didReceiveBrowserRegistrationChallenge, and a warning naming it")
    func misspeltBrowserMethod() async throws {
        let harness = try await Harness.make()
        let screen = MisspeltRegistrationScreen()
        harness.client.registerUser(.default, delegate: screen)
        let error = try #require(await screen.failures.first { _ in true } ?? nil)
        #expect(error.code == .actionCancelled)
        #expect(error.message.contains("RegistrationDelegate.userClient(_:didReceiveBrowserRegistrationChallenge:)"), "\(error.message)")
        let warnings = harness.logs.all.filter { $0.level == .warning }.map(\.message)
        #expect(warnings.contains { $0.contains("didReceiveBrowserRegistrationChallenge") }, "\(warnings)")
        #expect(harness.client.userProfiles.isEmpty)
    }

    @Test("an unimplemented logout page: unconfirmed (11063), its underlying error naming the method")
    func unimplementedLogoutPage() async throws {
        let harness = try await Harness.make()
        _ = try await harness.client.registerUser(responder: ScriptedResponder([harness.browserLogin(), .createPin(.respond("24680"))]))
        let screen = LogoutWithoutPage()
        harness.client.providerLogout(delegate: screen)
        let error = try #require(await screen.failures.first { _ in true } ?? nil)
        #expect(error.code == .providerLogoutUnconfirmed)
        let cause = try #require(error.underlying as? IdentityFlowError)
        #expect(cause.code == .actionCancelled)
        #expect(cause.message.contains("ProviderLogoutDelegate.userClient(_:didReceiveProviderLogoutChallenge:)"), "\(cause.message)")
        #expect(harness.logs.all.contains { $0.level == .warning && $0.message.contains("didReceiveProviderLogoutChallenge") })
        #expect(harness.client.authenticatedUserProfile == nil)
    }
}
