#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Statechart

/// A tiny HTTP/1.1 server on 127.0.0.1 (ephemeral port) for hostile-network tests: it answers each
/// request with whatever the test's handler says, one connection at a time, `Connection: close`.
///
/// It serves at most `maxRequests` requests, then stops listening (later connections are refused).
/// The test that starts it stops it with ``stop()``; a stalled connection stays open until then.
final class LoopbackHTTPServer: Sendable {
    /// A request as received.
    struct Request: Sendable {
        let method: String
        /// Path and query, as sent.
        let target: String
        /// Header names lowercased.
        let headers: [String: String]
        let body: Data

        /// The path without the query.
        var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }
        /// The form-encoded body's fields.
        var form: [String: String] {
            var components = URLComponents()
            components.percentEncodedQuery = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "+", with: "%20")
            return (components.queryItems ?? []).reduce(into: [:]) { $0[$1.name] = $1.value ?? "" }
        }
    }

    /// What to do with a request.
    enum Reply: Sendable {
        /// Answer with a status, headers and body (Content-Length is added).
        case response(status: Int, headers: [String: String], body: Data)
        /// Declare `declaredLength` bytes, send `body` (shorter), close.
        case truncated(contentType: String, body: Data, declaredLength: Int)
        /// Never answer; the connection stays open until ``stop()``.
        case stall
        /// Send a head announcing a large JSON body, then one byte every `pause` microseconds
        /// until ``stop()`` or the client goes away: a server that never finishes, yet never idles.
        case trickle(pause: UInt32)
        /// Close the connection without answering.
        case close

        /// A JSON answer.
        static func json(_ status: Int, _ text: String) -> Reply {
            .response(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        }

        /// A JSON answer from a JSON-compatible value.
        static func json(_ status: Int, object: Any) -> Reply {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return .response(status: status, headers: ["Content-Type": "application/json"], body: data)
        }
    }

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    private struct State: Sendable {
        var requests: [Request] = []
        var openConnections: [Int32] = []
        var stopped = false
    }

    /// The port it listens on.
    let port: UInt16
    private let listener: Int32
    private let maxRequests: Int
    private let handler: @Sendable (Request) -> Reply
    private let state = Locked(State())

    /// Starts listening and serving on a thread of its own.
    /// - Parameters:
    ///   - maxRequests: Requests served before it stops listening.
    ///   - handler: Decides each answer.
    init(maxRequests: Int = 16, handler: @escaping @Sendable (Request) -> Reply) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StartFailure(description: "socket() failed: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw StartFailure(description: "bind/listen failed: \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.port = UInt16(bigEndian: address.sin_port)
        self.listener = fd
        self.maxRequests = maxRequests
        self.handler = handler
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The requests received so far.
    var requests: [Request] { state.withLock { $0.requests } }

    /// Stops listening and closes every open connection.
    func stop() {
        let connections = state.withLock { state in
            state.stopped = true
            defer { state.openConnections = [] }
            return state.openConnections
        }
        shutdown(listener, Int32(SHUT_RDWR))
        for connection in connections {
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
    }

    // MARK: - Serving

    private func serve() {
        var served = 0
        while served < maxRequests, !state.withLock({ $0.stopped }) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { break }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard let request = readRequest(connection) else {
                close(connection)
                continue
            }
            served += 1
            state.withLock { $0.requests.append(request) }
            switch handler(request) {
            case .response(let status, let headers, let body):
                var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
                for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
                write(connection, Data((head + "\r\n").utf8) + body)
                finish(connection)
            case .truncated(let contentType, let body, let declaredLength):
                let head = "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(declaredLength)\r\nConnection: close\r\n\r\n"
                write(connection, Data(head.utf8) + body)
                finish(connection)
            case .stall:
                let keep = state.withLock { state in
                    if !state.stopped { state.openConnections.append(connection) }
                    return !state.stopped
                }
                if !keep { close(connection) }
            case .close:
                finish(connection)
            case .trickle(let pause):
                write(connection, Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n".utf8))
                let byte: [UInt8] = [0x20]
                while !state.withLock({ $0.stopped }),
                      byte.withUnsafeBytes({ send(connection, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }) == 1 {
                    usleep(pause)
                }
                close(connection)
            }
        }
        close(listener)
    }

    private func finish(_ connection: Int32) {
        shutdown(connection, Int32(SHUT_WR))
        close(connection)
    }

    private func write(_ connection: Int32, _ data: Data) {
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        var contentLength = 0
        while true {
            if headerEnd == nil, let range = Self.find(separator, in: buffer) {
                headerEnd = range
                let head = String(decoding: buffer[..<range], as: UTF8.self)
                for line in head.split(separator: "\r\n").dropFirst() {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    if parts.count == 2, parts[0].lowercased() == "content-length" {
                        contentLength = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                }
            }
            if let headerEnd, buffer.count >= headerEnd + 4 + contentLength { break }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
        guard let headerEnd else { return nil }
        let lines = String(decoding: buffer[..<headerEnd], as: UTF8.self).split(separator: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        let body = Data(buffer[(headerEnd + 4)..<(headerEnd + 4 + contentLength)])
        return Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in 0...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 302: "Found"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 410: "Gone"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
