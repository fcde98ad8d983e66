import Foundation
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// What one explored path did and what went wrong on it.
struct PathReport: Sendable {
    let trace: [ChoicePoint]
    let records: [TransitionRecord]
    let violations: [String]
}

/// Runs one path of a flow case on a fresh client and reference server, then checks the
/// invariants every path must keep (see ``check(_:_:_:)``).
struct PathRun {
    let flow: FlowCase
    let prefix: [Int]
    /// Even paths use the delegate (or completion) API, odd ones the async API.
    let usesDelegate: Bool

    func run() async -> PathReport {
        let chooser = Chooser(prefix: prefix)
        let control = PathControl(chooser: chooser)
        do {
            let world = try await PathWorld(control: control, flow: flow)
            let profile = try await world.prepare(flow)
            return await explore(world, profile: profile)
        } catch {
            return PathReport(trace: chooser.trace, records: [], violations: ["set-up failed: \(error)"])
        }
    }

    private func explore(_ world: PathWorld, profile: UserProfile?) async -> PathReport {
        let control = world.control
        let records = Locked<[TransitionRecord]>([])
        let observation = world.client.transitionLog.observe { record in
            records.withLock { $0.append(record) }
            control.notes.withLock { $0.state = record.transition.target }
        }
        let before = Snapshot(world, profile: profile)
        let host = ExploringHost(
            control: control, reference: world.reference, createdPin: flow.kind == .changePin ? Secrets.newPin : Secrets.pin,
            requestsExpire: flow.isMobileAuth,
            partialSignIn: [.partialRegistration, .statelessPartialRegistration].contains(flow.kind),
            intermediateFirst: flow.setup == .intermediateRedirect)
        control.notes.withLock { $0.armed = true }
        let outcome = await start(world, profile: profile, host: host)
        if flow.setup == .refreshInFlight {
            // The refresh lands now, after the session ended; what it does is not explored.
            control.notes.withLock { $0.armed = false }
            control.clock.advance(by: FlowCase.Setup.refreshLatency)
        }
        for answer in control.heldAnswers.current where answer() {
            control.violation("a challenge held until the flow ended accepted a late answer")
        }
        await control.settle()
        control.notes.withLock { $0.armed = false }
        observation.cancel()
        let taken = records.current
        check(world, before: before, outcome: outcome, host: host, records: taken, profile: profile)
        if flow.setup == .refreshInFlight, let profile { await checkRefreshLanding(world, profile: profile) }
        await checkClientAcceptsNewFlow(world)
        return PathReport(trace: control.chooser.trace, records: taken, violations: control.notes.withLock { $0.violations })
    }

