import Foundation
import Statechart

/// Performs a ``RegistrationMachine``'s effects: server calls, challenges, storage, results.
final class RegistrationFlow: FlowPerformer {
    typealias Machine = RegistrationMachine

    let engine: FlowEngine<RegistrationMachine>
    private let steps: RegistrationSteps
    private let context: RegistrationMachine.Context
    private let host: FlowHost<RegistrationMachine.Context, RegistrationResult>

    /// `started` for a new registration, `resumed` for one continued from its checkpoint.
    let startEvent: RegistrationMachine.Event
    /// What the registration's steps learnt on the way, under one lock (one heap block per flow).
    private let learnt = Locked(Learnt())

    private struct Learnt: Sendable {
        /// The identity app for the browser challenge, asked for with the authorization URL (not
        /// checkpointed: a resumed registration offers the browser only).
        var appLink: IdentityAppLink?
        /// The PIN key this registration derived (in memory only), kept from before its enrolment
        /// is sent: storing the profile hands it to the session, and discarding the registration
        /// proves with it, also when a cancel overtook the enrolment's answer.
        var pinKey = ProvenPinKey.none
        /// In device mode, the vault its enrolment sealed, stored with the profile (boxed: the
        /// lock's block stays small while the flow waits for the browser).
        var vault: Box<DeviceVault>?
        /// The new profile's DPoP key (in memory; checkpointed where it may be written), created
        /// with the authorization request or taken from the checkpoint of a resumed registration.
        var proofKey: DPoPKey?
    }

    /// A registration that makes its I/O through `steps`.
    /// - Parameters:
    ///   - steps: The registration's server calls, checkpoint, enrolment and storage.
    ///   - id: The flow's id.
    ///   - context: What the registration is about.
    ///   - host: Where challenges and the outcome go.
    ///   - startEvent: `started`, or `resumed` from a checkpoint.
    ///   - proofKey: A resumed registration's DPoP key, from its checkpoint.
    init(
        steps: RegistrationSteps, id: FlowID, context: RegistrationMachine.Context, host: FlowHost<RegistrationMachine.Context, RegistrationResult>,
        startEvent: RegistrationMachine.Event = .started, proofKey: DPoPKey? = nil
    ) {
        self.steps = steps
        self.context = context
        self.host = host
        self.startEvent = startEvent
        self.engine = FlowEngine(id: id, machine: RegistrationMachine(context: context), environment: steps.dependencies.environment)
        learnt.withLock { $0.proofKey = proofKey }
    }

    private var profile: UserProfile { context.profile }
    private var provider: IdentityProvider { context.provider }

