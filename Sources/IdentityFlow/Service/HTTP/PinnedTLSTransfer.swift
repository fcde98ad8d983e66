import CIdentityFlowPinnedTLS
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request to a pinned host on Linux: libcurl checks the server's public key against the pins
/// right after the TLS handshake, before any request byte is sent (`CURLOPT_PINNEDPUBLICKEY`), on
/// top of its usual certificate validation. FoundationNetworking never hands the server trust to a
/// `URLSession` delegate, so this is the path that can refuse the connection before it is used.
///
/// The transfer runs on a thread of its own (libcurl's easy interface blocks); cancelling the
/// calling task stops it at libcurl's next progress callback. Redirects are not followed here:
/// ``HTTPTransport`` decides on them.
enum PinnedTLSTransfer {
    /// Whether libcurl with public key pinning can be used on this system.
    static var isAvailable: Bool { ifp_available() != 0 }

    /// Sends `request` to a pinned host.
    /// - Parameters:
    ///   - request: The request (headers already complete).
    ///   - pins: The host's pins, bare base64.
    ///   - trustedCertificatesFile: A PEM file trusted instead of the system's authorities (tests).
    ///   - timeout: The whole exchange's deadline, in seconds.
    ///   - maxBodySize: The body cap, in bytes.
    ///   - available: `false` behaves as a system without libcurl (tests).
    ///   - refusedOption: A libcurl option whose setting fails, as in a libcurl built without it (tests).
    /// - Returns: The answer, whatever its status.
    /// - Throws: ``ErrorCode/certificatePinMismatch`` when no key of the chain is pinned (nothing
    ///   was sent); ``ErrorCode/certificatePinningUnavailable`` without libcurl, or when libcurl
    ///   refuses one of the transfer's options (the pin, the CA file, the protocols, the redirect
    ///   rule: nothing was sent); the transport errors of ``HTTPIdentityService``'s table otherwise.
    static func send(
        _ request: URLRequest, pins: Set<String>, trustedCertificatesFile: String?, timeout: TimeInterval, maxBodySize: Int, available: Bool = true,
        refusedOption: String? = nil
    ) async throws(IdentityFlowError) -> HTTPResponse {
        guard let url = request.url else { throw IdentityFlowError(.configurationInvalid, "A request has no URL.") }
        guard available, isAvailable else {
            throw IdentityFlowError(
                .certificatePinningUnavailable,
                "\(url.host ?? "The host") has pinned public keys, but libcurl with public key pinning was not found; nothing was sent.")
        }
        let handle = TransferHandle()
        guard handle.pointer != nil else { throw IdentityFlowError(.unknown, "Out of memory.") }
        let job = Job(
            url: url.absoluteString, method: request.httpMethod ?? "GET",
            // "Expect:" keeps libcurl from asking for a 100-continue before a larger body.
            headers: (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" } + ["Expect:"],
            body: request.httpBody, pins: pins.sorted().map { "sha256//\($0)" }.joined(separator: ";"),
            caFile: trustedCertificatesFile, timeoutMilliseconds: Int(min(timeout, 86_400) * 1000), maxBody: maxBodySize,
            refusedOption: refusedOption)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let thread = Thread { continuation.resume(returning: job.perform(on: handle)) }
                thread.start()
            }
        } onCancel: {
            handle.cancel()
        }
        return try outcome.response(for: url, timeout: timeout, maxBodySize: maxBodySize)
    }

    /// The C transfer's cancellation flag, freed when neither the performing thread nor a
    /// cancellation handler holds it any more.
    ///
    /// `@unchecked Sendable`: the pointer is written once, at creation; the C side reads and
    /// writes the flag behind it with C11 atomics only (`ifp_transfer_cancel` from any thread,
    /// the progress callback on the performing one), and `deinit` frees it after every holder let go.
    private final class TransferHandle: @unchecked Sendable {
        let pointer: OpaquePointer? = ifp_transfer_new()

        func cancel() {
            if let pointer { ifp_transfer_cancel(pointer) }
        }

        deinit {
            if let pointer { ifp_transfer_free(pointer) }
        }
    }

    /// What to send, as plain values for the performing thread.
    private struct Job: Sendable {
        let url: String
        let method: String
        let headers: [String]
        let body: Data?
        let pins: String
        let caFile: String?
        let timeoutMilliseconds: Int
        let maxBody: Int
        let refusedOption: String?

        /// Runs the blocking transfer and copies its answer out of C memory.
        func perform(on handle: TransferHandle) -> Outcome {
            guard let transfer = handle.pointer else { return Outcome(code: IFP_NO_MEMORY, status: 0, body: Data(), headers: "", error: "") }
            var response = ifp_response()
            let cHeaders = headers.map { strdup($0) }
            defer { cHeaders.forEach { free($0) } }
            let headerPointers = cHeaders.map { UnsafePointer($0) }
            let bodyBytes = body.map { Array($0) }
            url.withCString { url in
                method.withCString { method in
                    pins.withCString { pins in
                        withOptionalCString(caFile) { caFile in
                            withOptionalCString(refusedOption) { refusedOption in
                                headerPointers.withUnsafeBufferPointer { headerBuffer in
                                    withOptionalBytes(bodyBytes) { body, bodyLength in
                                        var request = ifp_request(
                                            url: url, method: method, headers: headerBuffer.baseAddress, header_count: headerBuffer.count,
                                            body: body, body_length: bodyLength, pins: pins, ca_file: caFile,
                                            timeout_ms: timeoutMilliseconds, max_body: maxBody, refused_option: refusedOption)
                                        ifp_transfer_perform(transfer, &request, &response)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            defer { ifp_response_free(&response) }
            let body = response.body.map { Data(bytes: $0, count: response.body_length) } ?? Data()
            let headers = response.headers.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: response.headers_length), as: UTF8.self) } ?? ""
            let error = withUnsafeBytes(of: response.error) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            return Outcome(code: response.code, status: response.status, body: body, headers: headers, error: error)
        }

        private func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
            guard let text else { return body(nil) }
            return text.withCString { body($0) }
        }

        private func withOptionalBytes<T>(_ bytes: [UInt8]?, _ body: (UnsafeRawPointer?, Int) -> T) -> T {
            guard let bytes else { return body(nil, 0) }
            return bytes.withUnsafeBytes { body($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), $0.count) }
        }
    }

    /// A finished transfer, copied out of C memory.
    private struct Outcome: Sendable {
        let code: Int32
        let status: Int
        let body: Data
        let headers: String
        let error: String

        /// The answer, or the error libcurl's code stands for.
        func response(for url: URL, timeout: TimeInterval, maxBodySize: Int) throws(IdentityFlowError) -> HTTPResponse {
            let underlying = NSError(domain: "libcurl", code: Int(code), userInfo: [NSLocalizedDescriptionKey: error])
            switch code {
            case 0:
                break
            case IFP_PIN_MISMATCH:
                throw IdentityFlowError(
                    .certificatePinMismatch,
                    "The certificate of \(url.host ?? "the server") holds no pinned public key; the connection was closed before any request was sent.",
                    underlying: underlying)
            case IFP_CANCELLED:
                throw IdentityFlowError(.actionCancelled, "The task was cancelled during the request.")
            case IFP_BODY_TOO_LARGE:
                throw IdentityFlowError(.invalidServerResponse, "The server's answer is larger than the \(maxBodySize)-byte limit.")
            case IFP_UNAVAILABLE:
                throw IdentityFlowError(.certificatePinningUnavailable, "libcurl with public key pinning was not found; nothing was sent.")
            case IFP_OPTION_REFUSED:
                throw IdentityFlowError(
                    .certificatePinningUnavailable,
                    "The request to \(url.host ?? "the server") was not sent: libcurl cannot apply the pinned transfer's settings (\(error)).",
                    underlying: underlying)
            case 28:  // CURLE_OPERATION_TIMEDOUT
                throw IdentityFlowError(.serverNotReachable, "The server did not answer in time: no complete answer within \(timeout) s.")
            case 18:  // CURLE_PARTIAL_FILE
                throw IdentityFlowError(.invalidServerResponse, "The server's answer was cut off.", underlying: underlying)
            case 52, 55, 56:  // CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR
                if status != 0 { throw IdentityFlowError(.invalidServerResponse, "The server's answer was cut off.", underlying: underlying) }
                throw IdentityFlowError(.networkConnectivityFailure, "The connection closed before the server answered.", underlying: underlying)
            default:
                // Resolution, connection, TLS handshake and certificate validation failures.
                throw IdentityFlowError(.serverNotReachable, "The server could not be reached (\(error)).", underlying: underlying)
            }
            var lines = headers.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            if !lines.isEmpty { lines.removeFirst() }
            var fields: [String: String] = [:]
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
                let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
                fields[name] = fields[name].map { "\($0), \(value)" } ?? value
            }
            var response = HTTPResponse(status: status, mediaType: nil, body: body, headers: fields, url: url)
            let mediaType = response.header("Content-Type")?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            response = HTTPResponse(status: status, mediaType: mediaType, body: body, headers: fields, url: url)
            return response
        }
    }
}
