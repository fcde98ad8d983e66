import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
@testable import IdentityFlowTesting
import Statechart

/// PIN proof v2's properties (`docs/pin-proof.md`, "Threat model"), each played by an attacker
/// against the reference server. The same against the fixture server: `PinInteropTests`.
@Suite("PIN proof v2: attacks")
struct PinAttackTests {
    static let pin = "24680"

    /// A client registered through the browser with ``pin``, its storage and its server.
    struct Victim {
        let server: ReferenceIdentityService
        let storage: SpyStorage
        let client: UserClient
        let profile: UserProfile

        init(biometrics: Bool = false) async throws {
            server = ReferenceIdentityService()
            storage = SpyStorage()
            client = UserClient(configuration: .testing(), service: server, storage: storage)
            try await client.start()
            let server = server
            profile = try await client.registerUser(
                responder: ScriptedResponder([
                    .browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond(PinAttackTests.pin)),
                ])
            ).profile
            if biometrics {
                try await client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond(PinAttackTests.pin))]))
            }
        }

        /// The server's record of the profile, as a leaked table would show it.
        var record: ServerState.Enrolment? { server.state.withLock { $0.enrolments[profile.profileId] } }
        var pinPublicKey: [UInt8]? {
            guard case .v2(let publicKey)? = record?.verifier else { return nil }
            return publicKey
        }
    }

    /// The PIN public key an attacker would compute for `pin` with `deviceSecret`.
    static func candidateKey(_ pin: String, salt: [UInt8], iterations: Int, deviceSecret: [UInt8], profile: UserProfile) throws -> [UInt8] {
        try PinProof.pinKey(pin: Redacted(pin), salt: salt, iterations: iterations, deviceSecret: Redacted(deviceSecret), profile: profile).publicKey
    }

    @Test("1. a full copy of the device's storage holds nothing a PIN can be tested against; a copy that logs in must ask the server, which counts")
    func deviceCopy() async throws {
        let victim = try await Victim()
        let copy = victim.storage.snapshot()
        let record = try #require(victim.record)
        let stored = try #require(copy.values.first { String(decoding: $0, as: UTF8.self).contains("deviceSecret") })
        let deviceSecret = Array(
            try #require(((try JSONSerialization.jsonObject(with: stored) as? [String: Any])?["deviceSecret"] as? String).flatMap { Data(base64Encoded: $0) }))
        // The right PIN's public key (which the attacker could compute with the copied secret and
        // the salt the challenge endpoint hands anyone) appears nowhere in the copy: there is
        // nothing to compare a guess with, so no PIN can be tested offline.
        let rightKey = try Self.candidateKey(Self.pin, salt: record.salt, iterations: record.iterations, deviceSecret: deviceSecret, profile: victim.profile)
        for item in copy.values { #expect(!Array(item).contains(subsequence: Array(rightKey.dropFirst()))) }
        #expect(copy.values.allSatisfy { !String(decoding: $0, as: UTF8.self).contains(Self.pin) })
        // A client on the copied storage must prove a PIN to the server; a wrong guess is counted.
        let thief = UserClient(configuration: .testing(), service: victim.server, storage: SpyStorage(copy))
        try await thief.start()
        let guess = await Result { () async throws(IdentityFlowError) in
            try await thief.authenticateUser(victim.profile, responder: ScriptedResponder([.pin(.respond("13579")), .pin(.cancel)]))
        }
        #expect(guess.failure?.code == .actionCancelled)
        #expect(victim.record?.failureCount == 1)
    }

    @Test("2. a full copy of the server's records holds public keys only: without the device secret the right PIN does not reproduce them")
    func serverCopy() async throws {
        let victim = try await Victim(biometrics: true)
        let record = try #require(victim.record)
        let publicKey = try #require(victim.pinPublicKey)
        #expect(DeviceKey.isValidPublicKey(publicKey))
        #expect(try #require(record.biometricKey).count == 65)
        // The attacker knows everything the server knows, and even the PIN, but not the device
        // secret: every secret it tries gives another key.
        for attempt in 0..<8 {
            let guessed = Array(repeating: UInt8(attempt), count: PinProof.deviceSecretLength)
            #expect(
                try Self.candidateKey(Self.pin, salt: record.salt, iterations: record.iterations, deviceSecret: guessed, profile: victim.profile) != publicKey)
        }
    }

    @Test("3. a recorded login replays to nothing: its nonce is spent, and its proof over a fresh nonce is a counted wrong PIN")
    func recordedLogin() async throws {
        let victim = try await Victim()
        let recorder = RecordingService(victim.server)
        let client = UserClient(configuration: .testing(), service: recorder, storage: SpyStorage(victim.storage.snapshot()))
        try await client.start()
        _ = try await client.authenticateUser(victim.profile, responder: ScriptedResponder([.pin(.respond(Self.pin))]))
        let (proof, nonce) = try #require(recorder.proofs.last)
        await #expect { try await victim.server.verifyPinProof(proof, for: victim.profile, nonce: nonce) } throws: {
            ($0 as? IdentityFlowError)?.oauthError == "invalid_nonce"
        }
        let fresh = try await victim.server.pinLoginChallenge(for: victim.profile)
        #expect(try await victim.server.verifyPinProof(proof, for: victim.profile, nonce: fresh.nonce) == .rejected(failureCount: 1, maxFailureCount: 3))
    }

    @Test(
        "6. the client bounds the server's parameters before deriving anything: 11013, and no proof is sent",
        arguments: [
            HostileChallenge.iterations(1), .iterations(1_000_000_000), .salt(1), .salt(1_000), .nonce(0), .nonce(8), .version(1),
        ])
    func hostileParameters(_ hostile: HostileChallenge) async throws {
        let victim = try await Victim()
        let liar = RecordingService(victim.server, rewrite: hostile.apply)
        var configuration = ClientConfiguration.testing()
        configuration.acceptedPinKeyIterations = 16...1_000_000
        let client = UserClient(configuration: configuration, service: liar, storage: SpyStorage(victim.storage.snapshot()))
        try await client.start()
        let result = await Result { () async throws(IdentityFlowError) in
            try await client.authenticateUser(victim.profile, responder: ScriptedResponder([.pin(.respond(Self.pin))]))
        }
        #expect(result.failure?.code == .pinParametersRefused)
        #expect(liar.proofs.isEmpty)
    }

    @Test("7. a copied access token cannot set a PIN: without a proof it is refused, with a wrong one it is counted")
    func copiedTokenCannotReenrol() async throws {
        let victim = try await Victim()
        let token = try #require(victim.server.state.withLock { state in state.accessTokens.first { $0.value.user == "alice" }?.key })
        let attackerKey = try DeviceKey.random()
        let takeover = PinEnrolment(profile: victim.profile, salt: Array(repeating: 1, count: 16), iterations: 16, publicKey: attackerKey.publicKey)
        await #expect { try await victim.server.enrolPin(takeover, accessToken: Redacted(token)) } throws: {
            ($0 as? IdentityFlowError)?.oauthError == "proof_required"
        }
        let nonce = try await victim.server.pinLoginChallenge(for: victim.profile).nonce
        let forged = PinEnrolment(
            profile: victim.profile, salt: takeover.salt, iterations: 16, publicKey: attackerKey.publicKey,
            authorization: PinKeyAuthorization(nonce: nonce, proof: attackerKey.sign(Array("anything".utf8))))
        await #expect { try await victim.server.enrolPin(forged, accessToken: Redacted(token)) } throws: {
            ($0 as? IdentityFlowError)?.code == .invalidPin
        }
        #expect(victim.record?.failureCount == 1)
        #expect(victim.pinPublicKey != attackerKey.publicKey)
    }

    @Test(
        "malformed signatures and points are refused by the server without counting",
        arguments: [
            [UInt8](repeating: 1, count: 63), [UInt8](repeating: 0, count: 64), [UInt8](repeating: 0xff, count: 64), [UInt8](repeating: 1, count: 65),
        ])
    func malformedProofs(_ proof: [UInt8]) async throws {
        let victim = try await Victim()
        let nonce = try await victim.server.pinLoginChallenge(for: victim.profile).nonce
        await #expect { try await victim.server.verifyPinProof(Redacted(proof), for: victim.profile, nonce: nonce) } throws: {
            ($0 as? IdentityFlowError)?.oauthError == "invalid_request"
        }
        #expect(victim.record?.failureCount == 0)
        let token = try #require(victim.server.state.withLock { state in state.accessTokens.first?.key })
        var offCurve = [UInt8](repeating: 1, count: 65)
        offCurve[0] = 4
        await #expect {
            try await victim.server.enrolPin(
                PinEnrolment(
                    profile: UserProfile(profileId: "new"), salt: Array(repeating: 1, count: 16),
                    iterations: 16, publicKey: offCurve), accessToken: Redacted(token))
        } throws: {
            ($0 as? IdentityFlowError)?.oauthError == "invalid_request"
        }
    }

    @Test("5. the biometric key is a key of its own, stored apart with user presence, and revocable by itself")
    func biometricKeyOfItsOwn() async throws {
        let victim = try await Victim(biometrics: true)
        let items = victim.storage.accessByKey
        let biometricItem = try #require(items.first { $0.key.contains("biometric") })
        #expect(biometricItem.value == .userPresence)
        #expect(items.filter { $0.value == .userPresence }.count == 1, "tokens are never behind user presence")
        #expect(victim.record?.biometricKey != victim.pinPublicKey)
        _ = try await victim.client.authenticateUser(
            victim.profile, authenticator: .biometric, responder: ScriptedResponder([.biometric(.respond(.confirmed))]))
        victim.server.revokeBiometricKeyForTesting(of: victim.profile)
        // Revoked on the server alone: the biometric proof is refused there, and the flow falls back to the PIN.
        let responder = ScriptedResponder([.biometric(.respond(.confirmed)), .pin(.respond(Self.pin), expecting: .biometricAuthenticatorFailure)])
        _ = try await victim.client.authenticateUser(victim.profile, authenticator: .biometric, responder: responder)
        try responder.verify()
    }

    @Test("a PIN change proves the current key; the old PIN is dead afterwards, the new one logs in")
    func pinChangeNeedsTheCurrentKey() async throws {
        let victim = try await Victim()
        let before = try #require(victim.pinPublicKey)
        try await victim.client.changePin(responder: ScriptedResponder([.pin(.respond(Self.pin)), .createPin(.respond("80426"))]))
        #expect(victim.pinPublicKey != before)
        let old = await Result { () async throws(IdentityFlowError) in
            try await victim.client.authenticateUser(victim.profile, responder: ScriptedResponder([.pin(.respond(Self.pin)), .pin(.cancel)]))
        }
        #expect(old.failure?.code == .actionCancelled)
        _ = try await victim.client.authenticateUser(victim.profile, responder: ScriptedResponder([.pin(.respond("80426"))]))
    }
}