    func perform(_ effect: RegistrationMachine.Effect) -> EffectWork<RegistrationMachine.Event> {
        switch effect {
        case .reportStarted:
            host.started(context)
            return .done
        case .buildAuthorizationURL:
            let steps = self.steps, context = self.context, learnt = self.learnt, kept = learnt.withLock { $0.proofKey }
            return engine.call { () throws(IdentityFlowError) in
                let (url, app, proofKey) = try await steps.authorizationURL(for: context, reusing: kept)
                learnt.withLock { learnt in
                    learnt.appLink = app
                    learnt.proofKey = proofKey
                }
                return .authorizationURLBuilt(url)
            }
        case .saveCheckpoint(let url) where context.provider.kind != .browser:
            // A sign-in continued in the browser after a password or token exchange: nothing to
            // resume from (the autologin token is single-use), so no checkpoint.
            return .run { .checkpointSaved(url) }
        case .saveCheckpoint(let url):
            let steps = self.steps, context = self.context, proofKey = learnt.withLock { $0.proofKey }
            return engine.call { () throws(IdentityFlowError) in
                try steps.saveCheckpoint(of: context, authorizationURL: url, proofKey: proofKey)
                return .checkpointSaved(url)
            }
        case .emitBrowserChallenge(let url):
            emitBrowserChallenge(url)
            return .done
        case .deliverRedirect(let url):
            return .run { .redirectReceived(url) }
        case .exchangeCode(let code, let issuer):
            // The code is single-use: from here on the checkpoint could not serve again.
            steps.deleteCheckpoint(of: profile, flow: engine.id)
            let context = self.context, steps = self.steps, proofKey = learnt.withLock { $0.proofKey }
            return engine.call { () throws(IdentityFlowError) in
                guard let request = context.authorization else { throw IdentityFlowError(.invalidIdentityProvider) }
                return Self.checked(
                    try await steps.exchangeCode(code, issuer: issuer, request: request, proofKey: proofKey), against: request, now: steps.configuration.now())
            }
        case .exchangeSession(let session):
            // The session is single-use: from here on the checkpoint could not serve again.
            steps.deleteCheckpoint(of: profile, flow: engine.id)
            let context = self.context, steps = self.steps
            return engine.call { () throws(IdentityFlowError) in
                guard let request = context.authorization else { throw IdentityFlowError(.invalidIdentityProvider) }
                return Self.checked(try await steps.exchangeSession(session, request: request), against: request, now: steps.configuration.now())
            }
        case .emitCustomRegistrationChallenge(let step, let info, let error):
            emitCustomChallenge(step, info: info, error: error)
            return .done
        case .sendCustomData(let step, let session, let data):
            let provider = self.provider, steps = self.steps
            return engine.call { () throws(IdentityFlowError) in
                .customAnswerReceived(try await steps.sendCustomData(step, provider: provider, session: session, data: data))
            }
        case .emitCredentialsChallenge(let error):
            let ticket = engine.ticket("CredentialsChallenge", answered: RegistrationMachine.Event.credentialsProvided)
            host.challenge(.credentials(CredentialsChallenge(identityProvider: provider, error: error, sender: ticket, releaseObserver: ticket)))
            return .done
        case .sendCredentials(let credentials):
            let steps = self.steps, context = self.context
            return engine.call { () throws(IdentityFlowError) in .credentialsAnswered(try await steps.sendCredentials(credentials, for: context)) }
        case .exchangeExternalToken:
            let steps = self.steps, context = self.context
            return engine.call { () throws(IdentityFlowError) in .credentialsAnswered(try await steps.exchangeExternalToken(for: context)) }
        case .buildAutologinURL(let autologinToken):
            let steps = self.steps, context = self.context, learnt = self.learnt
            return engine.call { () throws(IdentityFlowError) in
                let (url, proofKey) = try await steps.autologinURL(autologinToken, for: context)
                learnt.withLock { $0.proofKey = proofKey }
                return .authorizationURLBuilt(url)
            }
        case .emitPartialRegistrationChallenge(let identifier, let error):
            // The redirect is spent: the checkpoint could not serve again.
            steps.deleteCheckpoint(of: profile, flow: engine.id)
            let ticket = engine.ticket("PartialRegistrationChallenge", answered: RegistrationMachine.Event.partialDataProvided)
            host.challenge(
                .partialRegistration(
                    PartialRegistrationChallenge(
                        identityProvider: provider, identifier: identifier, error: error, sender: ticket, releaseObserver: ticket)))
            return .done
        case .sendPartialRegistration(let stateKey, let attributes):
            let context = self.context, steps = self.steps
            return engine.call { () throws(IdentityFlowError) in
                guard let request = context.authorization else { throw IdentityFlowError(.invalidIdentityProvider) }
                return .partialRegistrationAnswered(try await steps.completePartialRegistration(stateKey: stateKey, attributes: attributes, request: request))
            }
        case .emitCreatePinChallenge(let error):
            host.challenge(engine.createPinChallenge(for: profile, error: error, answered: RegistrationMachine.Event.pinProvided))
            return .done
        case .enrolPin(let pin, let tokens):
            let steps = self.steps, profile = self.profile, deviceSecret = context.deviceSecret, learnt = self.learnt
            let proofKey = learnt.withLock { $0.proofKey }
            return engine.call { () throws(IdentityFlowError) in
                // The registration's DPoP key proves the bound tokens' use at the extension API.
                let vault = try await steps.enrolFirstPin(pin, for: profile, deviceSecret: deviceSecret, tokens: tokens, proofKey: proofKey) { key in
                    learnt.withLock { $0.pinKey = key }
                }
                learnt.withLock { $0.vault = vault.map(Box.init) }
                return .pinEnrolled
            }
        case .storeProfile(let credentials):
            engine.commit()
            let steps = self.steps, profile = self.profile, context = self.context
            let (pinKey, vault, proofKey) = learnt.withLock { ($0.pinKey, $0.vault?.value, $0.proofKey) }
            return engine.call { () throws(IdentityFlowError) in
                var stored = StoredProfile(profile: profile, tokens: credentials.tokens, deviceSecret: context.stateless ? nil : context.deviceSecret)
                stored.vault = vault
                // Tokens from another grant (custom, password, token exchange, a provider's session) are bearer tokens: no key kept.
                try steps.storeRegisteredProfile(stored, pinKey: pinKey, proofKey: credentials.tokens.isSenderConstrained ? proofKey : nil)
                return .profileStored
            }
        case .discardRegistration(let tokens):
            engine.commit()
            let steps = self.steps, profile = self.profile, engine = self.engine, (pinKey, proofKey) = learnt.withLock { ($0.pinKey, $0.proofKey) }
            return .run {
                await steps.discardOnServer(profile, tokens: tokens, pinKey: pinKey, proofKey: proofKey, flow: engine.id)
                return .registrationDiscarded
            }
        case .reportSuccess(let info):
            steps.deleteCheckpoint(of: profile, flow: engine.id)
            return engine.finish(
                .success(RegistrationResult(profile: profile, identityProvider: provider, info: info, idToken: steps.idToken(of: profile))),
                to: host)
        case .reportFailure(let error):
            steps.deleteCheckpoint(of: profile, flow: engine.id)
            return engine.finish(.failure(error), to: host)
        }
    }