    /// Starts the flow through the delegate or the async API and waits for its outcome.
    private func start(_ world: PathWorld, profile: UserProfile?, host: ExploringHost) async -> ExploringHost.Outcome {
        let client = world.client
        let subject = profile ?? UserProfile(profileId: "none")
        if flow.kind == .resumedRegistration { handOverRedirect(world) }
        let source = world.control.notes.withLock { $0.mobileAuthSource } ?? .otp("none")
        if usesDelegate {
            switch flow.kind {
            case .browserRegistration: client.registerUser(.provider(ReferenceIdentityService.browserProvider), delegate: host)
            case .stepUpRegistration: client.registerUser(Self.stepUp, delegate: host)
            case .resumedRegistration: client.registerUser(.resume, delegate: host)
            case .oneStepRegistration: client.registerUser(.provider(world.oneStep), delegate: host)
            case .twoStepRegistration: client.registerUser(.provider(world.twoStep), delegate: host)
            case .pinAuthentication: client.authenticateUser(subject, authenticator: .pin, delegate: host)
            case .biometricAuthentication: client.authenticateUser(subject, authenticator: .biometric, delegate: host)
            case .changePin: client.changePin(delegate: host)
            case .biometricRegistration: client.registerBiometricAuthenticator(for: subject, delegate: host)
            case .logout: client.logout { error in host.finish(error.map { .failure($0) } ?? .success) }
            case .providerLogout: client.providerLogout(delegate: host)
            case .deregistration: client.deregister(subject) { error in host.finish(error.map { .failure($0) } ?? .success) }
            case .statelessRegistration: client.registerUser(.provider(ReferenceIdentityService.browserProvider).stateless(), delegate: host)
            case .statelessCustomRegistration: client.registerUser(.provider(world.oneStep).stateless(), delegate: host)
            case .partialRegistration: client.registerUser(.provider(ReferenceIdentityService.browserProvider), delegate: host)
            case .statelessPartialRegistration: client.registerUser(.provider(ReferenceIdentityService.browserProvider).stateless(), delegate: host)
            case .credentialsRegistration: client.registerUser(.provider(world.credentials), delegate: host)
            case .statelessCredentialsRegistration: client.registerUser(.provider(world.credentials).stateless(), delegate: host)
            case .tokenExchangeRegistration: client.registerUser(.externalToken(Self.googleToken), delegate: host)
            case .statelessTokenExchangeRegistration: client.registerUser(.externalToken(Self.googleToken).stateless(), delegate: host)
            case .mobileAuthConfirmation, .mobileAuthPin, .mobileAuthBiometric, .mobileAuthOTP: client.handleMobileAuthRequest(source, delegate: host)
            }
            return await host.outcome()
        }
        let outcome: ExploringHost.Outcome
        do {
            switch flow.kind {
            case .browserRegistration: _ = try await client.registerUser(.provider(ReferenceIdentityService.browserProvider), responder: host)
            case .stepUpRegistration: _ = try await client.registerUser(Self.stepUp, responder: host)
            case .resumedRegistration: _ = try await client.registerUser(.resume, responder: host)
            case .oneStepRegistration: _ = try await client.registerUser(.provider(world.oneStep), responder: host)
            case .twoStepRegistration: _ = try await client.registerUser(.provider(world.twoStep), responder: host)
            case .pinAuthentication: _ = try await client.authenticateUser(subject, authenticator: .pin, responder: host)
            case .biometricAuthentication: _ = try await client.authenticateUser(subject, authenticator: .biometric, responder: host)
            case .changePin: _ = try await client.changePin(responder: host)
            case .biometricRegistration: try await client.registerBiometricAuthenticator(for: subject, responder: host)
            case .logout: try await client.logout()
            case .providerLogout: try await client.providerLogout(responder: host)
            case .deregistration: try await client.deregister(subject)
            case .statelessRegistration: _ = try await client.registerUser(.provider(ReferenceIdentityService.browserProvider).stateless(), responder: host)
            case .statelessCustomRegistration: _ = try await client.registerUser(.provider(world.oneStep).stateless(), responder: host)
            case .partialRegistration: _ = try await client.registerUser(.provider(ReferenceIdentityService.browserProvider), responder: host)
            case .statelessPartialRegistration:
                _ = try await client.registerUser(.provider(ReferenceIdentityService.browserProvider).stateless(), responder: host)
            case .credentialsRegistration: _ = try await client.registerUser(.provider(world.credentials), responder: host)
            case .statelessCredentialsRegistration: _ = try await client.registerUser(.provider(world.credentials).stateless(), responder: host)
            case .tokenExchangeRegistration: _ = try await client.registerUser(.externalToken(Self.googleToken), responder: host)
            case .statelessTokenExchangeRegistration: _ = try await client.registerUser(.externalToken(Self.googleToken).stateless(), responder: host)
            case .mobileAuthConfirmation, .mobileAuthPin, .mobileAuthBiometric, .mobileAuthOTP:
                _ = try await client.handleMobileAuthRequest(source, responder: host)
            }
            outcome = .success
        } catch {
            outcome = .failure(error)
        }
        host.finish(outcome)
        return outcome
    }

    static let googleToken = ExternalToken(provider: "google", token: Secrets.externalToken)

    /// The step-up sign-in: `acr_values` required and `max_age`.
    static let stepUp = RegistrationRequest.provider(ReferenceIdentityService.browserProvider).with(
        AuthorizationParameters(acrValues: ["urn:identityflow:mfa"], maxAge: 600))

