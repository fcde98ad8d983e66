import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Grab's app-to-app login: the discovery document's `client_public_info_endpoint` lists the
// client's identity apps (`custom_protocols`), each with the URL that takes the authorization
// request (`protocol_ios`), the scheme that tells the app is installed (`protocol_pax_ios`) and
// where to install it (`appstore_link_ios`).
extension HTTPIdentityService {
    /// The identity app for this request: the configured
    /// ``HTTPServiceConfiguration/appAuthorizationEndpoint``, or the app Grab's
    /// `client_public_info_endpoint` names (discovery member, `{client_id}` replaced by the client
    /// id; its answer `{"custom_protocols": ["{\"protocol_ios\": …, \"protocol_pax_ios\": …,
    /// \"appstore_link_ios\": …}"]}`, each entry a JSON object or a string holding one). The app
    /// URL is the authorization request at `protocol_ios`, with `auth_endpoint` (the browser
    /// endpoint) added as Grab's SDK does. `nil` when there is none, and when the request carries
    /// `prompt`, `login_hint` or `id_token_hint`, which app login does not take. The App Store
    /// link is offered only when ``HTTPServiceConfiguration/appLoginFallback`` is
    /// ``AppLoginFallback/appStore``, and only an `https` or `itms-apps` one.
    ///
    /// The app URL carries the request's `state`, `nonce` and PKCE challenge, so its endpoint is
    /// checked like every endpoint: `https`, or `http` to a loopback host, or a custom scheme the
    /// app lists in ``HTTPServiceConfiguration/appAuthorizationSchemes``. The list itself is best
    /// effort, as in Grab's SDK: when it cannot be fetched or read, the browser is used alone.
    /// - Parameters:
    ///   - provider: A browser identity provider.
    ///   - request: PKCE, state, nonce, redirect URI and scopes.
    /// - Returns: The link, or `nil` to use the browser URL alone.
    /// - Throws: ``ErrorCode/configurationInvalid`` for an app endpoint of any other scheme (plain
    ///   `http` elsewhere, `javascript:`, `file:`, `data:`, an unlisted custom scheme); discovery errors.
    public func identityAppLink(for provider: IdentityProvider, request: AuthorizationRequest) async throws(IdentityFlowError) -> IdentityAppLink? {
        // FAPI 2.0: every request is pushed (PAR) and opened in the browser; an app URL would carry it in the clear.
        guard provider.kind == .browser, configuration.securityProfile != .fapi2, configuration.prompt == nil, configuration.loginHint == nil,
            configuration.idTokenHint == nil,
            request.parameters.prompt == nil, request.parameters.loginHint == nil
        else { return nil }
        if let endpoint = configuration.appAuthorizationEndpoint {
            if let problem = configuration.appAuthorizationEndpointProblem(endpoint) { throw problem }
            return IdentityAppLink(appURL: try authorizationURL(at: endpoint, request: request, provider: provider))
        }
        let metadata = try await providerMetadata()
        guard let template = metadata.clientPublicInfoEndpoint, let apps = await clientPublicInfo(template) else { return nil }
        let chosen = apps.first { $0.appURL != nil }
        var link = IdentityAppLink(appURL: nil, installationCheckURL: chosen?.installationCheckURL)
        if let endpoint = chosen?.appURL {
            if let problem = configuration.appAuthorizationEndpointProblem(endpoint) { throw problem }
            let url = try authorizationURL(at: endpoint, request: request, provider: provider)
            link.appURL = URLQuery.url(url, appending: [("auth_endpoint", metadata.authorizationEndpoint.absoluteString)]) ?? url
        }
        if configuration.appLoginFallback == .appStore {
            link.appStoreURL = (chosen.map { [$0] + apps } ?? apps).lazy.compactMap(\.appStoreURL).first
        }
        return link.appURL == nil && link.appStoreURL == nil ? nil : link
    }

    /// One identity app of the client's public info.
    struct ListedApp {
        var appURL: URL?
        var installationCheckURL: URL?
        var appStoreURL: URL?
    }

    /// The client's identity apps, or `nil` when the list cannot be fetched or read.
    func clientPublicInfo(_ template: String) async -> [ListedApp]? {
        let address = template.replacingOccurrences(of: "{client_id}", with: URLQuery.encode(configuration.clientID))
        guard let url = URL(string: address), url.host != nil, HTTPServiceConfiguration.transportProblem(url) == nil else { return nil }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        do throws(IdentityFlowError) {
            let response = try await transport.send(request)
            guard response.status == 200, let entries = try Self.jsonObject(response, context: "The client public info")["custom_protocols"]?.arrayValue else {
                return nil
            }
            return entries.compactMap { entry in
                // Grab sends each entry as a string holding a JSON object; an object is taken too.
                let object = entry.stringValue.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) } ?? entry
                guard object.objectValue != nil else { return nil }
                func link(_ member: String) -> URL? {
                    object[member]?.stringValue.flatMap { $0.isEmpty ? nil : URL(string: $0) }.flatMap { $0.scheme == nil ? nil : $0 }
                }
                let store = link("appstore_link_ios").flatMap { ["https", "itms-apps", "itms-appss"].contains($0.scheme?.lowercased() ?? "") ? $0 : nil }
                return ListedApp(appURL: link("protocol_ios"), installationCheckURL: link("protocol_pax_ios"), appStoreURL: store)
            }
        } catch {
            return nil
        }
    }
}
