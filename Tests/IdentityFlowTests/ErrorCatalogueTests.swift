import Foundation
import Testing
@_spi(Integrator) import IdentityFlow

/// The error catalogue is one documented list, and the DocC catalog's error reference prints it.
@Suite("Error catalogue")
struct ErrorCatalogueTests {
    /// The error reference article, relative to the repository's root.
    static let referencePath = "Sources/IdentityFlow/IdentityFlow.docc/ErrorCodes.md"

    static let reference: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent(referencePath), encoding: .utf8)) ?? ""
    }()

    @Test("codes are unique and sorted, and each has a domain, a name and a meaning")
    func catalogueIsWellFormed() {
        let codes = ErrorCode.catalogue.map(\.code.rawValue)
        #expect(codes == codes.sorted())
        #expect(Set(codes).count == codes.count)
        for entry in ErrorCode.catalogue {
            #expect(!entry.name.isEmpty && entry.meaning.hasSuffix("."))
            #expect(IdentityFlowError(entry.code).message == entry.meaning)
            #expect(IdentityFlowError(entry.code).domain == entry.domain)
        }
    }

    @Test("the error reference's table lists every code with its domain and name")
    func referenceListsEveryCode() {
        for entry in ErrorCode.catalogue {
            let row = "| \(entry.code.rawValue) | \(entry.domain.rawValue) | `\(entry.name)` |"
            #expect(Self.reference.contains(row), "\(Self.referencePath) lacks the row starting \(row)")
        }
    }

    @Test("any other error becomes unknown (10000); task cancellation becomes actionCancelled")
    func wrapping() {
        struct Strange: Error {}
        #expect(IdentityFlowError.wrapping(Strange()).code == .unknown)
        #expect(IdentityFlowError.wrapping(CancellationError()).code == .actionCancelled)
        let original = IdentityFlowError(.invalidPin)
        #expect(IdentityFlowError.wrapping(original) == original)
    }

    @Test("descriptions name domain, code and cause, never the underlying error's text")
    func descriptions() {
        struct Leaky: Error, CustomStringConvertible { var description: String { "token=abc123" } }
        let error = IdentityFlowError(.serverNotReachable, "The server failed.", underlying: Leaky())
        #expect(error.description.hasPrefix("[generic 9001] The server failed. (caused by Leaky"))
        #expect(!error.description.contains("abc123"))
        #expect(error.localizedDescription == "The server failed.")
    }
}
