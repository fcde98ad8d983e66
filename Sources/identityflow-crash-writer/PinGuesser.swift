import Foundation
@_spi(Integrator) import IdentityFlow
import IdentityFlowTesting

/// Starts a device-mode client on the FileStorage in `directory`, prints `ready`, waits for a
/// line on the standard input, then makes `guesses` login attempts of one wrong PIN each and
/// prints `done` (see main.swift).
func guessPins(in directory: URL, profileId: String, pin: String, guesses: Int, maxPinFailures: Int) async {
    do {
        var configuration = ClientConfiguration.testing()
        configuration.authenticators = .device(maxPinFailures: maxPinFailures)
        let client = UserClient(configuration: configuration, service: ReferenceIdentityService(), storage: try FileStorage(directory: directory))
        try await client.start()
        guard let profile = client.userProfiles.first(where: { $0.profileId == profileId }) else {
            FileHandle.standardError.write(Data("identityflow-crash-writer: no profile \(profileId)\n".utf8))
            exit(1)
        }
        report("ready")
        _ = readLine()
        for _ in 0..<guesses {
            // One wrong PIN, then the next challenge is cancelled: the attempt was counted.
            _ = try? await client.authenticateUser(profile, responder: ScriptedResponder([.pin(.respond(pin)), .pin(.cancel, expecting: .invalidPin)]))
        }
        report("done")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("identityflow-crash-writer: \(error)\n".utf8))
        exit(1)
    }
}
