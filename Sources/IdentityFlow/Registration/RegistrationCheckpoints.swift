import Foundation
import Statechart

/// Where a browser registration keeps its ``RegistrationCheckpoint`` while the user is in the
/// browser, and the redirect ``UserClient/handleRedirect(_:)`` took for it. A view of the
/// client's ``FlowDependencies`` (its profile store's storage keeps the checkpoint; its lock, the
/// ``Marks``): one word, no allocation.
struct RegistrationCheckpoints: Sendable {
    private let dependencies: FlowDependencies
    private var storage: any SecureStorage { dependencies.store.storage }
    private var logger: IdentityFlowLogger { dependencies.logger }

    /// What this process remembers of the checkpoint.
    struct Marks: Sendable {
        /// A redirect ``UserClient/handleRedirect(_:)`` took for the checkpointed registration, until it resumes.
        var handedOverRedirect: URL?
        /// The `state` of a checkpoint this process discarded: ignored should its removal from
        /// storage have failed, so that it never resumes twice.
        var discardedCheckpointState: Redacted<String>?
    }

    /// The checkpoint of `dependencies`' client.
    init(dependencies: FlowDependencies) { self.dependencies = dependencies }

    private func withMarks<Result>(_ body: (inout Marks) -> Result) -> Result { dependencies.state.withLock { body(&$0.checkpoint) } }

    /// Stores the checkpoint of a browser wait, replacing any earlier one.
    func save(_ checkpoint: RegistrationCheckpoint) throws(IdentityFlowError) {
        try storage.setData(try checkpoint.jsonData(), forKey: RegistrationCheckpoint.storageKey)
    }

    /// The stored checkpoint, or `nil` when there is none or it cannot be read (then it is removed:
    /// an unreadable checkpoint can never be resumed).
    func load() -> RegistrationCheckpoint? {
        let data: Data?
        do { data = try storage.data(forKey: RegistrationCheckpoint.storageKey) } catch {
            logger.log(.error, "The registration checkpoint could not be read: \(error)")
            return nil
        }
        guard let data else { return nil }
        guard let checkpoint = RegistrationCheckpoint(jsonData: data) else {
            logger.log(.warning, "An unreadable registration checkpoint was removed.")
            discard()
            return nil
        }
        guard withMarks({ $0.discardedCheckpointState }) != checkpoint.authorization.state else { return nil }
        return checkpoint
    }

    /// Deletes the checkpoint if it belongs to `profile`'s registration (best effort: logged).
    func delete(of profile: UserProfile, flow: FlowID) {
        guard let checkpoint = load(), checkpoint.profile == profile else { return }
        discard(checkpoint, flow: flow)
    }

    /// Deletes any checkpoint and forgets a redirect kept for it (best effort: logged; this
    /// process ignores the checkpoint from now on even if the storage could not remove it).
    func discard(_ checkpoint: RegistrationCheckpoint? = nil, flow: FlowID? = nil) {
        withMarks { state in
            state.handedOverRedirect = nil
            if let checkpoint { state.discardedCheckpointState = checkpoint.authorization.state }
        }
        do { try storage.removeData(forKey: RegistrationCheckpoint.storageKey) } catch {
            logger.log(.error, "The registration checkpoint could not be deleted: \(error)", flow: flow)
        }
    }

    /// Keeps a redirect for the checkpointed registration, until it resumes.
    func handOver(_ url: URL) { withMarks { $0.handedOverRedirect = url } }

    /// Takes the redirect kept for the checkpointed registration, if any (it is kept no longer).
    func takeHandedOverRedirect() -> URL? {
        withMarks { state in
            defer { state.handedOverRedirect = nil }
            return state.handedOverRedirect
        }
    }
}

/// The browser challenge a registration of this process waits on, as ``UserClient/handleRedirect(_:)`` finds it.
struct RedirectWaiter: Sendable {
    let flowID: FlowID
    let state: Redacted<String>
    let redirectURI: URL
    let ticket: ChallengeTicket<URL>

    /// Whether `url` is this registration's: it carries its `state` (compared as bytes), or it
    /// is a provider callback without state at its redirect URI (Zephr's).
    func claims(_ url: URL) -> Bool { BrowserRedirect.belongs(url, state: state.value, redirectURI: redirectURI) }
}