    /// The tokens of a browser sign-in (a code or a provider's session exchanged), checked against
    /// the authorization parameters it asked for: `codeExchanged`, or `stepUpRefused` so that the
    /// machine discards them before the flow fails.
    private static func checked(_ tokens: TokenSet, against request: AuthorizationRequest, now: Date) -> RegistrationMachine.Event {
        do throws(IdentityFlowError) {
            try request.parameters.check(tokens.idToken.flatMap(IdentityClaims.of), now: now)
        } catch {
            return .stepUpRefused(tokens, error)
        }
        return .codeExchanged(tokens)
    }

    // MARK: - Challenges

    private func emitBrowserChallenge(_ url: URL) {
        let ticket = engine.ticket("BrowserRegistrationChallenge", answered: RegistrationMachine.Event.redirectReceived)
        let appLink = learnt.withLock { $0.appLink }
        let intermediate = steps.configuration.intermediateRedirects
        if !intermediate.isEmpty {
            let runner = engine.runner
            ticket.ignoreAnswers(
                where: { url in intermediate.contains { Self.url(url, isWithin: $0) } },
                notice: { runner.post(.intermediateRedirectIgnored) })
        }
        if let request = context.authorization {
            steps.awaitRedirect(RedirectWaiter(flowID: engine.id, state: request.state, redirectURI: request.redirectURI, ticket: ticket))
        }
        host.challenge(
            .browserRegistration(
                BrowserRegistrationChallenge(
                    identityProvider: provider, url: url, appURL: appLink?.appURL, appInstallationCheckURL: appLink?.installationCheckURL,
                    appStoreURL: appLink?.appStoreURL, prefersEphemeralSession: steps.configuration.prefersEphemeralBrowserSession,
                    error: nil, sender: ticket, releaseObserver: ticket)))
    }

    /// Whether `url` has `prefix`'s scheme and host and a path that starts with its path.
    static func url(_ url: URL, isWithin prefix: URL) -> Bool {
        url.scheme?.lowercased() == prefix.scheme?.lowercased() && url.host?.lowercased() == prefix.host?.lowercased()
            && url.path.hasPrefix(prefix.path)
    }

    private func emitCustomChallenge(_ step: CustomRegistrationStep, info: CustomInfo?, error: IdentityFlowError?) {
        let ticket = engine.ticket("CustomRegistrationChallenge", answered: RegistrationMachine.Event.customDataProvided)
        host.challenge(
            .customRegistration(
                CustomRegistrationChallenge(
                    step: step, userProfile: profile, identityProvider: provider, info: info, error: error,
                    sender: ticket, releaseObserver: ticket)))
    }
}

extension RegistrationMachine.Event: ChallengeEvents {}
