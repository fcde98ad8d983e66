import Foundation
@_spi(Integrator) import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// A storage whose writes can be made to fail: all of them, or those of keys with a prefix.
final class FailingStorage: SecureStorage {
    private let inner = InMemoryStorage()
    private let failing = Locked(false)
    private let failingPrefix = Locked<String?>(nil)

    var failWrites: Bool {
        get { failing.current }
        set { failing.withLock { $0 = newValue } }
    }

    /// Writes of keys that start with this fail too; `nil` for none.
    var failWritesOfKeys: String? {
        get { failingPrefix.current }
        set { failingPrefix.withLock { $0 = newValue } }
    }

    func data(forKey key: String) throws(IdentityFlowError) -> Data? { try inner.data(forKey: key) }
    func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) {
        if failWrites || failWritesOfKeys.map(key.hasPrefix) == true {
            throw IdentityFlowError(.dataStorageNotAvailable, "Injected write failure.")
        }
        try inner.setData(data, forKey: key)
    }
    func removeData(forKey key: String) throws(IdentityFlowError) { try inner.removeData(forKey: key) }
    func keys() throws(IdentityFlowError) -> [String] { try inner.keys() }
}

/// A delegate that notes whether each callback ran on the main queue (the main actor's executor;
/// on Linux another thread may drain it, so the thread is not the test), and cancels the first challenge.
final class MainThreadRecorder: RegistrationDelegate, Sendable {
    private static let key = DispatchSpecificKey<String>()
    init() { DispatchQueue.main.setSpecific(key: Self.key, value: "main") }

    private let counts = Locked((callbacks: 0, offMain: 0))
    private let done = ScriptedResponder([])

    var callbacks: Int { counts.current.callbacks }
    var offMainCallbacks: Int { counts.current.offMain }

    private func note() {
        counts.withLock {
            $0.callbacks += 1; if DispatchQueue.getSpecific(key: Self.key) != "main" { $0.offMain += 1 }
        }
    }

    func finished() async { _ = await done.outcome() }

    func userClient(_ client: UserClient, didStartRegistrationOf profile: UserProfile) { note() }
    func userClient(_ client: UserClient, didReceiveBrowserRegistrationChallenge challenge: BrowserRegistrationChallenge) {
        note()
        challenge.sender.cancel(challenge)
    }
    func userClient(_ client: UserClient, didReceiveCreatePinChallenge challenge: CreatePinChallenge) { note() }
    func userClient(_ client: UserClient, didRegisterUser profile: UserProfile, identityProvider: IdentityProvider, info: CustomInfo?) {
        note()
        done.userClient(client, didRegisterUser: profile, identityProvider: identityProvider, info: info)
    }
    func userClient(_ client: UserClient, didFailToRegisterUserWith identityProvider: IdentityProvider?, error: IdentityFlowError) {
        note()
        done.userClient(client, didFailToRegisterUserWith: identityProvider, error: error)
    }
}

/// A storage that runs a hook before every write (to cancel a flow while it stores, say).
final class HookedStorage: SecureStorage {
    private let inner = InMemoryStorage()
    private let hook = Locked<(@Sendable () -> Void)?>(nil)

    func beforeWrite(_ body: @escaping @Sendable () -> Void) { hook.withLock { $0 = body } }

    func data(forKey key: String) throws(IdentityFlowError) -> Data? { try inner.data(forKey: key) }
    func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) {
        hook.current?()
        try inner.setData(data, forKey: key)
    }
    func removeData(forKey key: String) throws(IdentityFlowError) { try inner.removeData(forKey: key) }
    func keys() throws(IdentityFlowError) -> [String] { try inner.keys() }
}
