import Statechart

/// Events of the flows that ask for the current PIN (login, PIN change, biometric registration).
protocol PinEntryEvents: ChallengeEvents {
    /// The server told the counters.
    static func pinStatusFetched(_ counters: PinCounters) -> Self
    /// The host entered a PIN.
    static func pinProvided(_ pin: Redacted<String>) -> Self
    /// The server checked a proof.
    static func pinChecked(_ check: PinCheck) -> Self
    /// The deregistered profile is deleted.
    static var profileDeleted: Self { get }
    /// A token set the flow will not use is revoked.
    static var tokensRevoked: Self { get }
}

extension FlowEngine {
    /// Ends the flow and hands the host its one terminal outcome.
    func finish<Start, Success>(_ outcome: Result<Success, IdentityFlowError>, to host: FlowHost<Start, Success>) -> EffectWork<Machine.Event> {
        end()
        host.finished(outcome)
        return .done
    }
}

extension FlowEngine where Machine.Event: FlowEvents {
    /// Asks the server for the PIN loop's counters (``PinEntry``'s `fetchingPinStatus`), for any
    /// flow that holds the loop, whatever its events are called.
    /// - Parameters:
    ///   - profile: The profile whose counters are asked.
    ///   - pinLoop: The PIN loop's steps, which ask the server.
    ///   - fetched: The event for the counters.
    ///   - deregistered: The event for a profile the server no longer knows.
    /// - Returns: The work that calls the server.
    func fetchPinStatus(
        of profile: UserProfile, pinLoop: PinSteps, fetched: @escaping @Sendable (PinCounters) -> Machine.Event, deregistered: Machine.Event
    ) -> EffectWork<Machine.Event> {
        call { () throws(IdentityFlowError) in
            guard let counters = try await pinLoop.pinStatus(for: profile) else { return deregistered }
            return fetched(counters)
        }
    }

    /// Deletes a deregistered profile from the device (the PIN loop's `deletingProfile`; a storage
    /// failure is logged, not fatal). Past this point the flow cannot be cancelled.
    /// - Parameters:
    ///   - profile: The profile to delete.
    ///   - sessions: The profiles it is deleted from.
    ///   - deleted: The event when it is deleted.
    /// - Returns: The work that deletes it.
    func deleteProfile(_ profile: UserProfile, sessions: ProfileSessions, deleted: Machine.Event) -> EffectWork<Machine.Event> {
        commit()
        let id = self.id
        return .run {
            sessions.forgetProfile(profile, flow: id)
            return deleted
        }
    }
}

extension FlowEngine where Machine.Event: PinEntryEvents {
    /// Asks the server for the counters; a profile it no longer knows comes back as deregistered.
    func fetchPinStatus(of profile: UserProfile, pinLoop: PinSteps) -> EffectWork<Machine.Event> {
        fetchPinStatus(of: profile, pinLoop: pinLoop, fetched: Machine.Event.pinStatusFetched, deregistered: .pinChecked(.deregistered))
    }

    /// Hands the host a ``PinChallenge`` whose answer becomes `pinProvided`.
    func emitPinChallenge<Start, Success>(for profile: UserProfile, counters: PinCounters, error: IdentityFlowError?, to host: FlowHost<Start, Success>)
        -> EffectWork<Machine.Event>
    {
        host.challenge(pinChallenge(for: profile, counters: counters, error: error, answered: Machine.Event.pinProvided))
        return .done
    }

    /// Proves the PIN to the server.
    func verifyPin(_ pin: Redacted<String>, of profile: UserProfile, pinLoop: PinSteps) -> EffectWork<Machine.Event> {
        call { () throws(IdentityFlowError) in .pinChecked(try await pinLoop.checkPin(pin, for: profile)) }
    }

    /// Revokes a token set the flow will not use (best effort: a failure is logged), when it is
    /// a session of its own (``AuthenticatorHome/issuesTokensPerLogin``: not the tokens a
    /// device-mode PIN check unseals, which are the profile's own). DPoP-bound tokens are
    /// revoked with a proof by `profile`'s key.
    func revoke(_ tokens: TokenSet, of profile: UserProfile, pinLoop: PinSteps) -> EffectWork<Machine.Event> {
        commit()
        let id = self.id
        return .run {
            await pinLoop.revokeDropped(tokens, of: profile, flow: id)
            return .tokensRevoked
        }
    }

    /// Deletes a deregistered profile from the device (a storage failure is logged, not fatal).
    func deleteProfile(_ profile: UserProfile, sessions: ProfileSessions) -> EffectWork<Machine.Event> {
        deleteProfile(profile, sessions: sessions, deleted: .profileDeleted)
    }
}
