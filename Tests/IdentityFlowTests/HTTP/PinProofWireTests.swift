import Foundation
import Testing
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// PIN proof v2 over HTTP: what `HTTPIdentityService` sends and how it reads the answers
/// (`docs/extension-api.openapi.yaml` 2.0).
@Suite("HTTP service: PIN proof v2 wire format")
struct PinProofWireTests {
    static let profile = UserProfile(profileId: "P1")

    private static func json(_ request: LoopbackHTTPServer.Request) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]) ?? [:]
    }

    private static func service(_ server: LoopbackHTTPServer) throws -> HTTPIdentityService {
        try HTTPIdentityService(
            configuration: HTTPServiceConfiguration(
                issuer: server.baseURL.appendingPathComponent("o"), clientID: "c", redirectURI: URL(string: "identityflow://callback")!))
    }

    @Test("enrolment sends the public key, and the current key's nonce and proof when it re-enrols; proof_required, token_not_allowed and invalid_pin map")
    func enrolment() async throws {
        let server = try LoopbackHTTPServer(maxRequests: 8) { request in
            switch (request.path, Self.json(request)["proof"] != nil) {
            case ("/identityflow/pin/enrol", false) where Self.json(request)["profile_id"] as? String == "P3":
                return .json(403, #"{"error": "token_not_allowed", "error_description": "x"}"#)
            case ("/identityflow/pin/enrol", false) where Self.json(request)["profile_id"] as? String == "P2":
                return .json(403, #"{"error": "proof_required", "error_description": "x"}"#)
            case ("/identityflow/pin/enrol", true) where Self.json(request)["profile_id"] as? String == "P2":
                return .json(
                    401, #"{"error": "invalid_pin", "error_description": "x", "failure_count": 1, "max_failure_count": 3, "remaining_failure_count": 2}"#)
            case ("/identityflow/pin/enrol", _):
                return .json(200, #"{"max_failure_count": 3}"#)
            default:
                return .json(404, #"{"error": "unknown_profile", "error_description": "x"}"#)
            }
        }
        defer { server.stop() }
        let service = try Self.service(server)
        let publicKey = [UInt8](repeating: 4, count: 65)
        _ = try await service.enrolPin(
            PinEnrolment(profile: Self.profile, salt: [1, 2], iterations: 100_000, publicKey: publicKey), accessToken: Redacted("t"))
        let first = Self.json(server.requests[0])
        #expect(first["public_key"] as? String == Base64URL.encode(publicKey))
        #expect(first["salt"] as? String == Base64URL.encode([1, 2]))
        #expect(first["iterations"] as? Int == 100_000)
        #expect(first["nonce"] == nil && first["proof"] == nil && first["verifier"] == nil)
        let authorization = PinKeyAuthorization(nonce: [7, 7], proof: [8, 8])
        _ = try await service.enrolPin(
            PinEnrolment(profile: Self.profile, salt: [1], iterations: 1, publicKey: publicKey, authorization: authorization),
            accessToken: Redacted("t"))
        let second = Self.json(server.requests[1])
        #expect(second["nonce"] as? String == Base64URL.encode([7, 7]))
        #expect(second["proof"] as? String == Base64URL.encode([8, 8]))
        let required = await HTTPTestSupport.expectError(.pinProofRequired) { () throws(IdentityFlowError) in
            _ = try await service.enrolPin(
                PinEnrolment(profile: UserProfile(profileId: "P2"), salt: [1], iterations: 1, publicKey: publicKey), accessToken: Redacted("t"))
        }
        #expect(required?.oauthError == "proof_required")
        let bound = await HTTPTestSupport.expectError(.accessTokenNotAllowed) { () throws(IdentityFlowError) in
            _ = try await service.enrolPin(
                PinEnrolment(profile: UserProfile(profileId: "P3"), salt: [1], iterations: 1, publicKey: publicKey), accessToken: Redacted("t"))
        }
        #expect(bound?.oauthError == "token_not_allowed")
        await HTTPTestSupport.expectError(.invalidPin) { () throws(IdentityFlowError) in
            _ = try await service.enrolPin(
                PinEnrolment(
                    profile: UserProfile(profileId: "P2"), salt: [1], iterations: 1, publicKey: publicKey,
                    authorization: authorization), accessToken: Redacted("t"))
        }
    }

    @Test("the challenge's version is read, and a challenge without one is a v1 profile's")
    func challengeVersion() async throws {
        let server = try LoopbackHTTPServer(maxRequests: 4) { request in
            let versioned = String(decoding: request.body, as: UTF8.self).contains("P1")
            return .json(
                200,
                #"{"nonce": "AQIDBAUGBwgJCgsMDQ4PEA", "salt": "AQ", "iterations": 100000, "max_failure_count": 3, "failure_count": 0"#
                    + (versioned ? #", "version": 2}"# : "}"))
        }
        defer { server.stop() }
        let service = try Self.service(server)
        #expect(try await service.pinLoginChallenge(for: Self.profile).version == 2)
        #expect(try await service.pinLoginChallenge(for: UserProfile(profileId: "old")).version == 1)
    }

    @Test("biometric enrolment, verification and revocation use their own endpoints; a server without the key says 10007")
    func biometricEndpoints() async throws {
        let server = try LoopbackHTTPServer(maxRequests: 8) { request in
            switch request.path {
            case "/identityflow/biometric/enrol": .response(status: 204, headers: [:], body: Data())
            case "/identityflow/biometric/verify": .json(404, #"{"error": "authenticator_not_registered", "error_description": "x"}"#)
            case "/identityflow/biometric/revoke": .response(status: 204, headers: [:], body: Data())
            default: .json(500, #"{"error": "x", "error_description": "x"}"#)
            }
        }
        defer { server.stop() }
        let service = try Self.service(server)
        try await service.enrolBiometricKey([4, 4], for: Self.profile, authorization: PinKeyAuthorization(nonce: [1], proof: [2]), accessToken: Redacted("t"))
        let enrol = Self.json(server.requests[0])
        #expect(enrol["public_key"] as? String == Base64URL.encode([4, 4]))
        #expect(server.requests[0].headers["authorization"] == "Bearer t")
        await HTTPTestSupport.expectError(.authenticatorNotRegistered) { () throws(IdentityFlowError) in
            _ = try await service.verifyBiometricProof(Redacted([1]), for: Self.profile, nonce: [2])
        }
        try await service.revokeBiometricKey(for: Self.profile, authorization: PinKeyAuthorization(nonce: [5], proof: [6]))
        let revocation = Self.json(server.requests[2])
        #expect(server.requests[2].method == "POST")
        #expect(revocation["profile_id"] as? String == Self.profile.profileId)
        #expect(revocation["nonce"] as? String == Base64URL.encode([5]))
        #expect(revocation["proof"] as? String == Base64URL.encode([6]))
        #expect(server.requests[2].headers["authorization"] == nil)
    }

    @Test("IdentityService.verifyPinProof's doc comment describes proof v2 (ECDSA P-256 signature), not v1's HMAC")
    func verifyPinProofDocumentsV2() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let source = try String(contentsOf: root.appendingPathComponent("Sources/IdentityFlow/Service/IdentityService.swift"), encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let declaration = try #require(lines.firstIndex { $0.contains("func verifyPinProof(") })
        let comment = lines[..<declaration].reversed().prefix { $0.trimmingCharacters(in: .whitespaces).hasPrefix("///") }.reversed().joined(separator: "\n")
        #expect(comment.contains("ECDSA") && comment.contains("P-256"), "\(comment)")
        #expect(comment.contains("docs/pin-proof.md"), "\(comment)")
        #expect(!comment.contains("HMAC"), "\(comment)")
    }
}
