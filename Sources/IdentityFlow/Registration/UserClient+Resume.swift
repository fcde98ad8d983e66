import Foundation
import Statechart

/// Redirects and registrations that survive the app being killed while the user is in the browser.
///
/// A browser registration checkpoints itself (``RegistrationCheckpoint``) before it hands the
/// host the browser challenge. When the redirect comes back, ``handleRedirect(_:)`` gives it to the
/// registration waiting in this process, or keeps it for the checkpointed one, which the host then
/// continues with ``resumeRegistration(delegate:)`` (or the async variants).
extension UserClient {
    /// Hands a redirect that opened the app to the registration it belongs to.
    ///
    /// Call it from `application(_:open:options:)` or SwiftUI's `onOpenURL`:
    ///
    /// ```swift
    /// .onOpenURL { url in
    ///     if client.handleRedirect(url) { resumeIfNeeded() }
    /// }
    /// ```
    ///
    /// - A registration of this process that waits for this redirect gets it as its browser
    ///   challenge's answer, exactly as `sender.respond(with:to:)` would give it.
    /// - Otherwise a checkpointed registration whose `state` the URL carries keeps it, and
    ///   ``resumeRegistration(delegate:)`` continues with it.
    /// - Any other URL (another app link, a stale or replayed redirect) returns `false` and changes
    ///   nothing.
    /// - Parameter url: The URL the app was opened with.
    /// - Returns: Whether the URL belongs to a registration of this client.
    @discardableResult
    public func handleRedirect(_ url: URL) -> Bool {
        if let waiter = withState({ $0.redirectWaiter }), waiter.claims(url) {
            return waiter.ticket.settle(.answered(url))
        }
        guard let checkpoint = loadCheckpoint(), checkpoint.claims(url) else {
            configuration.logger.log(.info, "A URL handed to handleRedirect belongs to no registration; ignored.")
            return false
        }
        withState { $0.handedOverRedirect = url }
        return true
    }

    /// Continues the checkpointed browser registration, reporting to a delegate.
    ///
    /// The registration continues where it stopped: with the redirect ``handleRedirect(_:)`` kept,
    /// or, without one, with the browser challenge again (same URL). Then code exchange, create
    /// PIN, enrolment and storage, with the same callbacks and errors as an uninterrupted one.
    /// - Parameter delegate: Receives the callbacks; retained until the terminal one.
    /// - Important: Exactly one of `didRegisterUser` / `didFailToRegisterUser` is called. It fails
    ///   with ``ErrorCode/registrationCheckpointNotFound`` when nothing waits to be resumed (also
    ///   for a second resume), and ``ErrorCode/registrationCheckpointExpired`` when the checkpoint
    ///   is older than ``ClientConfiguration/checkpointLifetime`` (it is then deleted).
    public func resumeRegistration(delegate: some RegistrationDelegate) {
        launchResumedRegistration(host: registrationHost(delegate, provider: nil))
    }

    /// Continues the checkpointed browser registration, answering challenges through a responder.
    ///
    /// ```swift
    /// let report = try await client.start()
    /// if !report.resumableRegistrations.isEmpty {
    ///     let result = try await client.resumeRegistration(responder: registrationScreen)
    /// }
    /// ```
    /// - Parameter responder: Receives each challenge and answers through its sender.
    /// - Returns: The new profile (now authenticated), the provider and its answer.
    /// - Throws: ``IdentityFlowError``, as ``resumeRegistration(delegate:)`` reports them.
    public func resumeRegistration(responder: some ChallengeResponder) async throws(IdentityFlowError) -> RegistrationResult {
        try await runAsync(responder: responder) { (host: FlowHost<RegistrationMachine.Context, RegistrationResult>) in
            launchResumedRegistration(host: host)
        }
    }

    /// Continues the checkpointed browser registration, answering challenges with a closure.
    /// - Parameter answer: Called with each challenge; answers through the challenge's sender.
    /// - Returns: The new profile, the provider and its answer.
    /// - Throws: ``IdentityFlowError``, as ``resumeRegistration(delegate:)`` reports them.
    public func resumeRegistration(answering answer: nonisolated(nonsending) @escaping @Sendable (Challenge) async -> Void) async throws(IdentityFlowError) -> RegistrationResult {
        try await resumeRegistration(responder: ClosureResponder(answer))
    }

