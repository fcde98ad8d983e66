import Foundation
@_spi(Integrator) import IdentityFlow
import IdentityFlowTesting

/// Registers a device-mode profile under `resumeLastUser` on the FileStorage in `directory` with
/// the PIN 24680, prints `pin 24680`, then rotates its vault without the PIN until killed:
/// registers biometrics, removes them (a rotation), registers them again, logs out (the end of a
/// resumable session: a rotation) and logs in with biometrics, printing `rotating` before each
/// round and `rotated` after it (see main.swift).
func rotateWithoutPinUntilKilled(in directory: URL) async {
    do {
        let server = ReferenceIdentityService()
        var configuration = ClientConfiguration.testing()
        configuration.authenticators = .device()
        configuration.launchPolicy = .resumeLastUser
        let client = UserClient(configuration: configuration, service: server, storage: try FileStorage(directory: directory))
        try await client.start()
        let pin = "24680"
        let profile = try await client.registerUser(
            .provider(ReferenceIdentityService.browserProvider),
            responder: ScriptedResponder([.browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond(pin))])
        ).profile
        report("pin \(pin)")
        while true {
            report("rotating")
            try await client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond(pin))]))
            try client.deregisterBiometricAuthenticator(for: profile)
            try await client.registerBiometricAuthenticator(for: profile, responder: ScriptedResponder([.pin(.respond(pin))]))
            try await client.logout()
            _ = try await client.authenticateUser(profile, authenticator: .biometric, responder: ScriptedResponder([.biometric(.respond(.confirmed))]))
            report("rotated")
        }
    } catch {
        FileHandle.standardError.write(Data("identityflow-crash-writer: \(error)\n".utf8))
        exit(1)
    }
}