/// A server answer a hostile server might give at the PIN challenge.
enum HostileChallenge: Sendable, CustomTestStringConvertible {
    case iterations(Int), salt(Int), nonce(Int), version(Int)

    func apply(_ challenge: PinLoginChallenge) -> PinLoginChallenge {
        switch self {
        case .iterations(let count):
            PinLoginChallenge(
                nonce: challenge.nonce, salt: challenge.salt, iterations: count, maxFailureCount: challenge.maxFailureCount,
                failureCount: challenge.failureCount)
        case .salt(let length):
            PinLoginChallenge(
                nonce: challenge.nonce, salt: Array(repeating: 1, count: length), iterations: challenge.iterations,
                maxFailureCount: challenge.maxFailureCount, failureCount: challenge.failureCount)
        case .nonce(let length):
            PinLoginChallenge(
                nonce: Array(repeating: 1, count: length), salt: challenge.salt, iterations: challenge.iterations,
                maxFailureCount: challenge.maxFailureCount, failureCount: challenge.failureCount)
        case .version(let version):
            PinLoginChallenge(
                nonce: challenge.nonce, salt: challenge.salt, iterations: challenge.iterations,
                maxFailureCount: challenge.maxFailureCount, failureCount: challenge.failureCount, version: version)
        }
    }

