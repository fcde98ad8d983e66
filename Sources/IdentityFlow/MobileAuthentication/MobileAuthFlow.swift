import Foundation
import Statechart

/// Performs a ``MobileAuthMachine``'s effects.
final class MobileAuthFlow: FlowPerformer {
    typealias Machine = MobileAuthMachine
    typealias Event = MobileAuthMachine.Event

    let engine: FlowEngine<MobileAuthMachine>
    private let client: UserClient
    private let context: MobileAuthMachine.Context
    /// How to look the request up when the host did not hand it over.
    private let lookup: MobileAuthLookup
    private let host: FlowHost<UserProfile, MobileAuthResult>

    init(client: UserClient, id: FlowID, context: MobileAuthMachine.Context, lookup: MobileAuthLookup, host: FlowHost<UserProfile, MobileAuthResult>) {
        self.client = client
        self.context = context
        self.lookup = lookup
        self.host = host
        self.engine = FlowEngine(id: id, machine: MobileAuthMachine(context: context), client: client)
    }

    func perform(_ effect: MobileAuthMachine.Effect) -> EffectWork<Event> {
        let profile = context.profile, client = self.client, engine = self.engine
        switch effect {
        case .fetchRequest:
            let lookup = self.lookup
            return engine.call { () throws(IdentityFlowError) in
                let fetched: MobileAuthRequest
                do throws(IdentityFlowError) { fetched = try await client.fetchMobileAuthRequest(lookup, for: profile) } catch
                    where error.code == .userDeregistered
                {
                    return .answerChecked(.deregistered)  // the server forgot the profile: it is deleted here too
                }
                return fetched.expiresAt <= client.configuration.now() ? .requestExpired : .requestFetched(fetched)
            }
        case .emitConfirmationChallenge(let request):
            let ticket = self.ticket("MobileAuthConfirmationChallenge", for: request, answered: Event.confirmationAnswered)
            host.challenge(.mobileAuthConfirmation(MobileAuthConfirmationChallenge(request: request, sender: ticket, releaseObserver: ticket)))
            return .done
        case .sendAnswer(let request, let accepted):
            return send(request) { request throws(IdentityFlowError) in
                let verdict = try await client.answerMobileAuthRequest(request, accepted: accepted)
                guard verdict == .handled else {
                    throw IdentityFlowError(.invalidServerResponse, "The server judged a step-up that was not sent (\(verdict)).")
                }
                return verdict
            }
        case .emitBiometricChallenge(let request):
            let ticket = self.ticket("BiometricChallenge", for: request, answered: Event.biometricAnswered)
            host.challenge(.biometric(BiometricChallenge(userProfile: profile, authenticator: .biometric, sender: ticket, releaseObserver: ticket)))
            return .done
        case .sendBiometricAnswer(let request):
            return send(request) { request throws(IdentityFlowError) in try await client.acceptMobileAuthRequestWithBiometrics(request) }
        case .fetchPinStatus:
            return engine.fetchPinStatus(of: profile, client: client, fetched: Event.pinStatusFetched, deregistered: .answerChecked(.deregistered))
        case .emitPinChallenge(let request, let counters, let error):
            let ticket = self.ticket("PinChallenge", for: request, answered: Event.pinProvided)
            host.challenge(.pin(PinChallenge(userProfile: profile, counters: counters, error: error, sender: ticket, releaseObserver: ticket)))
            return .done
        case .sendPinAnswer(let request, let pin):
            return send(request) { request throws(IdentityFlowError) in try await client.acceptMobileAuthRequest(request, pin: pin) }
        case .deleteProfile:
            return engine.deleteProfile(profile, client: client, deleted: .profileDeleted)
        case .reportHandled(let result):
            return engine.finish(.success(result), to: host)
        case .reportFailure(let error):
            return engine.finish(.failure(error), to: host)
        }
    }

    /// Sends an answer: past cancelling while it travels, open to cancels again when the server
    /// refuses the step-up (the host is asked once more).
    private func send(_ request: MobileAuthRequest, _ body: @escaping @Sendable (MobileAuthRequest) async throws(IdentityFlowError) -> MobileAuthVerdict)
        -> EffectWork<Event>
    {
        engine.commit()
        let engine = self.engine
        return engine.call { () throws(IdentityFlowError) in
            let verdict: MobileAuthVerdict
            do throws(IdentityFlowError) { verdict = try await body(request) } catch {
                if PinEntry.isRecoverable(error) { engine.reopen() }
                throw error
            }
            if case .rejected = verdict { engine.reopen() }
            return .answerChecked(verdict)
        }
    }

    /// A ticket that times out when the request expires (or at the configured challenge
    /// timeout, if that comes first): an expiry becomes `requestExpired`.
    private func ticket<Answer: Sendable>(_ name: String, for request: MobileAuthRequest, answered: @escaping @Sendable (Answer) -> Event) -> ChallengeTicket<
        Answer
    > {
        let seconds = max(0, request.expiresAt.timeIntervalSince(client.configuration.now()))
        let untilExpiry = Duration.milliseconds(Int64((seconds * 1000).rounded(.up)))
        let expiryComesFirst = client.configuration.challengeTimeout.map { untilExpiry <= $0 } ?? true
        return engine.ticket(name, deadline: untilExpiry, expired: expiryComesFirst ? .requestExpired : nil, answered: answered)
    }
}

extension MobileAuthMachine.Event: ChallengeEvents {}
