import Foundation
@_spi(Integrator) import IdentityFlow
import IdentityFlowTesting

func item(_ version: Int, key: String) -> Data {
    // Big enough that a write takes more than one system call.
    let padding = String(repeating: "x", count: 8_192 + (version % 7) * 1_024)
    return Data("{\"key\":\"\(key)\",\"version\":\(version),\"padding\":\"\(padding)\"}".utf8)
}

/// Writes items, profiles and checkpoints into `directory` until killed (see main.swift).
func writeUntilKilled(into directory: URL) async {
    do {
        let storage = try FileStorage(directory: directory)
        let server = ReferenceIdentityService()
        let custom = server.addCustomProvider(id: "custom", steps: .oneStep) { _, _ in .status(2000, data: "ok") }
        var configuration = ClientConfiguration.testing()
        configuration.callbackExecutor = .immediate
        let client = UserClient(configuration: configuration, service: server, storage: storage)
        try await client.start()
        var version =
            (try storage.keys().filter { $0.hasPrefix("stress.") }.compactMap { key -> Int? in
                guard let data = try storage.data(forKey: key),
                    let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                else { return nil }
                return json["version"] as? Int
            }.max() ?? 0)
        while true {
            version += 1
            let key = "stress.\(version % 4)"
            try storage.setData(item(version, key: key), forKey: key)
            report("item \(key) \(version)")
            if version % 3 == 0 {
                let result = try await client.registerUser(.provider(custom)) { challenge in
                    switch challenge {
                    case .customRegistration(let step): step.sender.respond(with: "data", to: step)
                    case .createPin(let create): create.sender.respond(with: "24680", to: create)
                    default: challenge.cancel()
                    }
                }
                report("profile \(result.profile.profileId)")
            } else if version % 3 == 1 {
                _ = try? await client.registerUser(.provider(ReferenceIdentityService.browserProvider)) { challenge in
                    challenge.cancel()
                }
            }
        }
    } catch {
        FileHandle.standardError.write(Data("identityflow-crash-writer: \(error)\n".utf8))
        exit(1)
    }
}
