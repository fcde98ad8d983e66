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
        /// Reset the connection (TCP RST): before any answer, or after a head announcing
        /// `Content-Length: 400` and a few bytes of body.
        case reset(afterHead: Bool)
        /// Send a chunked head and part of the first chunk, then close: an answer cut off with no
        /// declared length to compare against.
        case chunkedCut
        /// Send this whole answer (status line included) one byte every `pause` microseconds,
        /// until it is sent, ``stop()`` or the client goes away.
        case trickleAll(Data, pause: UInt32)

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
        /// Whether `listener` is still open: once the serving thread closed it, its number may
        /// belong to another socket of the process, which ``stop()`` must not shut down.
        var listening = true
    }

    /// What the server did, as it happens: a test waits on it instead of sleeping.
    enum Event: Sendable, Equatable {
        /// A request arrived (its path); the handler is about to be asked.
        case received(String)
        /// A ``Reply/trickle(pause:)`` answer's head was sent; its body follows.
        case headSent
    }

    /// The port it listens on.
    let port: UInt16
    /// What the server did; ends at ``stop()``.
    let events: AsyncStream<Event>
    private let eventSink: AsyncStream<Event>.Continuation
    private let listener: Int32
    private let maxRequests: Int
    private let handler: @Sendable (Request) -> Reply
    private let greeting: Data?
    private let state = Locked(State())

    /// Starts listening and serving on a thread of its own.
    /// - Parameters:
    ///   - maxRequests: Requests served (or connections greeted) before it stops listening.
    ///   - greeting: When set, each connection gets these bytes at once and is closed, without
    ///     reading a request (e.g. plain text to a client expecting a TLS handshake).
    ///   - handler: Decides each answer.
    init(maxRequests: Int = 16, greeting: Data? = nil, handler: @escaping @Sendable (Request) -> Reply = { _ in .close }) throws {
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
        self.greeting = greeting
        (events, eventSink) = AsyncStream.makeStream(of: Event.self)
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The requests received so far.
    var requests: [Request] { state.withLock { $0.requests } }

    /// Stops listening and closes every open connection. Calling it again does nothing.
    func stop() {
        let connections = state.withLock { state -> [Int32] in
            guard !state.stopped else { return [] }
            state.stopped = true
            // Under the lock, so that the serving thread cannot close it (and the number be
            // reused) in between.
            if state.listening { shutdown(listener, Int32(SHUT_RDWR)) }
            defer { state.openConnections = [] }
            return state.openConnections
        }
        eventSink.finish()
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
            if let greeting {
                served += 1
                write(connection, greeting)
                finish(connection)
                continue
            }
            guard let request = readRequest(connection) else {
                close(connection)
                continue
            }
            served += 1
            state.withLock { $0.requests.append(request) }
            eventSink.yield(.received(request.path))
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
            case .reset(let afterHead):
                if afterHead {
                    write(connection, Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"sub\": ".utf8))
                }
                var option = linger(l_onoff: 1, l_linger: 0)
                setsockopt(connection, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
                close(connection)
            case .chunkedCut:
                write(
                    connection,
                    Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n40\r\n{\"sub\": ".utf8))
                finish(connection)
            case .trickleAll(let answer, let pause):
                for byte in answer {
                    let sent = [byte].withUnsafeBytes { send(connection, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
                    guard sent == 1, !state.withLock({ $0.stopped }) else { break }
                    usleep(pause)
                }
                finish(connection)
            case .trickle(let pause):
                write(connection, Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n".utf8))
                eventSink.yield(.headSent)
                let byte: [UInt8] = [0x20]
                while !state.withLock({ $0.stopped }),
                    byte.withUnsafeBytes({ send(connection, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }) == 1
                {
                    usleep(pause)
                }
                close(connection)
            }
        }
        state.withLock { state in
            state.listening = false
            close(listener)
        }
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
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
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
