import Foundation
@_spi(Integrator) import IdentityFlow

/// The demo's last two sections: the second user confirms a pushed request with a PIN step-up,
/// denies another, and gets an implicit token.
extension DemoScenario {
    func confirmPushRequests(
        client: UserClient, server: ReferenceIdentityService, profile: UserProfile, pin: String,
        transcript: DemoTranscript
    ) async -> [Result<MobileAuthResult, IdentityFlowError>] {
        do {
            transcript.note("try await client.enrollMobileAuthentication(); client.enrollPushMobileAuthentication(deviceToken:)")
            try await client.enrollMobileAuthentication()
            try await client.enrollPushMobileAuthentication(deviceToken: Data([0xA1, 0xB2, 0xC3, 0xD4]))
        } catch {
            transcript.line("error", "the enrolment failed: " + DemoTranscript.explain(error))
            return [.failure(error)]
        }
        var results: [Result<MobileAuthResult, IdentityFlowError>] = []
        for (message, type, accept) in [
            ("Log in to shop.example from a new browser?", MobileAuthType.pin, true),
            ("Pay 500 EUR to an unknown shop?", MobileAuthType.confirmation, false),
        ] {
            let push: MobileAuthPush
            do { push = try server.sendMobileAuthRequest(to: profile, message: message, type: type) } catch {
                results.append(.failure(error))
                continue
            }
            transcript.line(
                "server",
                "sends a \(type.rawValue) request; the push carries ids only: {\"identityflow\": {\"request\": \"\(push.requestId)\", \"profile\": \"\(profile.profileId)\"}}"
            )
            transcript.note("try await client.handleMobileAuthRequest(.push(push), responder:)")
            let result: Result<MobileAuthResult, IdentityFlowError>
            do {
                result = .success(
                    try await client.handleMobileAuthRequest(
                        .push(push),
                        responder: ClosureResponder { challenge in
                            transcript.challenge(challenge)
                            switch challenge {
                            case .mobileAuthConfirmation(let confirmation):
                                transcript.line("message", confirmation.request.message)
                                transcript.answer(accept ? "accept" : "deny")
                                confirmation.sender.respond(with: accept, to: confirmation)
                            case .pin(let entry):
                                transcript.answer("PIN <redacted>")
                                entry.sender.respond(with: pin, to: entry)
                            default:
                                transcript.answer("cancel")
                                challenge.cancel()
                            }
                        }))
            } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let handled):
                transcript.line(
                    "result", handled.accepted ? "accepted, stepped up with \(handled.authenticator?.name ?? "nothing")" : "denied (an outcome, not an error)")
            case .failure(let error):
                transcript.line("result", "failed: " + DemoTranscript.explain(error))
            }
            results.append(result)
        }
        return results
    }

    func fetchImplicitToken(client: UserClient, profile: UserProfile, transcript: DemoTranscript) async -> Result<ImplicitAuthentication, IdentityFlowError> {
        transcript.note("try await client.implicitlyAuthenticate(profile, scopes: [\"read\"]): no challenge, no login")
        do {
            let implicit = try await client.implicitlyAuthenticate(profile, scopes: ["read"])
            transcript.line("result", "access token <redacted> for \(implicit.tokens.scopes), no refresh token: \(implicit.tokens.refreshToken == nil)")
            return .success(implicit)
        } catch {
            transcript.line("result", "failed: " + DemoTranscript.explain(error))
            return .failure(error)
        }
    }
}
