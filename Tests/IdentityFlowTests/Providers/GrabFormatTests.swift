import Foundation
import Testing
import IdentityFlowTesting
import Statechart
@_spi(Integrator) @testable import IdentityFlow

/// Grab's configuration and app-to-app login as Grab documents them: the Info.plist's
/// `GrabIdPartnerSDK` section, `AcrValues` as a dictionary, the discovery document's
/// `client_public_info_endpoint`, and an App Store fallback the host chooses.
@Suite("Grab's real formats: Info.plist section, AcrValues, client_public_info_endpoint, App Store fallback")
struct GrabFormatTests {
    static let redirect = URL(string: "grabweblogin://open")!

    /// An Info.plist shaped like the one in Grab's README: URL types and other app keys at the
    /// top level, the SDK's keys in their own dictionary.
    static func infoPlist(section: String = "GrabIdPartnerSDK", _ sdk: [String: Any]) throws -> Data {
        let plist: [String: Any] = [
            "CFBundleIdentifier": "com.partner.app",
            "CFBundleURLTypes": [["CFBundleURLName": "com.grab.grabweblogin", "CFBundleURLSchemes": ["grabweblogin"]]],
            "LSApplicationQueriesSchemes": ["grab", "grabconnect"], "GrabPartnerID": "partner-1", section: sdk,
        ]
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
    }

    static var sdk: [String: Any] {
        [
            "ClientId": "e20e3567-3fa3-4b13-a135-b00fd88e3295", "RedirectUrl": "grabweblogin://open",
            "Scope": "gid_test_scope_1 gid_test_scope_2 openid",
            "ServiceDiscoveryUrl": "https://api.grabidpartner.example/grabid/v1/oauth2/.well-known/openid-configuration",
            "Request": "request.jwt", "AcrValues": ["SERVICE": "PASSENGER", "consent_ctx": "countryCode=SG"],
            "TestProtectedResourceUrl": "https://api.grabidpartner.example/testresource",
        ]
    }

    @Test(
        "a whole Info.plist: the keys are read from its GrabIdPartnerSDK dictionary; AcrValues becomes key:value pairs",
        arguments: ["GrabIdPartnerSDK", "GrabPartnerIdSDK"])
    func infoPlistSection(_ section: String) throws {
        let configuration = try HTTPServiceConfiguration(data: try Self.infoPlist(section: section, Self.sdk), name: "Info.plist")
        #expect(configuration.clientID == "e20e3567-3fa3-4b13-a135-b00fd88e3295")
        #expect(configuration.redirectURI == Self.redirect)
        #expect(configuration.scopes == ["gid_test_scope_1", "gid_test_scope_2", "openid"])
        #expect(configuration.discoveryURL?.host == "api.grabidpartner.example")
        #expect(configuration.requestObject == "request.jwt")
        #expect(configuration.acrValues == "SERVICE:PASSENGER consent_ctx:countryCode=SG")
        #expect(configuration.problem == nil)
    }

    @Test("AcrValues: empty keys or values are left out as Grab's SDK does; a list or a number is refused; both section spellings at once are refused")
    func acrValuesAndSectionProblems() throws {
        var sdk = Self.sdk
        sdk["AcrValues"] = ["SERVICE": "PASSENGER", "": "x", "empty": ""]
        #expect(try HTTPServiceConfiguration(data: try Self.infoPlist(sdk)).acrValues == "SERVICE:PASSENGER")
        sdk["AcrValues"] = ["": ""]
        #expect(try HTTPServiceConfiguration(data: try Self.infoPlist(sdk)).acrValues == nil)
        sdk["AcrValues"] = "SERVICE:PASSENGER"
        #expect(try HTTPServiceConfiguration(data: try Self.infoPlist(sdk)).acrValues == "SERVICE:PASSENGER")
        for bad: Any in [["SERVICE", "PASSENGER"], 3] {
            sdk["AcrValues"] = bad
            let data = try Self.infoPlist(sdk)
            #expect(throws: IdentityFlowError.self) { try HTTPServiceConfiguration(data: data) }
        }
        let both = try PropertyListSerialization.data(fromPropertyList: ["GrabIdPartnerSDK": Self.sdk, "GrabPartnerIdSDK": Self.sdk], format: .xml, options: 0)
        #expect(throws: IdentityFlowError.self) { try HTTPServiceConfiguration(data: both) }
        let notADictionary = try PropertyListSerialization.data(fromPropertyList: ["GrabIdPartnerSDK": "ClientId"], format: .xml, options: 0)
        #expect(throws: IdentityFlowError.self) { try HTTPServiceConfiguration(data: notADictionary) }
    }