    var testDescription: String {
        switch self {
        case .iterations(let count): "\(count) iterations"
        case .salt(let length): "a \(length)-byte salt"
        case .nonce(let length): "a \(length)-byte nonce"
        case .version(let version): "version \(version)"
        }
    }
}

/// A ``SecureStorage`` in memory that remembers how each item was written and can be copied whole.
final class SpyStorage: SecureStorage {
    private let items: Locked<[String: Data]>
    private let access = Locked<[String: StorageAccess]>([:])

    init(_ items: [String: Data] = [:]) { self.items = Locked(items) }

    func data(forKey key: String) throws(IdentityFlowError) -> Data? { items.withLock { $0[key] } }
    func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) { try setData(data, forKey: key, access: .whenUnlocked) }
    func setData(_ data: Data, forKey key: String, access: StorageAccess) throws(IdentityFlowError) {
        items.withLock { $0[key] = data }
        self.access.withLock { $0[key] = access }
    }
    func removeData(forKey key: String) throws(IdentityFlowError) {
        items.withLock { $0[key] = nil }
        access.withLock { $0[key] = nil }
    }
    func keys() throws(IdentityFlowError) -> [String] { items.withLock { Array($0.keys) } }

    /// Every item, as a thief copying the store gets it.
    func snapshot() -> [String: Data] { items.withLock { $0 } }
    /// How each item was written.
    var accessByKey: [String: StorageAccess] { access.withLock { $0 } }
}

