import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a child process's output pipe as it comes, with `poll` and `read`, without waiting for
/// the pipe's end.
///
/// The test helpers that start child processes read them with this instead of a dispatch read
/// source (`readabilityHandler`): two hundred writers killed mid-write made a source's
/// cancellation race with its events inside libdispatch, and a source can leave the end of the
/// output unreported. A reader stops when its child has exited and the pipe holds nothing more,
/// so a pipe end that another child inherited cannot hold it either.
package final class PipeReader {
    /// The pipe's read end.
    package let descriptor: Int32
    /// Everything read so far.
    package private(set) var output = Data()
    /// How many newlines `output` holds.
    package private(set) var lineCount = 0
    /// Whether every writer has closed the pipe.
    package private(set) var reachedEnd = false

    package init(descriptor: Int32) { self.descriptor = descriptor }

    /// Reads what the pipe holds, waiting up to `milliseconds` for something to come; `false`
    /// when nothing came (or the pipe's writers are all closed).
    package func readChunk(waitingUpTo milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 8192)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else {
            reachedEnd = true
            return false
        }
        output.append(contentsOf: buffer[0..<count])
        lineCount += buffer[0..<count].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
        return true
    }

    /// Reads what the pipe already holds, without waiting.
    package func drain() {
        while readChunk(waitingUpTo: 0) {}
    }
}
