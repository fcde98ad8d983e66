import Foundation
@_spi(Integrator) import IdentityFlow
import IdentityFlowTesting

/// Registers a device-mode profile on the FileStorage in `directory` with the PIN 24680, prints
/// `pin 24680`, then changes the PIN back and forth between 80426 and 24680 until killed: `changing`
/// before each change, `pin P` after it (see main.swift).
func changePinUntilKilled(in directory: URL) async {
    do {
        let server = ReferenceIdentityService()
        var configuration = ClientConfiguration.testing()
        configuration.authenticators = .device()
        let client = UserClient(configuration: configuration, service: server, storage: try FileStorage(directory: directory))
        try await client.start()
        var pin = "24680"
        let profile = try await client.registerUser(
            .provider(ReferenceIdentityService.browserProvider),
            responder: ScriptedResponder([.browserRegistration(.respondWith { try server.logIn(at: $0.url) }), .createPin(.respond(pin))])
        ).profile
        _ = profile
        report("pin \(pin)")
        while true {
            let next = pin == "24680" ? "80426" : "24680"
            report("changing")
            _ = try await client.changePin(responder: ScriptedResponder([.pin(.respond(pin)), .createPin(.respond(next))]))
            pin = next
            report("pin \(pin)")
        }
    } catch {
        FileHandle.standardError.write(Data("identityflow-crash-writer: \(error)\n".utf8))
        exit(1)
    }
}