    /// How the new process meets its checkpoint: the redirect arrives before the resume (the app
    /// was opened by it), after it (the flow asks for the browser again), after a URL of no flow,
    /// or too late (expired).
    private func handOverRedirect(_ world: PathWorld) {
        let control = world.control
        let choice = control.choose("resume", among: ["redirectFirst", "resumeFirst", "foreignURLFirst", "expired"])
        switch choice {
        case "redirectFirst", "expired":
            guard let redirect = try? world.checkpointedRedirect() else { return control.violation("no checkpoint to resume") }
            if !world.client.handleRedirect(redirect) { control.violation("handleRedirect refused the checkpointed registration's redirect") }
            control.notes.withLock { $0.handedOver = redirect }
            if choice == "expired" { try? world.expireCheckpoint() }
        case "foreignURLFirst":
            if world.client.handleRedirect(URL(string: "identityflow-test://callback?code=C&state=another-flow")!) {
                control.violation("handleRedirect took a redirect of no flow")
            }
        default: break
        }
    }

    // MARK: - Invariants

    /// What the device and the server held before the flow.
    struct Snapshot {
        let profiles: Set<UserProfile>
        let accessTokens: Int
        let enrolled: Set<UserProfile>

        init(_ world: PathWorld, profile: UserProfile?) {
            profiles = world.client.userProfiles
            accessTokens = world.reference.activeAccessTokenCount
            enrolled = world.reference.enrolledProfiles
        }
    }

    private func check(
        _ world: PathWorld, before: Snapshot, outcome: ExploringHost.Outcome, host: ExploringHost, records: [TransitionRecord], profile: UserProfile?
    ) {
        let control = world.control
        let notes = control.notes.current
        if host.all.count != 1 { control.violation("\(host.all.count) terminal outcomes instead of one") }
        if world.client.isFlowRunning { control.violation("a flow is still running after the outcome") }
        for record in records where !record.isDeclared { control.violation("undeclared transition: \(record)") }
        for text in records.map(\.description) + world.logs.messages {
            if let secret = Secrets.all.first(where: { Self.contains(text, secret: $0) }) {
                control.violation("secret \(secret) in \(text)")
            }
        }
        if flow.isRegistration, outcome.error != nil {
            if world.client.userProfiles != before.profiles { control.violation("a failed registration left a profile on the device") }
            if !notes.cleanupFaulted {
                if world.reference.activeAccessTokenCount != before.accessTokens {
                    control.violation("a failed registration left an access token on the server")
                }
                if world.reference.enrolledProfiles != before.enrolled { control.violation("a failed registration left a PIN enrolment on the server") }
            }
        }
        // At most one live token set per profile on the device, whatever happened (a cancel just
        // as the server answered included), unless a clean-up call itself failed.
        let profiles = world.client.userProfiles.count + (world.client.authenticatedUserProfile?.isStateless == true ? 1 : 0)
        // Logging out or deregistering "on this device only" (10009, 10003) means the server could not be told.
        let localOnly = [ErrorCode.localLogout, .localDeregistration].contains(outcome.error?.code)
        if !notes.cleanupFaulted, !localOnly, world.reference.activeAccessTokenCount > profiles || world.reference.activeRefreshTokenCount > profiles {
            control.violation(
                "\(world.reference.activeAccessTokenCount) access and \(world.reference.activeRefreshTokenCount) refresh tokens live on the server for \(profiles) profile(s)"
            )
        }
        if flow.kind == .stepUpRegistration, flow.setup == .stepUpRefused, outcome.error == nil {
            control.violation("a sign-in with another acr than the one required was kept")
        }
        if flow.kind == .providerLogout {
            // Whatever the browser, the provider or the network did, the session is over on the device.
            if world.client.authenticatedUserProfile != nil { control.violation("a provider logout left the user logged in") }
            if outcome.error == nil, world.reference.providerLogouts.isEmpty { control.violation("a provider logout succeeded unconfirmed") }
            if let code = outcome.error?.code, ![.providerLogoutUnconfirmed, .providerLogoutNotSupported].contains(code) {
                control.violation("a provider logout failed with \(code)")
            }
        }
        if flow.kind == .resumedRegistration {
            if outcome.error?.code == .registrationCheckpointExpired, world.client.userProfiles != before.profiles {
                control.violation("an expired checkpoint left a profile")
            }
            if !notes.storageRemoveFailed, (try? world.storage.data(forKey: "identityflow.checkpoint.registration")) ?? nil != nil {
                control.violation("the checkpoint outlived its flow")
            }
            if let redirect = notes.handedOver, world.client.handleRedirect(redirect) {
                control.violation("a replayed redirect was taken after the flow ended")
            }
        }
        if flow.asksForPin, let profile {
            let lockedOut = outcome.error?.code == .userDeregistered
            // A profile the server already forgot is deleted as soon as the server says so.
            let limit = flow.setup == .lastAttempt ? 1 : 2
            var expected = flow.setup == .unknownToServer ? lockedOut : notes.wrongPinsChecked >= limit
            // Device mode counts before it checks: when the write of a right PIN's reset fails, the
            // stored count stays at the limit and the next attempt is the lockout (DeviceModeTests).
            if flow.setup == .deviceMode, expected, outcome.error?.code == .dataStorageNotAvailable { expected = lockedOut }
            if lockedOut != expected {
                control.violation("lockout \(lockedOut ? "after" : "missing after") \(notes.wrongPinsChecked) wrong PIN(s) checked (limit \(limit))")
            }
            if lockedOut, world.client.userProfiles.contains(profile) { control.violation("the locked-out profile is still on the device") }
        }
    }

