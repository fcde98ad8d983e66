// What the documentation's blocks leave to the host (a PIN screen, a browser, Face ID), declared
// here so the blocks in this folder compile verbatim. Nothing here runs: the blocks are
// type-checked, not executed (DocumentationSnippetTests checks that each page's blocks are here).
import Foundation
import IdentityFlow

#if canImport(FoundationNetworking)
import FoundationNetworking  // URLRequest, HTTPURLResponse on Linux
#endif

/// A host's own HTTP stack (Alamofire, its own `URLSession` code).
struct SnippetHTTPStack {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        (Data(), HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!)
    }
}

/// A host's PIN screen: a `ChallengeResponder` that also asks for a new PIN.
struct SnippetPinScreen: ChallengeResponder {
    func receive(_ challenge: Challenge) async { challenge.cancel() }
    func newPin(length: Int, error: IdentityFlowError?) async -> String { String(repeating: "2", count: length) }
}

/// A host's PIN pad.
@MainActor
final class SnippetPinPad {
    nonisolated func pin(for challenge: PinChallenge) async -> String { "24680" }
    func ask(_ challenge: CreatePinChallenge) {}
}

/// A host's browser, answering with the redirect.
@MainActor
final class SnippetBrowser {
    func open(_ url: URL, completion: @escaping (URL) -> Void) {}
}

/// A host's browser that may come back without a redirect (the user closed it).
final class SnippetClosableBrowser: Sendable {
    func open(_ url: URL, completion: @escaping @Sendable (URL?) -> Void) {}
    func open(_ url: URL, callbackScheme: String) async throws -> URL { url }
}

/// A host's PIN field.
@MainActor
final class PinField {
    func ask(remaining: Int, completion: @escaping (String) -> Void) {}
    func close() {}
    func show(_ error: IdentityFlowError) {}
}

func webAuthentication(_ url: URL) async -> URL { url }
func openBrowser(_ url: URL) async -> URL { url }
func faceID() async -> Bool { true }
func askUser(_ message: String) async -> Bool { true }
func askForPin(_ challenge: PinChallenge) async -> String { "24680" }

#if !canImport(Security)
/// `KeychainStorage` is Apple-only (the blocks say so); on Linux this stand-in with its
/// initializer lets them type-check.
struct KeychainStorage: SecureStorage {
    private let memory = InMemoryStorage()
    init(service: String) {}
    func data(forKey key: String) throws(IdentityFlowError) -> Data? { try memory.data(forKey: key) }
    func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) { try memory.setData(data, forKey: key) }
    func removeData(forKey key: String) throws(IdentityFlowError) { try memory.removeData(forKey: key) }
    func keys() throws(IdentityFlowError) -> [String] { try memory.keys() }
}
#endif
