import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow
@_spi(Integrator) import IdentityFlowTesting
import Statechart

/// Where the authenticators live (``AuthenticatorHome``): which home a client and a stored profile
/// get, that the homes are one-word views, and what each answers to the questions the steps used
/// to ask of the configuration.
@Suite("Authenticator homes")
struct AuthenticatorHomeTests {
    private static func dependencies(_ placement: AuthenticatorPlacement) -> FlowDependencies {
        var configuration = ClientConfiguration.testing()
        configuration.authenticators = placement
        return FlowDependencies(
            configuration: configuration, transitionLog: TransitionLog(), service: ReferenceIdentityService(), storage: InMemoryStorage())
    }

    private static func storedProfile(withVault: Bool) throws -> StoredProfile {
        let profile = UserProfile(profileId: "home")
        let deviceSecret = Redacted([UInt8](repeating: 7, count: 32))
        let tokens = TokenSet(accessToken: "access", refreshToken: "refresh")
        var stored = StoredProfile(profile: profile, tokens: tokens, deviceSecret: deviceSecret)
        if withVault {
            stored.vault =
                try DeviceVault.create(
                    pin: Redacted("24680"), tokens: tokens, iterations: 16, deviceSecret: deviceSecret, hardwareKey: nil, profile: profile
                ).0
        }
        return stored
    }

    @Test("the client's home follows ClientConfiguration.authenticators")
    func clientHome() {
        #expect(Self.dependencies(.server).authenticatorHome is ServerAuthenticators)
        #expect(Self.dependencies(.device()).authenticatorHome is DeviceAuthenticators)
    }

    @Test("a stored profile's home is the one it was registered in (a vault or not), whatever the configuration")
    func profileHome() throws {
        let withVault = try Self.storedProfile(withVault: true), withoutVault = try Self.storedProfile(withVault: false)
        for placement in [AuthenticatorPlacement.server, .device()] {
            let dependencies = Self.dependencies(placement)
            #expect(dependencies.authenticatorHome(of: withVault) is DeviceAuthenticators)
            #expect(dependencies.authenticatorHome(of: withoutVault) is ServerAuthenticators)
        }
    }

    @Test("both homes are one-word views over the dependencies: nothing to allocate in an existential")
    func oneWord() {
        #expect(MemoryLayout<ServerAuthenticators>.size == MemoryLayout<FlowDependencies>.size)
        #expect(MemoryLayout<DeviceAuthenticators>.size == MemoryLayout<FlowDependencies>.size)
        #expect(MemoryLayout<FlowDependencies>.size == MemoryLayout<UnsafeRawPointer>.size)
    }

    @Test("the server issues a token set per login and serves mobile and implicit authentication; the device does neither")
    func placementAnswers() throws {
        let server = Self.dependencies(.server).authenticatorHome
        #expect(server.issuesTokensPerLogin)
        #expect(server.providersWithoutServerList == nil)
        try server.requireServerAuthenticators()

        let device = Self.dependencies(.device()).authenticatorHome
        #expect(!device.issuesTokensPerLogin)
        #expect(device.providersWithoutServerList?.map(\.kind) == [.browser])
        let refusal = #expect(throws: IdentityFlowError.self) { try device.requireServerAuthenticators() }
        #expect(refusal?.code == .serverAuthenticatorsRequired)
    }
}