    @Test("the dictionary's acr_values reach the authorization URL")
    func acrValuesInAuthorizationURL() async throws {
        let server = try Self.grab(entries: [])
        defer { server.stop() }
        let url = try await HTTPIdentityService(configuration: try Self.configuration(server))
            .authorizationURL(for: Self.browser, request: Self.request)
        #expect(
            URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "acr_values" }?.value
                == "SERVICE:PASSENGER consent_ctx:countryCode=SG")
    }

    static let browser = IdentityProvider(identifier: "grab", name: "Grab", kind: .browser)
    static let request = AuthorizationRequest(
        redirectURI: redirect, scopes: ["openid"], state: "state-1", nonce: "nonce-1", codeVerifier: String(repeating: "v", count: 43))

    /// One of Grab's `custom_protocols` entries: a string holding a JSON object.
    static func entry(_ object: [String: String]) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
    }

    static let passengerApp = entry([
        "protocol_ios": "grabconnect2://open?screenType=OAUTH", "protocol_pax_ios": "grab://",
        "appstore_link_ios": "https://apps.apple.com/app/grab-app/id647268330",
    ])

    /// A stub Grab ID: discovery names `client_public_info_endpoint`; the public info answers `entries`.
    static func grab(entries: [String], publicInfoStatus: Int = 200) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer { request in
            let origin = "http://\(request.headers["host"] ?? "127.0.0.1")"
            switch request.path {
            case "/grabid/v1/oauth2/clients/e20e3567-3fa3-4b13-a135-b00fd88e3295/public":
                return .json(publicInfoStatus, object: ["custom_protocols": entries])
            default:
                return .json(
                    200,
                    object: [
                        "issuer": "https://idp.grab.example", "authorization_endpoint": "\(origin)/grabid/v1/oauth2/authorize",
                        "token_endpoint": "\(origin)/grabid/v1/oauth2/token",
                        "id_token_verification_endpoint": "\(origin)/grabid/v1/oauth2/id_tokens/token_info",
                        "client_public_info_endpoint": "\(origin)/grabid/v1/oauth2/clients/{client_id}/public",
                    ])
            }
        }
    }

    static func configuration(_ server: LoopbackHTTPServer, fallback: AppLoginFallback = .browser) throws -> HTTPServiceConfiguration {
        var sdk = Self.sdk
        sdk["ServiceDiscoveryUrl"] = server.baseURL.appendingPathComponent("grabid/v1/oauth2/.well-known/openid-configuration").absoluteString
        var configuration = try HTTPServiceConfiguration(data: try Self.infoPlist(sdk))
        configuration.appAuthorizationSchemes = ["grabconnect2"]
        configuration.appLoginFallback = fallback
        return configuration
    }

    @Test(
        "client_public_info_endpoint: the app URL is the request at protocol_ios plus auth_endpoint; protocol_pax_ios checks installation; the App Store link only when chosen"
    )
    func clientPublicInfo() async throws {
        let server = try Self.grab(entries: [Self.passengerApp])
        defer { server.stop() }
        for fallback in AppLoginFallback.allCases {
            let service = try HTTPIdentityService(configuration: try Self.configuration(server, fallback: fallback))
            let web = try await service.authorizationURL(for: Self.browser, request: Self.request)
            let link = try #require(try await service.identityAppLink(for: Self.browser, request: Self.request))
            let app = try #require(link.appURL)
            #expect(app.absoluteString.hasPrefix("grabconnect2://open?screenType=OAUTH&"))
            let appItems = URLComponents(url: app, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let webItems = URLComponents(url: web, resolvingAgainstBaseURL: false)?.queryItems ?? []
            #expect(appItems.filter { $0.name != "screenType" && $0.name != "auth_endpoint" } == webItems)
            #expect(appItems.first { $0.name == "auth_endpoint" }?.value == server.baseURL.appendingPathComponent("grabid/v1/oauth2/authorize").absoluteString)
            #expect(link.installationCheckURL == URL(string: "grab://"))
            #expect(link.appStoreURL == (fallback == .appStore ? URL(string: "https://apps.apple.com/app/grab-app/id647268330") : nil))
            #expect(try await service.appAuthorizationURL(for: Self.browser, request: Self.request) == app)
        }
        #expect(server.requests.contains { $0.path.hasSuffix("/clients/e20e3567-3fa3-4b13-a135-b00fd88e3295/public") }, "{client_id} was replaced")
    }

    @Test("the public info is best effort: a failed or unreadable answer, or no protocol_ios, means the browser alone; a hostile App Store link is dropped")
    func publicInfoBestEffort() async throws {
        for (entries, status) in [([Self.passengerApp], 500), (["not json"], 200), ([Self.entry(["protocol_android": "grab://x"])], 200)] {
            let server = try Self.grab(entries: entries, publicInfoStatus: status)
            defer { server.stop() }
            let service = try HTTPIdentityService(configuration: try Self.configuration(server, fallback: .appStore))
            #expect(try await service.identityAppLink(for: Self.browser, request: Self.request) == nil, "\(entries) \(status)")
        }
        let hostile = Self.entry(["protocol_ios": "grabconnect2://open", "appstore_link_ios": "javascript:alert(1)"])
        let server = try Self.grab(entries: [hostile])
        defer { server.stop() }
        let link = try await HTTPIdentityService(configuration: try Self.configuration(server, fallback: .appStore))
            .identityAppLink(for: Self.browser, request: Self.request)
        #expect(link?.appURL != nil && link?.appStoreURL == nil)
    }

    @Test("an app scheme the host did not list is a configuration problem (10001), as for a configured endpoint")
    func unlistedScheme() async throws {
        let server = try Self.grab(entries: [Self.passengerApp])
        defer { server.stop() }
        var configuration = try Self.configuration(server)
        configuration.appAuthorizationSchemes = []
        let service = try HTTPIdentityService(configuration: configuration)
        await HTTPTestSupport.expectError(.configurationInvalid) { () throws(IdentityFlowError) in
            _ = try await service.identityAppLink(for: Self.browser, request: Self.request)
        }
    }

    @Test("the challenge says where to send the user: the app when installed, else the App Store when offered, else the browser")
    func destination() {
        struct Sender: BrowserRegistrationChallengeSender {
            func respond(with redirectURL: URL, to challenge: BrowserRegistrationChallenge) -> Bool { true }
            func cancel(_ challenge: BrowserRegistrationChallenge) -> Bool { true }
        }
        let web = URL(string: "https://idp.grab.example/authorize?state=s")!
        let app = URL(string: "grabconnect2://open?state=s")!
        let store = URL(string: "https://apps.apple.com/app/id1")!
        func challenge(app: URL?, store: URL?) -> BrowserRegistrationChallenge {
            BrowserRegistrationChallenge(identityProvider: Self.browser, url: web, appURL: app, sender: Sender(), appStoreURL: store)
        }
        #expect(challenge(app: app, store: store).destination(identityAppInstalled: true) == .identityApp(app))
        #expect(challenge(app: app, store: store).destination(identityAppInstalled: false) == .appStore(store))
        #expect(challenge(app: app, store: nil).destination(identityAppInstalled: false) == .browser(web))
        #expect(challenge(app: nil, store: nil).destination(identityAppInstalled: true) == .browser(web))
        #expect(challenge(app: nil, store: store).destination(identityAppInstalled: false) == .appStore(store))
    }

    @Test("through the engine: the browser challenge carries the app URL, its installation check and the chosen App Store link")
    func challengeThroughTheEngine() async throws {
        let server = try Self.grab(entries: [Self.passengerApp])
        defer { server.stop() }
        let service = try HTTPIdentityService(configuration: try Self.configuration(server, fallback: .appStore))
        var clientConfiguration = ClientConfiguration(redirectURI: Self.redirect)
        clientConfiguration.callbackExecutor = .immediate
        let client = UserClient(configuration: clientConfiguration, service: service, storage: InMemoryStorage())
        try await client.start()
        let seen = Locked<[BrowserRegistrationChallenge.Destination]>([])
        let result = await Result { () async throws(IdentityFlowError) in
            try await client.registerUser(.provider(Self.browser).stateless()) { challenge in
                guard case .browserRegistration(let browser) = challenge else { return }
                #expect(browser.appInstallationCheckURL == URL(string: "grab://"))
                seen.withLock { $0 += [browser.destination(identityAppInstalled: true), browser.destination(identityAppInstalled: false)] }
                browser.sender.cancel(browser)
            }
        }
        #expect(result.failure?.code == .actionCancelled)
        let destinations = seen.current
        #expect(destinations.count == 2)
        if case .identityApp(let url)? = destinations.first { #expect(url.scheme == "grabconnect2") } else { Issue.record("\(destinations)") }
        #expect(destinations.last == .appStore(URL(string: "https://apps.apple.com/app/grab-app/id647268330")!))
    }
}
