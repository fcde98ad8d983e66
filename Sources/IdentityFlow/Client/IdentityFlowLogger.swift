import Foundation
import Statechart

/// Where IdentityFlow writes what a developer should know: ignored answers, timeouts, cleanup
/// that failed. Messages are written by IdentityFlow and never contain secrets.
public struct IdentityFlowLogger: Sendable {
    /// How important a message is.
    public enum Level: Int, Sendable, Comparable, CustomStringConvertible {
        /// Details for debugging.
        case debug
        /// Normal events.
        case info
        /// Something was ignored or went wrong without failing a flow.
        case warning
        /// A flow failed in a way a developer should look at.
        case error

        /// Orders levels by importance.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// `debug`, `info`, `warning` or `error`.
        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// One message.
    public struct Record: Sendable, CustomStringConvertible {
        /// How important it is.
        public let level: Level
        /// The message.
        public let message: String
        /// The flow it concerns, if any.
        package let flowID: FlowID?

        /// `[IdentityFlow warning flow#3] message`.
        public var description: String {
            "[IdentityFlow \(level)\(flowID.map { " \($0)" } ?? "")] \(message)"
        }
    }

    /// Messages below this level are dropped.
    public var minimumLevel: Level
    private let handler: @Sendable (Record) -> Void

    /// Creates a logger.
    /// - Parameters:
    ///   - minimumLevel: Messages below it are dropped.
    ///   - handler: Receives each message; must not block.
    public init(minimumLevel: Level = .warning, handler: @escaping @Sendable (Record) -> Void) {
        self.minimumLevel = minimumLevel
        self.handler = handler
    }

    /// Writes warnings and errors to standard error.
    public static let standardError = IdentityFlowLogger { record in
        FileHandle.standardError.write(Data((record.description + "\n").utf8))
    }

    /// Writes nothing.
    public static let disabled = IdentityFlowLogger(minimumLevel: .error) { _ in }

    /// Logs a message.
    /// - Parameters:
    ///   - level: Its importance.
    ///   - message: The text; never put a secret in it.
    ///   - flowID: The flow it concerns.
    package func log(_ level: Level, _ message: @autoclosure () -> String, flow flowID: FlowID? = nil) {
        guard level >= minimumLevel else { return }
        handler(Record(level: level, message: message(), flowID: flowID))
    }
}
