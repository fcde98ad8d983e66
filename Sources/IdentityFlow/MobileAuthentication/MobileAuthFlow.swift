import Foundation
import Statechart

/// Performs a ``MobileAuthMachine``'s effects.
final class MobileAuthFlow: FlowPerformer {
    typealias Machine = MobileAuthMachine
    typealias Event = MobileAuthMachine.Event

    let engine: FlowEngine<MobileAuthMachine>
    private let steps: MobileAuthSteps
    private let context: MobileAuthMachine.Context
    /// How to look the request up when the host did not hand it over.
    private let lookup: MobileAuthLookup
    private let host: FlowHost<UserProfile, MobileAuthResult>

    /// Handling of a request that makes its I/O through `steps`.
    /// - Parameters:
    ///   - steps: The flow's I/O steps.
    ///   - id: The flow's id.
    ///   - context: What the request is about.
    ///   - lookup: How to look the request up when the host did not hand it over.
    ///   - host: Where challenges and the outcome go.
    init(steps: MobileAuthSteps, id: FlowID, context: MobileAuthMachine.Context, lookup: MobileAuthLookup, host: FlowHost<UserProfile, MobileAuthResult>) {
        self.steps = steps
        self.context = context
        self.lookup = lookup
        self.host = host
        self.engine = FlowEngine(id: id, machine: MobileAuthMachine(context: context), environment: steps.dependencies.environment)
    }

    func perform(_ effect: MobileAuthMachine.Effect) -> EffectWork<Event> {
        let profile = context.profile, steps = self.steps, engine = self.engine
        switch effect {
        case .fetchRequest:
            let lookup = self.lookup
            return engine.call { () throws(IdentityFlowError) in
                let fetched: MobileAuthRequest
                do throws(IdentityFlowError) { fetched = try await steps.fetchMobileAuthRequest(lookup, for: profile) } catch
                    where error.code == .userDeregistered
                {
                    return .answerChecked(.deregistered)  // the server forgot the profile: it is deleted here too
                }
                return fetched.expiresAt <= steps.now() ? .requestExpired : .requestFetched(fetched)
            }
        case .emitConfirmationChallenge(let request):
            let ticket = self.ticket("MobileAuthConfirmationChallenge", for: request, answered: Event.confirmationAnswered)
            host.challenge(.mobileAuthConfirmation(MobileAuthConfirmationChallenge(request: request, sender: ticket, releaseObserver: ticket)))
            return .done
        case .sendAnswer(let request, let accepted):
            return send(request) { request throws(IdentityFlowError) in
                let verdict = try await steps.answerMobileAuthRequest(request, accepted: accepted)
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
            return send(request) { request throws(IdentityFlowError) in try await steps.acceptMobileAuthRequestWithBiometrics(request) }
        case .fetchPinStatus:
            return engine.fetchPinStatus(of: profile, pinLoop: steps.pinLoop, fetched: Event.pinStatusFetched, deregistered: .answerChecked(.deregistered))
        case .emitPinChallenge(let request, let counters, let error):
            let ticket = self.ticket("PinChallenge", for: request, answered: Event.pinProvided)
            host.challenge(.pin(PinChallenge(userProfile: profile, counters: counters, error: error, sender: ticket, releaseObserver: ticket)))
            return .done
        case .sendPinAnswer(let request, let pin):
            return send(request) { request throws(IdentityFlowError) in try await steps.acceptMobileAuthRequest(request, pin: pin) }
        case .deleteProfile:
            return engine.deleteProfile(profile, sessions: steps.sessions, deleted: .profileDeleted)
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
        let seconds = max(0, request.expiresAt.timeIntervalSince(steps.now()))
        let untilExpiry = Duration.milliseconds(Int64((seconds * 1000).rounded(.up)))
        let expiryComesFirst = engine.configuration.challengeTimeout.map { untilExpiry <= $0 } ?? true
        return engine.ticket(name, deadline: untilExpiry, expired: expiryComesFirst ? .requestExpired : nil, answered: answered)
    }
}

extension MobileAuthMachine.Event: ChallengeEvents {}
