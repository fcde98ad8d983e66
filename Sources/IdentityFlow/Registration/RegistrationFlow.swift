import Foundation
import Statechart

/// Performs a ``RegistrationMachine``'s effects: server calls, challenges, storage, results.
final class RegistrationFlow: FlowPerformer {
    typealias Machine = RegistrationMachine

    let engine: FlowEngine<RegistrationMachine>
    private let client: UserClient
    private let context: RegistrationMachine.Context
    private let host: FlowHost<RegistrationMachine.Context, RegistrationResult>

    /// `started` for a new registration, `resumed` for one continued from its checkpoint.
    let startEvent: RegistrationMachine.Event
    /// The identity app for the browser challenge, asked for with the authorization URL (not
    /// checkpointed: a resumed registration offers the browser only).
    private let appLink = Locked<IdentityAppLink?>(nil)
    /// The PIN key this registration derived (in memory only), kept from before its enrolment is
    /// sent: storing the profile hands it to the session, and discarding the registration proves
    /// with it, also when a cancel overtook the enrolment's answer.
    private let pinKey = Locked<ProvenPinKey>(.none)
    /// In device mode, the vault its enrolment sealed, stored with the profile.
    private let vault = Locked<DeviceVault?>(nil)

    init(
        client: UserClient, id: FlowID, context: RegistrationMachine.Context, host: FlowHost<RegistrationMachine.Context, RegistrationResult>,
        startEvent: RegistrationMachine.Event = .started
    ) {
        self.client = client
        self.context = context
        self.host = host
        self.startEvent = startEvent
        self.engine = FlowEngine(id: id, machine: RegistrationMachine(context: context), client: client)
    }

    private var service: any IdentityService { client.service }
    private var profile: UserProfile { context.profile }
    private var provider: IdentityProvider { context.provider }

