import Foundation
import Testing
@_spi(Integrator) import IdentityFlow
import Statechart

extension InteropSuite {
    @Suite("Interop: PIN enrolment and PIN-proof login against the fixture")
    struct PinInteropTests {
        private static func bytes(hex: String) -> [UInt8] {
            var result: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
                index = next
            }
            return result
        }

        @Test("the v1 proof still computes as PIN proof v1 did (v1 profiles log in once with it, then upgrade)")
        func legacyExample() throws {
            let salt = Self.bytes(hex: "000102030405060708090a0b0c0d0e0f")
            let key = try LegacyPinProof.derivedKey(pin: Redacted("24680"), salt: salt, iterations: 1000)
            #expect(key.value == Self.bytes(hex: "0030cb13e7c600f39ab9f72a5d3e6489cbee22f5552de823d806a00d59ede1ea"))
            #expect(Base64URL.encode(key.value) == "ADDLE-fGAPOaufcqXT5kicvuIvVVLegj2AagDVnt4eo")
            let nonce = Self.bytes(hex: "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f")
            #expect(Base64URL.encode(nonce) == "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8")
            let proof = LegacyPinProof.proof(key: key, profile: UserProfile(profileId: "P1"), nonce: nonce)
            #expect(proof.value == Self.bytes(hex: "2560ee5b6438d9f955b5a3d33bbf480ff7475b8703e80f89ffcae14df15e1ef5"))
            #expect(Base64URL.encode(proof.value) == "JWDuW2Q42flVtaPTO79ID_dHW4cD6A-J_8rhTfFeHvU")
        }

        /// The device secret of every profile these tests enrol.
        private static let deviceSecret = Redacted(Array(repeating: UInt8(9), count: PinProof.deviceSecretLength))

        private func enrolledProfile(_ service: HTTPIdentityService, pin: String) async throws -> (PinEnrolment, PinEnrolmentReceipt) {
            let tokens = try await InteropEnvironment.tokens(service: service)
            let profile = UserProfile(profileId: "pin-\(UUID().uuidString.prefix(12))")
            let (salt, key) = try PinProof.newPinKey(pin: Redacted(pin), iterations: 100_000, deviceSecret: Self.deviceSecret, profile: profile)
            let enrolment = PinEnrolment(profile: profile, salt: salt, iterations: 100_000, publicKey: key.publicKey)
            let receipt = try await service.enrolPin(enrolment, accessToken: tokens.accessToken)
            return (enrolment, receipt)
        }

        private func proof(_ pin: String, _ profile: UserProfile, _ challenge: PinLoginChallenge) throws -> Redacted<[UInt8]> {
            let key = try PinProof.pinKey(
                pin: Redacted(pin), salt: challenge.salt, iterations: challenge.iterations, deviceSecret: Self.deviceSecret, profile: profile)
            return Redacted(key.sign(PinProof.message(PinProof.Purpose.login.rawValue, profile: profile, nonce: challenge.nonce)))
        }

        private func attempt(_ service: HTTPIdentityService, _ profile: UserProfile, pin: String) async throws -> (PinLoginChallenge, PinVerification) {
            let challenge = try await service.pinLoginChallenge(for: profile)
            let verdict = try await service.verifyPinProof(try proof(pin, profile, challenge), for: profile, nonce: challenge.nonce)
            return (challenge, verdict)
        }

