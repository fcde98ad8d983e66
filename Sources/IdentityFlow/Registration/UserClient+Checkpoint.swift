import Foundation
import Statechart

/// Where a browser registration keeps its ``RegistrationCheckpoint`` while the user is in the browser.
extension UserClient {
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
    let redirectURI: URL
    let ticket: ChallengeTicket<URL>

    /// Whether `url` is this registration's: it carries its `state` (compared as bytes), or it
    /// is a provider callback without state at its redirect URI (Zephr's).
    func claims(_ url: URL) -> Bool { BrowserRedirect.belongs(url, state: state.value, redirectURI: redirectURI) }
}