    /// A refresh that landed after its session ended kept nothing live that nobody holds. A
    /// profile gone from the device holds nothing, so nothing may stay live. A profile still here
    /// (after a logout; after a session end or a removal whose storage write failed) either logs
    /// in with the PIN and calls the API (its vault holds the rotated refresh token), or says its
    /// sign-in ended, and then nothing stays live either.
    private func checkRefreshLanding(_ world: PathWorld, profile: UserProfile) async {
        let control = world.control
        let what = flow.kind.rawValue
        guard world.client.userProfiles.contains(profile) else {
            if world.reference.activeRefreshTokenCount != 0 { control.violation("a refresh that landed after the \(what) left its refresh token live") }
            return
        }
        do {
            try await Self.logInCallingTheAPI(world, profile)
        } catch  where error.code == .signInEnded {
            if flow.kind == .logout { control.violation("a refresh that landed after the logout ended the sign-in") }
            if world.reference.activeRefreshTokenCount != 0 { control.violation("the sign-in ended after the \(what), and a refresh token stayed live") }
        } catch {
            // A session end whose storage write failed left the vault's last sign-in: the first
            // refresh finds it refused and ends it, and the next PIN login says so.
            if control.notes.current.storageWriteFailed, await Self.pinLoginSaysSignInEnded(world, profile) { return }
            control.violation("after a refresh landed behind the \(what), the next PIN login could not call the API: \(error)")
        }
    }

    /// A PIN login, then a refresh.
    private static func logInCallingTheAPI(_ world: PathWorld, _ profile: UserProfile) async throws(IdentityFlowError) {
        _ = try await world.client.authenticateUser(
            profile,
            answering: { challenge in
                if case .pin(let prompt) = challenge { prompt.sender.respond(with: Secrets.pin, to: prompt) } else { challenge.cancel() }
            })
        _ = try await world.client.freshAccessToken(minimumValidity: 86_400)
    }

    /// Whether the next PIN login fails with ``ErrorCode/signInEnded``.
    private static func pinLoginSaysSignInEnded(_ world: PathWorld, _ profile: UserProfile) async -> Bool {
        do throws(IdentityFlowError) {
            try await logInCallingTheAPI(world, profile)
            return false
        } catch { return error.code == .signInEnded }
    }

    /// The client must accept a new flow at once: a logout (or its refusal) must not be `actionAlreadyInProgress`.
    private func checkClientAcceptsNewFlow(_ world: PathWorld) async {
        do { try await world.client.logout() } catch  where error.code == .actionAlreadyInProgress {
            world.control.violation("the client refused a new flow after the outcome")
        } catch {}
    }

    /// Whether `text` holds `secret` as a whole word (not inside a longer random identifier).
    static func contains(_ text: String, secret: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: secret, range: searchRange) {
            let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : " "
            let after = found.upperBound < text.endIndex ? text[found.upperBound] : " "
            // `#` too: flow ids print as `flow#11111`, which is not the PIN 11111.
            let boundary: (Character) -> Bool = { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "#") }
            if boundary(before) && boundary(after) { return true }
            searchRange = found.upperBound..<text.endIndex
        }
        return false
    }
}
