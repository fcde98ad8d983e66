import Statechart

/// Deregistering a profile as a pure state machine: the server removes it (PIN enrolment and
/// tokens), then the device deletes everything of it. When the server cannot be told, the
/// profile is removed locally all the same (``ErrorCode/localDeregistration``).
/// Its chart is ``DeregistrationMachine/chart``.
package struct DeregistrationMachine: StateMachine {
    /// Whether the server confirmed the removal.
    package struct ServerOutcome: Sendable, Equatable {
        /// `nil` when the server confirmed; the reason otherwise.
        package let failure: IdentityFlowError?
    }

    /// What the machine waits for.
    package enum State: Sendable, Equatable {
        /// Not started.
        case idle
        /// The server removes the profile.
        case deregisteringOnServer
        /// The device deletes the profile's data.
        case deletingLocalData(ServerOutcome)
        /// Done: removed on the server and here. Final.
        case deregistered
        /// Done: removed on this device only. Final.
        case deregisteredLocally
        /// Done: the device could not delete the data. Final.
        case failed
    }

    /// What happened.
    package enum Event: Sendable {
        /// The flow started.
        case started
        /// The server removed the profile.
        case serverDeregistered
        /// The server could not be told (unreachable, refused, or no PIN key to prove with). An
        /// event of its own, so that a late server answer is never taken for the local deletion's.
        case serverFailed(IdentityFlowError)
        /// The device deleted the profile's data.
        case localDataDeleted
        /// The storage failed.
        case serviceFailed(IdentityFlowError)
        /// The host cancelled the flow, or its task was cancelled.
        case cancelRequested
    }

    /// What to do.
    package enum Effect: Sendable, Equatable {
        /// Ask the server to remove the profile.
        case deregisterOnServer
        /// Delete the profile's data on the device.
        case deleteLocalData
        /// Tell the host the profile is gone everywhere.
        case reportSuccess
        /// Tell the host it is gone here only, or could not be deleted.
        case reportFailure(IdentityFlowError)
    }

    /// The profile being removed.
    package let profile: UserProfile
    /// The current state.
    package private(set) var state: State

    /// Creates a machine.
    /// - Parameters:
    ///   - profile: The profile.
    ///   - state: The state to start in.
    package init(profile: UserProfile, state: State = .idle) {
        self.profile = profile
        self.state = state
    }

    /// Whether the deregistration ended.
    package var isFinished: Bool { state == .deregistered || state == .deregisteredLocally || state == .failed }

    /// Reacts to an event; see ``chart``.
    /// - Parameter event: What happened.
    /// - Returns: The guard and effects, or `nil` when the current state has no transition for it.
    package mutating func handle(_ event: Event) -> Reaction<Effect>? {
        switch state {
        case .idle:
            guard case .started = event else { return nil }
            state = .deregisteringOnServer
            return Reaction(Effects(.deregisterOnServer))
        case .deregisteringOnServer:
            switch event {
            case .serverDeregistered: state = .deletingLocalData(ServerOutcome(failure: nil))
            case .serverFailed(let error): state = .deletingLocalData(ServerOutcome(failure: error))
            case .cancelRequested: state = .deletingLocalData(ServerOutcome(failure: ChallengeAbandonment.flowCancelled))
            default: return nil
            }
            return Reaction(Effects(.deleteLocalData))
        case .deletingLocalData(let outcome):
            switch event {
            case .localDataDeleted:
                guard let failure = outcome.failure else {
                    state = .deregistered
                    return Reaction(guard: "serverConfirmed", Effects(.reportSuccess))
                }
                state = .deregisteredLocally
                var error = IdentityFlowError(
                    .localDeregistration, "The profile was removed from this device; the server was not told: \(failure.message)", underlying: failure)
                error.userProfile = profile
                return Reaction(guard: "localOnly", Effects(.reportFailure(error)))
            case .serviceFailed(let error):
                state = .failed
                return Reaction(Effects(.reportFailure(error)))
            default:
                return nil
            }
        case .deregistered, .deregisteredLocally, .failed:
            return nil
        }
    }
}