    func perform(_ effect: RegistrationMachine.Effect) -> EffectWork<RegistrationMachine.Event> {
        switch effect {
        case .reportStarted:
            host.started(context)
            return .done
        case .buildAuthorizationURL:
            let client = self.client, context = self.context, service = self.service, appLink = self.appLink
            return engine.call { () throws(IdentityFlowError) in
                guard let request = context.authorization else { throw IdentityFlowError(.invalidIdentityProvider) }
                try await client.requireAuthenticatorHome(for: context)
                let url = try await service.authorizationURL(for: context.provider, request: request)
                let app = try await service.identityAppLink(for: context.provider, request: request)
                appLink.withLock { $0 = app }
                return .authorizationURLBuilt(url)
            }
        case .saveCheckpoint(let url) where context.provider.kind != .browser:
            // A sign-in continued in the browser after a password or token exchange: nothing to
            // resume from (the autologin token is single-use), so no checkpoint.
            return .run { .checkpointSaved(url) }
        case .saveCheckpoint(let url):
            let client = self.client, context = self.context
            return engine.call { () throws(IdentityFlowError) in
                try client.saveCheckpoint(
                    RegistrationCheckpoint(
                        context: context, authorizationURL: url, now: client.configuration.now(),
                        lifetime: client.configuration.checkpointLifetime))
                return .checkpointSaved(url)
            }
        case .emitBrowserChallenge(let url):
            emitBrowserChallenge(url)
            return .done
        case .deliverRedirect(let url):
            return .run { .redirectReceived(url) }
        case .exchangeCode(let code, let issuer):
            // The code is single-use: from here on the checkpoint could not serve again.
            client.deleteCheckpoint(of: profile, flow: engine.id)
            let context = self.context, service = self.service
            return engine.call { () throws(IdentityFlowError) in
                guard let request = context.authorization else { throw IdentityFlowError(.invalidIdentityProvider) }
                try await service.checkAuthorizationResponseIssuer(issuer)
                return .codeExchanged(try await service.exchangeCode(code, request: request))
            }
        case .exchangeSession(let session):
            // The session is single-use: from here on the checkpoint could not serve again.
            client.deleteCheckpoint(of: profile, flow: engine.id)
            let context = self.context, service = self.service
            return engine.call { () throws(IdentityFlowError) in
                guard let request = context.authorization else { throw IdentityFlowError(.invalidIdentityProvider) }
                return .codeExchanged(try await service.exchangeSession(session, request: request))
            }
        case .emitCustomRegistrationChallenge(let step, let info, let error):
            emitCustomChallenge(step, info: info, error: error)
            return .done
        case .sendCustomData(let step, let session, let data):
            let provider = self.provider, service = self.service
            return engine.call { () throws(IdentityFlowError) in
                switch step {
                case .initialization: .customAnswerReceived(try await service.initCustomRegistration(provider: provider, data: data))
                case .finish: .customAnswerReceived(try await service.completeCustomRegistration(provider: provider, session: session.value, data: data))
                }
            }
        case .emitCredentialsChallenge(let error):
            let ticket = engine.ticket("CredentialsChallenge", answered: RegistrationMachine.Event.credentialsProvided)
            host.challenge(.credentials(CredentialsChallenge(identityProvider: provider, error: error, sender: ticket, releaseObserver: ticket)))
            return .done
        case .sendCredentials(let credentials):
            let client = self.client, context = self.context, service = self.service
            return engine.call { () throws(IdentityFlowError) in
                try await client.requireAuthenticatorHome(for: context)
                return .credentialsAnswered(
                    try await service.passwordGrant(
                        login: credentials.login, password: credentials.password,
                        scopes: context.authorization?.scopes ?? []))
            }
        case .exchangeExternalToken:
            let client = self.client, context = self.context, service = self.service
            return engine.call { () throws(IdentityFlowError) in
                try await client.requireAuthenticatorHome(for: context)
                guard let token = context.externalToken else { throw IdentityFlowError(.invalidIdentityProvider) }
                return .credentialsAnswered(try await service.exchangeExternalToken(token, scopes: context.authorization?.scopes ?? []))
            }
        case .buildAutologinURL(let autologinToken):
            let context = self.context, service = self.service
            return engine.call { () throws(IdentityFlowError) in
                guard var request = context.authorization else { throw IdentityFlowError(.invalidIdentityProvider) }
                request.autologinToken = autologinToken
                return .authorizationURLBuilt(try await service.authorizationURL(for: context.provider, request: request))
            }
        case .emitPartialRegistrationChallenge(let identifier, let error):
            // The redirect is spent: the checkpoint could not serve again.
            client.deleteCheckpoint(of: profile, flow: engine.id)
            let ticket = engine.ticket("PartialRegistrationChallenge", answered: RegistrationMachine.Event.partialDataProvided)
            host.challenge(
                .partialRegistration(
                    PartialRegistrationChallenge(
                        identityProvider: provider, identifier: identifier, error: error, sender: ticket, releaseObserver: ticket)))
            return .done
        case .sendPartialRegistration(let stateKey, let attributes):
            let context = self.context, service = self.service
            return engine.call { () throws(IdentityFlowError) in
                guard let request = context.authorization else { throw IdentityFlowError(.invalidIdentityProvider) }
                return .partialRegistrationAnswered(try await service.completePartialRegistration(stateKey: stateKey, attributes: attributes, request: request))
            }
        case .emitCreatePinChallenge(let error):
            host.challenge(engine.createPinChallenge(for: profile, error: error, answered: RegistrationMachine.Event.pinProvided))
            return .done
        case .enrolPin(let pin, let tokens):
            let client = self.client, profile = self.profile, deviceSecret = context.deviceSecret, derived = self.pinKey, sealed = self.vault
            return engine.call { () throws(IdentityFlowError) in
                let vault = try await client.enrolFirstPin(pin, for: profile, deviceSecret: deviceSecret, tokens: tokens) { key in derived.withLock { $0 = key }
                }
                sealed.withLock { $0 = vault }
                return .pinEnrolled
            }
        case .storeProfile(let credentials):
            engine.commit()
            let client = self.client, profile = self.profile, context = self.context, pinKey = self.pinKey.current, vault = self.vault.current
            return engine.call { () throws(IdentityFlowError) in
                var stored = StoredProfile(profile: profile, tokens: credentials.tokens, deviceSecret: context.stateless ? nil : context.deviceSecret)
                stored.vault = vault
                try client.storeRegisteredProfile(stored, pinKey: pinKey)
                return .profileStored
            }
        case .discardRegistration(let tokens):
            engine.commit()
            let client = self.client, profile = self.profile, engine = self.engine, pinKey = self.pinKey.current
            return .run {
                await client.discardOnServer(profile, tokens: tokens, pinKey: pinKey, flow: engine.id)
                return .registrationDiscarded
            }
        case .reportSuccess(let info):
            client.deleteCheckpoint(of: profile, flow: engine.id)
            return engine.finish(.success(RegistrationResult(profile: profile, identityProvider: provider, info: info)), to: host)
        case .reportFailure(let error):
            client.deleteCheckpoint(of: profile, flow: engine.id)
            return engine.finish(.failure(error), to: host)
        }
    }

    // MARK: - Challenges

    private func emitBrowserChallenge(_ url: URL) {
        let ticket = engine.ticket("BrowserRegistrationChallenge", answered: RegistrationMachine.Event.redirectReceived)
        let intermediate = client.configuration.intermediateRedirects
        if !intermediate.isEmpty {
            let runner = engine.runner
            ticket.ignoreAnswers(
                where: { url in intermediate.contains { Self.url(url, isWithin: $0) } },
                notice: { runner.post(.intermediateRedirectIgnored) })
        }
        if let request = context.authorization {
            client.awaitRedirect(RedirectWaiter(flowID: engine.id, state: request.state, redirectURI: request.redirectURI, ticket: ticket))
        }
        host.challenge(
            .browserRegistration(
                BrowserRegistrationChallenge(
                    identityProvider: provider, url: url, appURL: appLink.current?.appURL, appInstallationCheckURL: appLink.current?.installationCheckURL,
                    appStoreURL: appLink.current?.appStoreURL, prefersEphemeralSession: client.configuration.prefersEphemeralBrowserSession,
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