    @discardableResult
    private func launchResumedRegistration(host: FlowHost<RegistrationMachine.Context, RegistrationResult>) -> FlowSlot? {
        launch(host: host) { id throws(IdentityFlowError) in
            guard let checkpoint = self.loadCheckpoint() else {
                throw IdentityFlowError(.registrationCheckpointNotFound)
            }
            let redirect = self.withState { state in
                defer { state.handedOverRedirect = nil }
                return state.handedOverRedirect.flatMap { checkpoint.claims($0) ? $0 : nil }
            }
            guard !checkpoint.isExpired(at: self.configuration.now()) else {
                self.discardCheckpoint(checkpoint)
                throw IdentityFlowError(.registrationCheckpointExpired)
            }
            let context = RegistrationMachine.Context(
                profile: checkpoint.profile, provider: checkpoint.provider,
                authorization: checkpoint.authorization, pinPolicy: self.configuration.pinPolicy)
            return RegistrationFlow(client: self, id: id, context: context, host: host,
                                    startEvent: .resumed(authorizationURL: checkpoint.authorizationURL, redirect: redirect))
        }
    }

    // MARK: - Checkpoint storage

    /// Stores the checkpoint of a browser wait, replacing any earlier one.
    func saveCheckpoint(_ checkpoint: RegistrationCheckpoint) throws(IdentityFlowError) {
        try profileStore.storage.setData(try checkpoint.jsonData(), forKey: RegistrationCheckpoint.storageKey)
    }

    /// The stored checkpoint, or `nil` when there is none or it cannot be read (then it is removed:
    /// an unreadable checkpoint can never be resumed).
    func loadCheckpoint() -> RegistrationCheckpoint? {
        let storage = profileStore.storage
        let data: Data?
        do { data = try storage.data(forKey: RegistrationCheckpoint.storageKey) } catch {
            configuration.logger.log(.error, "The registration checkpoint could not be read: \(error)")
            return nil
        }
        guard let data else { return nil }
        guard let checkpoint = RegistrationCheckpoint(jsonData: data) else {
            configuration.logger.log(.warning, "An unreadable registration checkpoint was removed.")
            discardCheckpoint()
            return nil
        }
        guard withState({ $0.discardedCheckpointState }) != checkpoint.authorization.state else { return nil }
        return checkpoint
    }

    /// Deletes the checkpoint if it belongs to `profile`'s registration (best effort: logged).
    func deleteCheckpoint(of profile: UserProfile, flow: FlowID) {
        guard let checkpoint = loadCheckpoint(), checkpoint.profile == profile else { return }
        discardCheckpoint(checkpoint, flow: flow)
    }

    /// Deletes any checkpoint and forgets a redirect kept for it (best effort: logged; this
    /// process ignores the checkpoint from now on even if the storage could not remove it).
    func discardCheckpoint(_ checkpoint: RegistrationCheckpoint? = nil, flow: FlowID? = nil) {
        withState { state in
            state.handedOverRedirect = nil
            if let checkpoint { state.discardedCheckpointState = checkpoint.authorization.state }
        }
        do { try profileStore.storage.removeData(forKey: RegistrationCheckpoint.storageKey) } catch {
            configuration.logger.log(.error, "The registration checkpoint could not be deleted: \(error)", flow: flow)
        }
    }

    /// Routes ``handleRedirect(_:)`` to a registration's open browser challenge.
    func awaitRedirect(_ waiter: RedirectWaiter) {
        withState { $0.redirectWaiter = waiter }
    }
}

/// The browser challenge a registration of this process waits on, as ``UserClient/handleRedirect(_:)`` finds it.
struct RedirectWaiter: Sendable {
    let flowID: FlowID
    let state: Redacted<String>
    let ticket: ChallengeTicket<URL>

    /// Whether `url` carries this registration's `state` (compared as bytes).
    func claims(_ url: URL) -> Bool {
        guard let value = URLQuery.items(of: url)?.first(where: { $0.name == "state" })?.value else { return false }
        return Array(value.utf8) == Array(state.value.utf8)
    }
}
