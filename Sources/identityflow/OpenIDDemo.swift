import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_spi(Integrator) import IdentityFlow

/// `identityflow demo --issuer URL --client-id ID --redirect-uri URI`: a browser registration,
/// a PIN login and a logout against a real OpenID Connect provider over HTTP. The person opens
/// the printed URL, signs in, and pastes the URL the browser was redirected to.
///
/// A provider without IdentityFlow's extension API (any stock provider) runs in device mode:
/// the same flows, the PIN checked and the tokens sealed on the device; `--device` chooses device
/// mode without asking the provider. `--sign-in-only` shows the OpenID Connect part alone,
/// straight through the service.
///
/// With `--storage DIR` the client keeps its profiles and the registration checkpoint in a
/// ``FileStorage``: a demo killed while it waits for the redirect continues in the next run.
struct OpenIDDemo {
    let configuration: HTTPServiceConfiguration
    var storageDirectory: URL?
    var signInOnly = false
    /// Device mode whatever the provider serves (`--device`): the extension API is not probed.
    var forceDevice = false

    func run() async -> Int32 {
        section("IdentityFlow demo against \(configuration.issuer?.absoluteString ?? configuration.discoveryURL?.absoluteString ?? "?")")
        line("client", "\(configuration.clientID), redirect URI \(configuration.redirectURI)")
        line("", "Secrets (PINs, codes, tokens) print as <redacted>; transitions show what the engine does.")
        let client: UserClient
        let service: HTTPIdentityService
        let launch: LaunchReport
        do {
            service = try HTTPIdentityService(configuration: configuration)
            if signInOnly { return await showSignIn(service) }
            var clientConfiguration = ClientConfiguration(
                redirectURI: configuration.redirectURI, defaultScopes: configuration.scopes,
                callbackExecutor: .immediate)
            if forceDevice {
                clientConfiguration.authenticators = .device()
                line("mode", "device (--device): the PIN is checked and the provider's tokens are sealed on this device")
                line("", "(docs/device-authenticators.md)")
            } else if try await !service.servesExtensionEndpoints(logger: clientConfiguration.logger) {
                clientConfiguration.authenticators = .device()
                line("mode", "device: the provider has no IdentityFlow extension API, so the PIN is checked and the")
                line("", "provider's tokens are sealed on this device (docs/device-authenticators.md)")
            } else {
                line("mode", "server: the provider serves IdentityFlow's extension API (PIN proof v2)")
            }
            let storage: any SecureStorage =
                try storageDirectory.map { directory throws(IdentityFlowError) in try FileStorage(directory: directory) } ?? InMemoryStorage()
            client = UserClient(configuration: clientConfiguration, service: service, storage: storage)
            launch = try await client.start()
        } catch {
            return fail("could not start", error)
        }
        let observation = client.transitionLog.observe { record in
            print("  transition  \(record)")
        }
        defer { observation.cancel() }

        let provider = IdentityProvider(identifier: "oidc", name: configuration.issuer?.host ?? "OpenID Connect", kind: .browser)
        let profile: UserProfile
        do {
            if let waiting = launch.resumableRegistrations.first {
                section("1. Resume the registration that was waiting for its redirect")
                line("resumable", "\(waiting)")
                if let pasted = await TerminalPrompt.ask("the URL the browser was redirected to", hidden: false),
                    let redirect = URL(string: pasted.trimmingCharacters(in: .whitespaces))
                {
                    line("redirect", client.handleRedirect(redirect) ? "taken by the waiting registration" : "belongs to no registration")
                }
                profile = try await client.registerUser(.resume) { challenge in await Self.answer(challenge) }.profile
            } else {
                section("1. Register through the browser")
                profile = try await client.registerUser(.provider(provider)) { challenge in await Self.answer(challenge) }.profile
            }
            line("result", "registered \(profile)")
        } catch {
            if error.code == .invalidServerResponse || error.code == .requestInvalid {
                line(
                    "note",
                    "the sign-in and code exchange ran; the PIN enrolment endpoint at <issuer origin>/identityflow did not answer as docs/extension-api.openapi.yaml says."
                )
            }
            return fail("registration failed", error)
        }

        section("2. Log in with the PIN")
        do {
            _ = try await client.authenticateUser(profile) { challenge in await Self.answer(challenge) }
            line("result", "authenticated \(profile); access token valid: \(client.isValidAccessToken)")
        } catch {
            return fail("login failed", error)
        }

        if client.configuration.authenticators.isOnDevice, (try? await service.providerMetadata().userinfoEndpoint) != nil {
            section("3. Call an API with the session: userInfo(), the provider's userinfo endpoint")
            do throws(IdentityFlowError) {
                // The library's call: the answer's sub must be the ID token's (OpenID Connect Core §5.3.2).
                let info = try await client.userInfo()
                line("subject", "\(info.subject), the ID token's subject (checked)")
                line("result", "claims: \(info.all.keys.sorted().joined(separator: ", "))")
            } catch {
                return fail("userinfo", error)
            }
        }

        section("\(client.configuration.authenticators.isOnDevice ? 4 : 3). Log out")
        do {
            try await client.logout()
            line("result", client.configuration.authenticators.isOnDevice ? "logged out (the refresh token stays sealed for the next PIN login)" : "logged out")
        } catch  where error.code == .localLogout {
            // The run succeeded; the server could not be told (no revocation endpoint, say).
            line("result", "logged out on this device only: \(error.message)")
        } catch {
            return fail("logout", error)
        }
        return 0
    }

