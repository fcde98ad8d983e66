import Foundation
import Testing
import IdentityFlow

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

    @Test("the worked example of docs/pin-proof.md")
    func workedExample() throws {
        let salt = Self.bytes(hex: "000102030405060708090a0b0c0d0e0f")
        let key = try PinProof.derivedKey(pin: Redacted("24680"), salt: salt, iterations: 1000)
        #expect(key.value == Self.bytes(hex: "0030cb13e7c600f39ab9f72a5d3e6489cbee22f5552de823d806a00d59ede1ea"))
        #expect(Base64URL.encode(key.value) == "ADDLE-fGAPOaufcqXT5kicvuIvVVLegj2AagDVnt4eo")
        let nonce = Self.bytes(hex: "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f")
        #expect(Base64URL.encode(nonce) == "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8")
        let proof = PinProof.proof(key: key, profile: UserProfile(profileId: "P1"), nonce: nonce)
        #expect(proof.value == Self.bytes(hex: "2560ee5b6438d9f955b5a3d33bbf480ff7475b8703e80f89ffcae14df15e1ef5"))
        #expect(Base64URL.encode(proof.value) == "JWDuW2Q42flVtaPTO79ID_dHW4cD6A-J_8rhTfFeHvU")
    }

    private func enrolledProfile(_ service: HTTPIdentityService, pin: String) async throws -> (PinEnrolment, PinEnrolmentReceipt) {
        let tokens = try await InteropEnvironment.tokens(service: service)
        let profile = UserProfile(profileId: "pin-\(UUID().uuidString.prefix(12))")
        let enrolment = try PinProof.enrolment(for: profile, pin: Redacted(pin), iterations: 1000)
        let receipt = try await service.enrolPin(enrolment, accessToken: tokens.accessToken)
        return (enrolment, receipt)
    }

    private func attempt(_ service: HTTPIdentityService, _ profile: UserProfile, pin: String) async throws -> (PinLoginChallenge, PinVerification) {
        let challenge = try await service.pinLoginChallenge(for: profile)
        let key = try PinProof.derivedKey(pin: Redacted(pin), salt: challenge.salt, iterations: challenge.iterations)
        let verdict = try await service.verifyPinProof(PinProof.proof(key: key, profile: profile, nonce: challenge.nonce), for: profile, nonce: challenge.nonce)
        return (challenge, verdict)
    }

    @Test("enrol, then a wrong PIN is counted and the right one logs in and resets the count")
    func wrongThenRight() async throws {
        let service = try InteropEnvironment.service()
        let (enrolment, receipt) = try await enrolledProfile(service, pin: "73914")
        #expect(receipt.maxFailureCount == 3)
        let (first, wrong) = try await attempt(service, enrolment.profile, pin: "11223")
        #expect(first.failureCount == 0)
        #expect(first.salt == enrolment.salt)
        #expect(wrong == .rejected(failureCount: 1, maxFailureCount: 3))
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
        let key = try PinProof.derivedKey(pin: Redacted("73914"), salt: challenge.salt, iterations: challenge.iterations)
        let proof = PinProof.proof(key: key, profile: enrolment.profile, nonce: challenge.nonce)
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
        #expect(verdicts == [.rejected(failureCount: 1, maxFailureCount: 3), .rejected(failureCount: 2, maxFailureCount: 3), .deregistered])
        let error = await InteropEnvironment.expectError(.userDeregistered) { () throws(IdentityFlowError) in try await service.pinLoginChallenge(for: enrolment.profile) }
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
}
}
