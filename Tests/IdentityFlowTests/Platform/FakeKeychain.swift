import Foundation
import Statechart
@testable import IdentityFlow

/// A Keychain in memory that keeps each item's protection and plays the device's lock: before
/// the first unlock nothing opens; locked again after it, ``KeychainProtection/afterFirstUnlock``
/// items open and items an earlier version wrote as readable only while unlocked do not.
final class FakeKeychain: KeychainItems {
    /// The device's state, as the Keychain sees it.
    enum Device: Sendable {
        case beforeFirstUnlock, lockedAfterFirstUnlock, unlocked
    }

    /// One item.
    struct Item: Sendable {
        var data: Data
        /// `nil`: an item an earlier version wrote as `kSecAttrAccessibleWhenUnlockedThisDeviceOnly`.
        var protection: KeychainProtection?
    }

    struct State: Sendable {
        var device = Device.unlocked
        var items: [String: Item] = [:]
        /// Every call, in order: "read k", "list", "update k", "add k", "delete k".
        var calls: [String] = []
        /// The status the next `add` of an account answers instead of adding (a race, say).
        var addFailures: [String: KeychainStatus] = [:]
    }

    let state = Locked(State())

    var device: Device {
        get { state.withLock { $0.device } }
        set { state.withLock { $0.device = newValue } }
    }

    /// Every call made so far.
    var calls: [String] { state.withLock { $0.calls } }

    /// Puts an item there directly, as another version of the app would have written it.
    func plant(_ account: String, _ data: Data, protection: KeychainProtection?) {
        state.withLock { $0.items[account] = Item(data: data, protection: protection) }
    }

    func data(account: String) -> (KeychainStatus, Data?) {
        state.withLock { state in
            state.calls.append("read \(account)")
            guard let item = state.items[account] else { return (.itemNotFound, nil) }
            return Self.opens(item, on: state.device) ? (.success, item.data) : (.interactionNotAllowed, nil)
        }
    }

    func accounts() -> (KeychainStatus, [String]) {
        state.withLock { state in
            state.calls.append("list")
            guard state.device != .beforeFirstUnlock else { return (.interactionNotAllowed, []) }
            return state.items.isEmpty ? (.itemNotFound, []) : (.success, state.items.keys.sorted())
        }
    }

    func update(account: String, data: Data, protection: KeychainProtection) -> KeychainStatus {
        state.withLock { state in
            state.calls.append("update \(account)")
            guard state.items[account] != nil else { return .itemNotFound }
            state.items[account] = Item(data: data, protection: protection)
            return .success
        }
    }

    func add(account: String, data: Data, protection: KeychainProtection) -> KeychainStatus {
        state.withLock { state in
            state.calls.append("add \(account)")
            if let failure = state.addFailures.removeValue(forKey: account) { return failure }
            guard state.items[account] == nil else { return .duplicateItem }
            state.items[account] = Item(data: data, protection: protection)
            return .success
        }
    }

    func delete(account: String) -> KeychainStatus {
        state.withLock { state in
            state.calls.append("delete \(account)")
            return state.items.removeValue(forKey: account) == nil ? .itemNotFound : .success
        }
    }

    /// Whether the device's state lets the item out.
    private static func opens(_ item: Item, on device: Device) -> Bool {
        switch (device, item.protection) {
        case (.unlocked, _): true
        case (.lockedAfterFirstUnlock, .afterFirstUnlock): true
        default: false
        }
    }
}