/// Passes every call to a reference server, recording the PIN proofs sent and optionally
/// rewriting the challenges it answers.
final class RecordingService: IdentityService {
    let inner: ReferenceIdentityService
    private let rewrite: @Sendable (PinLoginChallenge) -> PinLoginChallenge
    private let recorded = Locked<[(Redacted<[UInt8]>, [UInt8])]>([])

    init(_ inner: ReferenceIdentityService, rewrite: @escaping @Sendable (PinLoginChallenge) -> PinLoginChallenge = { $0 }) {
        self.inner = inner
        self.rewrite = rewrite
    }

    /// The (proof, nonce) pairs sent to verify, in order.
    var proofs: [(Redacted<[UInt8]>, [UInt8])] { recorded.withLock { $0 } }

    nonisolated(nonsending) func identityProviders() async throws(IdentityFlowError) -> [IdentityProvider] { try await inner.identityProviders() }
    nonisolated(nonsending) func authorizationURL(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError) -> URL {
        try await inner.authorizationURL(for: provider, request: request)
    }
    nonisolated(nonsending) func exchangeCode(_ code: Redacted<String>, request: AuthorizationRequest) async throws(IdentityFlowError) -> TokenSet {
        try await inner.exchangeCode(code, request: request)
    }
    nonisolated(nonsending) func initCustomRegistration(provider: IdentityProvider, data: Redacted<String?>) async throws(IdentityFlowError)
        -> CustomRegistrationAnswer
    {
        try await inner.initCustomRegistration(provider: provider, data: data)
    }
    nonisolated(nonsending) func completeCustomRegistration(provider: IdentityProvider, session: String?, data: Redacted<String?>)
        async throws(IdentityFlowError) -> CustomRegistrationAnswer
    {
        try await inner.completeCustomRegistration(provider: provider, session: session, data: data)
    }
    nonisolated(nonsending) func enrolPin(_ enrolment: PinEnrolment, accessToken: Redacted<String>) async throws(IdentityFlowError) -> PinEnrolmentReceipt {
        try await inner.enrolPin(enrolment, accessToken: accessToken)
    }
    nonisolated(nonsending) func pinLoginChallenge(for profile: UserProfile) async throws(IdentityFlowError) -> PinLoginChallenge {
        rewrite(try await inner.pinLoginChallenge(for: profile))
    }
    nonisolated(nonsending) func verifyPinProof(_ proof: Redacted<[UInt8]>, for profile: UserProfile, nonce: [UInt8]) async throws(IdentityFlowError)
        -> PinVerification
    {
        recorded.withLock { $0.append((proof, nonce)) }
        return try await inner.verifyPinProof(proof, for: profile, nonce: nonce)
    }
    nonisolated(nonsending) func refresh(_ refreshToken: Redacted<String>) async throws(IdentityFlowError) -> TokenSet { try await inner.refresh(refreshToken) }
    nonisolated(nonsending) func revoke(_ tokens: TokenSet) async throws(IdentityFlowError) { try await inner.revoke(tokens) }
    nonisolated(nonsending) func deregister(_ profile: UserProfile, authorization: PinKeyAuthorization) async throws(IdentityFlowError) {
        try await inner.deregister(profile, authorization: authorization)
    }
    nonisolated(nonsending) func profileExists(_ profile: UserProfile) async throws(IdentityFlowError) -> Bool { try await inner.profileExists(profile) }
}

private extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
