import Foundation
import Testing
@_spi(Integrator) @testable import IdentityFlow

/// The sender-constraint settings: defaults, and the configuration file's keys.
@Suite("DPoP and PAR configuration")
struct SenderConstraintConfigurationTests {
    private static func load(_ extra: String) throws(IdentityFlowError) -> HTTPServiceConfiguration {
        try HTTPServiceConfiguration(data: Data(#"{"issuer": "https://id.example.com", "client_id": "app", "redirect_uri": "app://cb"\#(extra)}"#.utf8))
    }

    @Test("defaults: DPoP and PAR when advertised, Bearer answers refused, the standard profile")
    func defaults() throws {
        let configuration = try Self.load("")
        #expect(configuration.dpop == .whenAdvertised && configuration.pushedAuthorization == .whenAdvertised)
        #expect(!configuration.acceptsBearerTokensForDPoP && configuration.securityProfile == .standard)
        #expect(configuration.description.contains("dpop: whenAdvertised"))
    }

    @Test("the file keys: dpop, pushedAuthorization, securityProfile, acceptsBearerTokensForDPoP, and their snake_case spellings")
    func fileKeys() throws {
        let camel = try Self.load(
            #", "dpop": "required", "pushedAuthorization": "off", "securityProfile": "fapi2", "acceptsBearerTokensForDPoP": true"#)
        #expect(camel.dpop == .required && camel.pushedAuthorization == .off && camel.securityProfile == .fapi2 && camel.acceptsBearerTokensForDPoP)
        let snake = try Self.load(
            #", "dpop": "off", "pushed_authorization": "when_advertised", "security_profile": "standard", "accepts_bearer_tokens_for_dpop": false"#)
        #expect(snake.dpop == .off && snake.pushedAuthorization == .whenAdvertised && snake.securityProfile == .standard)
        #expect(!snake.acceptsBearerTokensForDPoP)
    }

    @Test(
        "a wrong value or a key named both ways is 10001",
        arguments: [
            #", "dpop": "sometimes""#, #", "dpop": true"#, #", "pushedAuthorization": 1"#, #", "securityProfile": "fapi1""#,
            #", "acceptsBearerTokensForDPoP": "yes""#, #", "securityProfile": "fapi2", "security_profile": "fapi2""#,
        ])
    func refused(_ extra: String) {
        #expect(throws: IdentityFlowError.self) { try Self.load(extra) }
        do { _ = try Self.load(extra) } catch { #expect(error.code == .configurationInvalid) }
    }
}