        @Test("enrol, then a wrong PIN is counted and the right one logs in and resets the count")
        func wrongThenRight() async throws {
            let service = try InteropEnvironment.service()
            let (enrolment, receipt) = try await enrolledProfile(service, pin: "73914")
            let max = receipt.maxFailureCount  // the fixture's IDENTITYFLOW_PIN_MAX_FAILURES, 3 unless set
            #expect(max >= 2)
            let (first, wrong) = try await attempt(service, enrolment.profile, pin: "11223")
            #expect(first.failureCount == 0)
            #expect(first.salt == enrolment.salt)
            #expect(wrong == .rejected(failureCount: 1, maxFailureCount: max))
            let (second, right) = try await attempt(service, enrolment.profile, pin: "73914")
            #expect(second.failureCount == 1)
            guard case .accepted(let tokens) = right else {
                Issue.record("the right PIN was refused: \(right)")
                return
            }
            let refreshed = try await service.refresh(try #require(tokens.refreshToken))
            #expect(refreshed.refreshToken != tokens.refreshToken)
            let (third, _) = try await attempt(service, enrolment.profile, pin: "73914")
            #expect(third.failureCount == 0)
        }

        @Test("a reused nonce is refused without counting a failure")
        func reusedNonce() async throws {
            let service = try InteropEnvironment.service()
            let (enrolment, _) = try await enrolledProfile(service, pin: "73914")
            let challenge = try await service.pinLoginChallenge(for: enrolment.profile)
            let proof = try proof("73914", enrolment.profile, challenge)
            _ = try await service.verifyPinProof(proof, for: enrolment.profile, nonce: challenge.nonce)
            let error = await InteropEnvironment.expectError(.requestInvalid) { () throws(IdentityFlowError) in
                try await service.verifyPinProof(proof, for: enrolment.profile, nonce: challenge.nonce)
            }
            #expect(error?.oauthError == "invalid_nonce")
        }

        @Test("lockout: the wrong PIN at the maximum deregisters the profile; later calls say userDeregistered")
        func lockout() async throws {
            let service = try InteropEnvironment.service()
            let (enrolment, receipt) = try await enrolledProfile(service, pin: "73914")
            var verdicts: [PinVerification] = []
            for _ in 0..<receipt.maxFailureCount {
                verdicts.append(try await attempt(service, enrolment.profile, pin: "11223").1)
            }
            let max = receipt.maxFailureCount
            #expect(verdicts == (1..<max).map { .rejected(failureCount: $0, maxFailureCount: max) } + [.deregistered])
            let error = await InteropEnvironment.expectError(.userDeregistered) { () throws(IdentityFlowError) in
                try await service.pinLoginChallenge(for: enrolment.profile)
            }
            #expect(error?.userProfile == enrolment.profile)
            #expect(try await !service.profileExists(enrolment.profile))
        }

        @Test("a profile the server does not know is gone: 9003")
        func unknownProfile() async throws {
            let service = try InteropEnvironment.service()
            await InteropEnvironment.expectError(.userDeregistered) { () throws(IdentityFlowError) in
                try await service.pinLoginChallenge(for: UserProfile(profileId: "never-enrolled-\(UUID().uuidString.prefix(8))"))
            }
        }
        @Test("a copied access token cannot re-enrol a PIN: without a proof 403 proof_required, with a wrong one a counted failure")
        func reenrolmentNeedsProof() async throws {
            let service = try InteropEnvironment.service()
            let (enrolment, _) = try await enrolledProfile(service, pin: "73914")
            let owner = try await attempt(service, enrolment.profile, pin: "73914").1
            guard case .accepted(let ownerTokens) = owner else { throw HeadlessBrowser.Failure(description: "login refused: \(owner)") }
            let attacker = try DeviceKey.random()
            let takeover = PinEnrolment(profile: enrolment.profile, salt: Array(repeating: 3, count: 16), iterations: 100_000, publicKey: attacker.publicKey)
            let refused = await InteropEnvironment.expectError(.pinProofRequired) { () throws(IdentityFlowError) in
                try await service.enrolPin(takeover, accessToken: ownerTokens.accessToken)
            }
            #expect(refused?.oauthError == "proof_required")
            let nonce = try await service.pinLoginChallenge(for: enrolment.profile).nonce
            let forged = PinEnrolment(
                profile: enrolment.profile, salt: takeover.salt, iterations: 100_000, publicKey: attacker.publicKey,
                authorization: PinKeyAuthorization(nonce: nonce, proof: attacker.sign([1, 2, 3])))
            await InteropEnvironment.expectError(.invalidPin) { () throws(IdentityFlowError) in
                try await service.enrolPin(forged, accessToken: ownerTokens.accessToken)
            }
            #expect(try await service.pinLoginChallenge(for: enrolment.profile).failureCount == 1)
            #expect(try await attempt(service, enrolment.profile, pin: "73914").1 != .deregistered, "the owner's key still stands")
        }

        @Test("malformed proofs and points are refused with 400 and never counted")
        func malformedProofs() async throws {
            let service = try InteropEnvironment.service()
            let (enrolment, _) = try await enrolledProfile(service, pin: "73914")
            for proof in [[UInt8](repeating: 1, count: 63), [UInt8](repeating: 0, count: 64), [UInt8](repeating: 0xff, count: 64)] {
                let nonce = try await service.pinLoginChallenge(for: enrolment.profile).nonce
                await InteropEnvironment.expectError(.requestInvalid) { () throws(IdentityFlowError) in
                    try await service.verifyPinProof(Redacted(proof), for: enrolment.profile, nonce: nonce)
                }
            }
            #expect(try await service.pinLoginChallenge(for: enrolment.profile).failureCount == 0)
            var offCurve = [UInt8](repeating: 1, count: 65)
            offCurve[0] = 4
            let tokens = try await InteropEnvironment.tokens(service: service)
            await InteropEnvironment.expectError(.requestInvalid) { () throws(IdentityFlowError) in
                try await service.enrolPin(
                    PinEnrolment(
                        profile: UserProfile(profileId: "pin-\(UUID().uuidString.prefix(12))"), salt: Array(repeating: 1, count: 16),
                        iterations: 100_000, publicKey: offCurve), accessToken: tokens.accessToken)
            }
        }

        @Test("a v1 profile, stored as a v1 client left it, upgrades to v2 at its next PIN login against the fixture")
        func legacyUpgrade() async throws {
            let profile = UserProfile(profileId: "v1-\(UUID().uuidString.prefix(12))")
            let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/oidc").path
            let python = try #require(ProcessInfo.processInfo.environment["IDENTITYFLOW_PYTHON"])
            #expect(await InteropProvider.run([python, fixture + "/manage.py", "enrol_legacy_pin", profile.profileId, "73914", "--iterations", "100000"]) == 0)
            let service = try InteropEnvironment.service()
            #expect(try await service.pinLoginChallenge(for: profile).version == 1)
            let tokens = try await InteropEnvironment.tokens(service: service)
            let storage = InMemoryStorage()
            let v1 = #"{"profile":{"profileId":"\#(profile.profileId)"},"tokens":{"accessToken":"\#(tokens.accessToken.value)","scopes":["openid"]}}"#
            try storage.setData(Data(v1.utf8), forKey: "identityflow.profile." + profile.profileId)
            let client = try await InteropEnvironment.client(service, storage: storage)
            _ = try await client.authenticateUser(profile, responder: ScriptedPins(["73914"]))
            #expect(try await service.pinLoginChallenge(for: profile).version == 2)
            _ = try await client.authenticateUser(profile, responder: ScriptedPins(["73914"]))
        }

        @Test("the client's flows against the fixture: register, PIN change under the old key's proof, biometrics of their own, revocable alone")
        func clientFlows() async throws {
            let service = try InteropEnvironment.service()
            let client = try await InteropEnvironment.client(service)
            let profile = try await client.registerUser(
                .provider(IdentityProvider(identifier: "custom-one", name: "C", kind: .custom(.oneStep))), responder: InteropResponder(customData: ["me"])
            ).profile
            _ = try await client.changePin(responder: ScriptedPins(["73914", "24680"]))
            _ = try await client.authenticateUser(profile, responder: ScriptedPins(["24680"]))
            try await client.registerBiometricAuthenticator(for: profile, responder: ScriptedPins(["24680"]))
            _ = try await client.authenticateUser(profile, authenticator: .biometric, responder: ScriptedPins([]))
            try client.deregisterBiometricAuthenticator(for: profile)
            #expect(!client.registeredAuthenticators(for: profile).contains(.biometric))
        }
    }
}

/// Answers PIN and create-PIN challenges with the given PINs in order, and biometric ones with
/// a confirmation.
struct ScriptedPins: ChallengeResponder {
    private let pins: Locked<[String]>
    init(_ pins: [String]) { self.pins = Locked(pins) }

    func receive(_ challenge: Challenge) async {
        let next = pins.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        switch challenge {
        case .pin(let prompt): if let next { prompt.sender.respond(with: next, to: prompt) } else { challenge.cancel() }
        case .createPin(let prompt): if let next { prompt.sender.respond(with: next, to: prompt) } else { challenge.cancel() }
        case .biometric(let prompt): prompt.sender.respond(to: prompt)
        default: challenge.cancel()
        }
    }
}
