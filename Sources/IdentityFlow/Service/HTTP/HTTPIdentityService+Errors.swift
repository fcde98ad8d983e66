import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The error mapping, as tabled in HTTPIdentityService's discussion.
extension HTTPIdentityService {
    // MARK: - Transport

    /// Maps a URLSession error: 9000 when the device's connection failed, 9001 when the server
    /// could not be reached (refused, DNS, timeout, TLS), 9006 for cancellation.
    static func transportError(_ error: any Error) -> IdentityFlowError {
        let nsError = error as NSError
        let cause = NSError(domain: nsError.domain, code: nsError.code)
        guard nsError.domain == NSURLErrorDomain else {
            return IdentityFlowError(.serverNotReachable, "The request failed.", underlying: cause)
        }
        switch nsError.code {
        case NSURLErrorCancelled:
            return IdentityFlowError(.actionCancelled, "The request was cancelled.", underlying: cause)
        case NSURLErrorNotConnectedToInternet, NSURLErrorNetworkConnectionLost, NSURLErrorDataNotAllowed,
            NSURLErrorInternationalRoamingOff, NSURLErrorCallIsActive:
            return IdentityFlowError(.networkConnectivityFailure, "The network connection failed (URL error \(nsError.code)).", underlying: cause)
        case NSURLErrorTimedOut:
            return IdentityFlowError(.serverNotReachable, "The server did not answer in time.", underlying: cause)
        case NSURLErrorCannotConnectToHost:
            return IdentityFlowError(.serverNotReachable, "The server refused the connection.", underlying: cause)
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            return IdentityFlowError(.serverNotReachable, "The server's host name could not be resolved.", underlying: cause)
        case NSURLErrorSecureConnectionFailed, NSURLErrorServerCertificateHasBadDate, NSURLErrorServerCertificateUntrusted,
            NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateNotYetValid, NSURLErrorClientCertificateRejected,
            NSURLErrorClientCertificateRequired:
            return IdentityFlowError(.serverNotReachable, "The secure connection (TLS) to the server failed (URL error \(nsError.code)).", underlying: cause)
        case NSURLErrorHTTPTooManyRedirects, NSURLErrorRedirectToNonExistentLocation:
            return IdentityFlowError(.invalidServerResponse, "The server redirected in a loop.", underlying: cause)
        case NSURLErrorBadServerResponse, NSURLErrorCannotParseResponse, NSURLErrorCannotDecodeContentData,
            NSURLErrorCannotDecodeRawData, NSURLErrorZeroByteResource, NSURLErrorDataLengthExceedsMaximum:
            return IdentityFlowError(.invalidServerResponse, "The server's answer could not be read (URL error \(nsError.code)).", underlying: cause)
        default:
            return IdentityFlowError(.serverNotReachable, "The server could not be reached (URL error \(nsError.code)).", underlying: cause)
        }
    }

    // MARK: - Answers

    /// The JSON object of a 2xx answer, or 11001.
    static func jsonObject(_ response: HTTPResponse, context: String) throws(IdentityFlowError) -> JSONValue {
        guard response.isJSON else {
            throw IdentityFlowError(.invalidServerResponse, "\(context) is not JSON (content type \(response.mediaType ?? "none")).")
        }
        guard let json = response.json, json.objectValue != nil || json.arrayValue != nil else {
            throw IdentityFlowError(.invalidServerResponse, "\(context) is not strict JSON (RFC 8259; a repeated member name is refused too).")
        }
        return json
    }

    /// The `error` member of an error answer, when it is JSON and has one.
    static func errorCode(of response: HTTPResponse) -> String? { response.json?["error"]?.stringValue }

    /// The error for a status nobody expected: 9001 for 5xx and for 429 (both pass, so a PIN
    /// challenge comes back with its counters untouched), 11001 otherwise.
    static func statusError(_ response: HTTPResponse, context: String) -> IdentityFlowError {
        var error: IdentityFlowError
        if response.status >= 500 {
            error = IdentityFlowError(.serverNotReachable, "The server failed (HTTP \(response.status)) at \(context).")
        } else if response.status == 429 {
            let wait = response.retryAfterSeconds.map { "; it asks to wait \($0) s" } ?? ""
            error = IdentityFlowError(.serverNotReachable, "The server is limiting requests (HTTP 429) at \(context)\(wait).")
        } else {
            error = IdentityFlowError(.invalidServerResponse, "The server answered HTTP \(response.status) at \(context).")
        }
        error.oauthError = errorCode(of: response)
        return error
    }