    /// The OpenID Connect part alone: PKCE sign-in, code exchange with ID token validation,
    /// userinfo and revocation, straight through the service.
    private func showSignIn(_ service: HTTPIdentityService) async -> Int32 {
        line("note", "--sign-in-only: the OpenID Connect part alone, through HTTPIdentityService.")
        section("1. Sign in through the browser (PKCE S256, state, nonce)")
        do throws(IdentityFlowError) {
            let request = try AuthorizationRequest(redirectURI: configuration.redirectURI, scopes: configuration.scopes)
            let url = try await service.authorizationURL(for: IdentityProvider(identifier: "oidc", name: "OpenID Connect", kind: .browser), request: request)
            print("  open        \(url.absoluteString)")
            guard let pasted = await TerminalPrompt.ask("the URL the browser was redirected to", hidden: false),
                let redirect = URL(string: pasted.trimmingCharacters(in: .whitespaces))
            else {
                return fail("sign-in", ChallengeAbandonment.flowCancelled)
            }
            let answer = BrowserRedirect.check(redirect, against: request)
            guard case .authorized(let code, let issuer) = answer else {
                return fail("sign-in", answer.failure(expecting: configuration.redirectURI) ?? IdentityFlowError(.unknown))
            }
            try await service.checkAuthorizationResponseIssuer(issuer)
            section("2. Exchange the code and validate the ID token")
            let tokens = try await service.exchangeCode(code, request: request)
            var subject: String?
            if let idToken = tokens.idToken {
                let info = try await service.validateIdToken(idToken, nonce: request.nonce.value)
                line("id token", "\(info)")
                subject = info.subject
            }
            line("tokens", "\(tokens)")
            section("3. Userinfo, then revoke the tokens")
            if let subject {
                // OpenID Connect Core §5.3.2: an answer for another subject is refused, and the
                // session it came with is not left live.
                do throws(IdentityFlowError) {
                    let info = try await service.userInfo(accessToken: tokens.accessToken, subject: subject)
                    line("userinfo", info.all.keys.sorted().joined(separator: ", "))
                } catch {
                    try? await service.revoke(tokens)
                    throw error
                }
            } else {
                line("userinfo", "not asked: without an ID token its sub cannot be checked (OpenID Connect Core §5.3.2)")
            }
            do throws(IdentityFlowError) {
                try await service.revoke(tokens)
                line("result", "signed in, validated and revoked")
            } catch  where error.code == .configurationInvalid {
                // The provider offers no revocation (or not to this public client): the run
                // succeeded, and the logout is local, as UserClient.logout() ends with localLogout.
                line("revoke", "\(error.message)")
                line("result", "signed in and validated; logged out on this device only: the tokens stay valid on the server until they expire")
            }
            return 0
        } catch {
            return fail("OpenID Connect", error)
        }
    }

    /// Answers a challenge from the terminal; end of input cancels it.
    private static func answer(_ challenge: Challenge) async {
        print("  challenge   \(challenge)")
        if let error = challenge.error { print("              ↳ \(error)") }
        switch challenge {
        case .browserRegistration(let browser):
            print("  open        \(browser.url.absoluteString)")
            guard let pasted = await TerminalPrompt.ask("the URL the browser was redirected to", hidden: false),
                let redirect = URL(string: pasted.trimmingCharacters(in: .whitespaces))
            else { return cancel(challenge) }
            print("  answer      redirect <redacted>")
            browser.sender.respond(with: redirect, to: browser)
        case .createPin(let create):
            guard let pin = await TerminalPrompt.ask("choose a \(create.pinLength)-digit PIN", hidden: true) else { return cancel(challenge) }
            print("  answer      PIN <redacted>")
            create.sender.respond(with: pin, to: create)
        case .pin(let entry):
            guard let pin = await TerminalPrompt.ask("your PIN (\(entry.remainingFailureCount) attempts left)", hidden: true) else { return cancel(challenge) }
            print("  answer      PIN <redacted>")
            entry.sender.respond(with: pin, to: entry)
        case .customRegistration, .biometric, .mobileAuthConfirmation, .partialRegistration, .credentials, .providerLogout:
            cancel(challenge)
        }
    }

    private static func cancel(_ challenge: Challenge) {
        print("  answer      cancel")
        challenge.cancel()
    }

    private func fail(_ what: String, _ error: IdentityFlowError) -> Int32 {
        line("failed", "\(what): \(error)")
        return 1
    }

    private func section(_ title: String) {
        print("\n\(title)\n\(String(repeating: "-", count: title.count))")
    }

    private func line(_ label: String, _ text: String) {
        print("  " + label.padding(toLength: 12, withPad: " ", startingAt: 0) + text)
    }
}
