import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
import IdentityFlowTesting

/// `KeychainStorage`'s logic on a fake Keychain: the protection of each item, in-place writes,
/// and the device's lock, which never reads as an absent profile.
@Suite("Keychain storage logic (KeychainItemStore on a fake Keychain)")
struct KeychainItemStoreTests {
    static func registered(on storage: some SecureStorage, server: ReferenceIdentityService) async throws -> UserProfile {
        let client = UserClient(configuration: .testing(), service: server, storage: storage)
        try await client.start()
        let responder = ScriptedResponder([.browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond("24680"))])
        let profile = try await client.registerUser(responder: responder).profile
        try await client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond("24680"))]))
        return profile
    }

    /// The error a call throws, or `nil` when it returns.
    static func failure(_ body: () throws -> Void) -> IdentityFlowError? {
        do { try body() } catch { return error as? IdentityFlowError ?? IdentityFlowError(.unknown, "not an IdentityFlowError: \(error)") }
        return nil
    }

    @Test("Profiles and tokens are readable after the first unlock; the biometric key sits behind user presence")
    func protectionPerItem() async throws {
        let keychain = FakeKeychain()
        let profile = try await Self.registered(on: KeychainItemStore(items: keychain), server: ReferenceIdentityService())
        let items = keychain.state.withLock { $0.items }
        #expect(items["identityflow.profile.\(profile.profileId)"]?.protection == .afterFirstUnlock)
        #expect(items["identityflow.biometric-key.\(profile.profileId)"]?.protection == .userPresence)
        #expect(items.values.filter { $0.protection == .userPresence }.count == 1)
    }

    @Test("A write updates the item in place, adds it when missing, and updates after an add that lost a race")
    func writes() throws {
        let keychain = FakeKeychain()
        let store = KeychainItemStore(items: keychain)
        try store.setData(Data("one".utf8), forKey: "k")
        try store.setData(Data("two".utf8), forKey: "k")
        #expect(keychain.calls == ["update k", "add k", "update k"])
        #expect(try store.data(forKey: "k") == Data("two".utf8))

        keychain.state.withLock { $0.addFailures["r"] = .duplicateItem }
        try store.setData(Data("raced".utf8), forKey: "r")
        #expect(keychain.calls.suffix(4) == ["update r", "add r", "update r", "add r"])
        #expect(try store.data(forKey: "r") == Data("raced".utf8))
    }

    @Test("A user-presence item is replaced, never updated (an update would ask the user)")
    func userPresenceReplaces() throws {
        let keychain = FakeKeychain()
        let store = KeychainItemStore(items: keychain)
        try store.setData(Data("key".utf8), forKey: "b", access: .userPresence)
        try store.setData(Data("key2".utf8), forKey: "b", access: .userPresence)
        #expect(keychain.calls == ["delete b", "add b", "delete b", "add b"])
    }

    @Test("An item rewritten by this version moves from readable-while-unlocked to readable-after-first-unlock")
    func upgradesAccessibility() throws {
        let keychain = FakeKeychain()
        keychain.plant("k", Data("old".utf8), protection: nil)
        try KeychainItemStore(items: keychain).setData(Data("new".utf8), forKey: "k")
        keychain.device = .lockedAfterFirstUnlock
        #expect(try KeychainItemStore(items: keychain).data(forKey: "k") == Data("new".utf8))
    }

    @Test("Locked items and listings fail with 11071; other failures are 9024 with the status; a missing item is nil")
    func statuses() throws {
        let keychain = FakeKeychain()
        let store = KeychainItemStore(items: keychain)
        keychain.plant("old", Data("x".utf8), protection: nil)
        keychain.device = .lockedAfterFirstUnlock
        #expect(try store.data(forKey: "missing") == nil)
        #expect(Self.failure { _ = try store.data(forKey: "old") }?.code == .dataStorageLocked)
        keychain.device = .beforeFirstUnlock
        #expect(Self.failure { _ = try store.keys() }?.code == .dataStorageLocked)
        keychain.device = .unlocked
        keychain.state.withLock { $0.addFailures["n"] = .other(-34018) }
        let other = Self.failure { try store.setData(Data(), forKey: "n") }
        #expect(other?.code == .dataStorageNotAvailable && other?.message.contains("-34018") == true)
        keychain.state.withLock { $0.addFailures["c"] = .userCanceled }
        let cancelled = Self.failure { try store.setData(Data(), forKey: "c", access: .userPresence) }
        #expect(cancelled?.code == .dataStorageNotAvailable && cancelled?.message.contains("errSecUserCanceled") == true)
    }

    @Test("start() on a device not unlocked since it started: profiles reported unavailable, nothing deleted, all back after the unlock")
    func lockedLaunchKeepsTheUser() async throws {
        let keychain = FakeKeychain()
        let server = ReferenceIdentityService()
        let profile = try await Self.registered(on: KeychainItemStore(items: keychain), server: server)
        let itemsBefore = keychain.state.withLock { $0.items.keys.sorted() }
        // An item an earlier version wrote as readable only while unlocked: a background launch
        // after the first unlock cannot read it.
        keychain.plant(
            "identityflow.profile.\(profile.profileId)", keychain.state.withLock { $0.items["identityflow.profile.\(profile.profileId)"]!.data },
            protection: nil)
        keychain.device = .lockedAfterFirstUnlock
        let logs = LogCapture()
        var configuration = ClientConfiguration.testing(logger: logs.logger)
        configuration.launchPolicy = .resumeLastUser
        let callsBefore = keychain.calls.count
        let background = UserClient(configuration: configuration, service: server, storage: KeychainItemStore(items: keychain))
        let report = try await background.start()
        #expect(report.unavailableProfiles == [profile])
        #expect(report.profiles.isEmpty && report.removedProfiles.isEmpty && report.unreadableStorageKeys.isEmpty)
        #expect(!keychain.calls.dropFirst(callsBefore).contains { $0.hasPrefix("delete") })
        #expect(logs.messages.contains { $0.contains("11071") })

        keychain.device = .unlocked
        let later = UserClient(configuration: .testing(), service: server, storage: KeychainItemStore(items: keychain))
        #expect(try await later.start().profiles == [profile])
        #expect(keychain.state.withLock { $0.items.keys.sorted() } == itemsBefore)
    }

    @Test("start() before the first unlock, when the Keychain cannot even be listed, fails with 11071 and may be called again")
    func unlistableLaunch() async throws {
        let keychain = FakeKeychain()
        let server = ReferenceIdentityService()
        let profile = try await Self.registered(on: KeychainItemStore(items: keychain), server: server)
        keychain.device = .beforeFirstUnlock
        let client = UserClient(configuration: .testing(), service: server, storage: KeychainItemStore(items: keychain))
        do {
            try await client.start()
            Issue.record("start() returned on a Keychain that cannot be listed")
        } catch { #expect(error.code == .dataStorageLocked) }
        keychain.device = .unlocked
        #expect(try await client.start().profiles == [profile])
    }
}

/// The slot that hands the evaluated `LAContext` to the Keychain read of the biometric key.
@Suite("Hand-over slot")
struct HandOverSlotTests {
    @Test("A value is taken once; a new one replaces an old one not taken")
    func once() {
        let slot = HandOverSlot<String>()
        #expect(slot.take() == nil)
        slot.put("first")
        slot.put("second")
        #expect(slot.take() == "second")
        #expect(slot.take() == nil)
    }
}