    /// The context a code exchange's errors name.
    static let codeExchange = "the code exchange"

    /// Maps an OAuth token or revocation endpoint error answer (RFC 6749 §5.2).
    static func oauthError(_ response: HTTPResponse, context: String) -> IdentityFlowError {
        guard response.status < 500, response.status != 429, let code = errorCode(of: response) else { return statusError(response, context: context) }
        var error: IdentityFlowError
        switch code {
        case "invalid_grant":
            error = IdentityFlowError(
                .externalIdentityProviderFailure,
                "The provider refused the grant at \(context): the code or refresh token is expired, used or revoked, or the PKCE verifier does not match.")
        case "invalid_client", "unauthorized_client", "unsupported_grant_type", "invalid_scope":
            error = IdentityFlowError(
                .configurationInvalid, "The provider refused the client at \(context) (\(code)): check the client id, its grant types and scopes.")
        case "invalid_request", "unsupported_token_type":
            // Only a code exchange sends a redirect URI that could differ from the authorization
            // request's; a refresh or a revocation has none.
            let hint = context == codeExchange ? ", e.g. a redirect URI that differs from the authorization request's" : ""
            error = IdentityFlowError(.requestInvalid, "The provider refused the request at \(context) (\(code))\(hint).")
        default:
            error = IdentityFlowError(.externalIdentityProviderFailure, "The provider refused the request at \(context) (\(code)).")
        }
        error.oauthError = code
        return error
    }

    /// Maps an extension endpoint error answer (`docs/extension-api.openapi.yaml`). A 404 or 405
    /// without an `error` member is a server that does not serve the endpoint at all (a stock
    /// OpenID provider, or a wrong ``HTTPServiceConfiguration/extensionBaseURL``): 11020.
    static func extensionError(_ response: HTTPResponse, context: String, profile: UserProfile? = nil) -> IdentityFlowError {
        if response.status == 404 || response.status == 405, errorCode(of: response) == nil {
            return IdentityFlowError(
                .featureNotSupported,
                "The server does not offer \(context) (HTTP \(response.status)\(response.url.map { " at \($0.path)" } ?? "")): it serves no IdentityFlow extension API (docs/extension-api.openapi.yaml) there. Serve it, or set extensionBaseURL to where it is served."
            )
        }
        guard response.status < 500, response.status != 429, response.status != 200, let code = errorCode(of: response) else {
            return statusError(response, context: context)
        }
        var error: IdentityFlowError
        switch (response.status, code) {
        case (404, "unknown_identity_provider"):
            error = IdentityFlowError(.invalidIdentityProvider, "The server has no custom identity provider by that id.")
        case (410, "registration_expired"):
            error = IdentityFlowError(.customRegistrationExpired)
        case (410, "user_deregistered"):
            error = IdentityFlowError(.userDeregistered, "The server deregistered the profile after too many wrong PINs.")
            error.userProfile = profile
        case (404, "unknown_profile"):
            error = IdentityFlowError(.userDeregistered, "The server no longer knows the profile.")
            error.userProfile = profile
        case (401, _), (400, "invalid_token"):
            error = IdentityFlowError(.userNotAuthenticated, "The server refused the access token at \(context) (\(code)).")
        case (403, "token_not_allowed"):
            error = IdentityFlowError(
                .accessTokenNotAllowed, "The server refused the access token at \(context): an implicit token, or a sign-in already bound to a profile.")
        case (403, "proof_required"):
            error = IdentityFlowError(.pinProofRequired, "The server requires a proof by the current PIN key at \(context).")
        case (400, _), (403, _), (405, _):
            error = IdentityFlowError(.requestInvalid, "The server refused the request at \(context) (\(code)).")
        default:
            error = IdentityFlowError(.invalidServerResponse, "The server answered HTTP \(response.status) (\(code)) at \(context).")
        }
        error.oauthError = code
        return error
    }

    /// A missing or mistyped member of an answer.
    static func malformed(_ context: String, member: String) -> IdentityFlowError {
        IdentityFlowError(.invalidServerResponse, "\(context) has no valid '\(member)'.")
    }
}
