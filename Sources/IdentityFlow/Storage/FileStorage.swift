import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Statechart

/// A ``SecureStorage`` in a directory: one file per key, owner-only permissions (0700 for the
/// directory, 0600 for files), and atomic writes (a temporary file is written, flushed with
/// `fsync`, then renamed over the old one), so a crash leaves either the old value or the new.
///
/// The files are not encrypted, and the store cannot ask for the user's presence: an item
/// written with ``StorageAccess/userPresence`` (the biometric key) is a file like any other, so
/// a copy of the directory includes it. On Apple platforms use `KeychainStorage`; on servers
/// and in tests this store is what survives a restart.
public final class FileStorage: SecureStorage {
    /// The directory the files live in.
    public let directory: URL
    private let lock = Locked(())
    /// Makes a change of the directory durable (`fsync` of the directory); tests count the calls.
    private let syncDirectory: @Sendable (String) -> Void

    /// Opens (and creates, if needed) a store in a directory.
    /// - Parameter directory: The directory; created with permissions 0700.
    /// - Throws: ``ErrorCode/dataStorageNotAvailable`` if it cannot be created.
    public convenience init(directory: URL) throws(IdentityFlowError) {
        try self.init(directory: directory, syncDirectory: Self.fsyncDirectory)
    }

    /// Opens a store that makes its directory's changes durable with `syncDirectory`.
    init(directory: URL, syncDirectory: @escaping @Sendable (String) -> Void) throws(IdentityFlowError) {
        self.directory = directory
        self.syncDirectory = syncDirectory
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        } catch {
            throw IdentityFlowError(.dataStorageNotAvailable, "Cannot create the storage directory.", underlying: error)
        }
    }

    /// The data stored under a key.
    public func data(forKey key: String) throws(IdentityFlowError) -> Data? {
        let url = fileURL(for: key)
        return try lock.withLock { _ throws(IdentityFlowError) in
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            do { return try Data(contentsOf: url) } catch {
                throw IdentityFlowError(.dataStorageNotAvailable, "Cannot read a stored value.", underlying: error)
            }
        }
    }

    /// Stores data under a key, atomically.
    public func setData(_ data: Data, forKey key: String) throws(IdentityFlowError) {
        let url = fileURL(for: key)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        try lock.withLock { _ throws(IdentityFlowError) in
            try Self.writeSynchronously(data, to: temporary.path)
            guard rename(temporary.path, url.path) == 0 else {
                let code = errno
                unlink(temporary.path)
                throw Self.posixError("Cannot replace a stored value", code)
            }
            syncDirectory(directory.path)
        }
    }

    /// Removes a key. Removing a key that is not stored changes nothing on disk, so it costs no
    /// `fsync`.
    public func removeData(forKey key: String) throws(IdentityFlowError) {
        let path = fileURL(for: key).path
        try lock.withLock { _ throws(IdentityFlowError) in
            if unlink(path) != 0 {
                guard errno == ENOENT else { throw Self.posixError("Cannot remove a stored value", errno) }
                return
            }
            syncDirectory(directory.path)
        }
    }

    /// Every key stored, sorted.
    public func keys() throws(IdentityFlowError) -> [String] {
        try lock.withLock { _ throws(IdentityFlowError) in
            do {
                return try FileManager.default.contentsOfDirectory(atPath: directory.path)
                    .filter { $0.hasSuffix(".value") && !$0.hasPrefix(".") }
                    .compactMap { Base64URL.decode(String($0.dropLast(".value".count))).flatMap { String(bytes: $0, encoding: .utf8) } }
                    .sorted()
            } catch {
                throw IdentityFlowError(.dataStorageNotAvailable, "Cannot list stored values.", underlying: error)
            }
        }
    }

    /// Runs `body` while no other process or client holds this directory's lock (`flock` on its
    /// `.lock` file), nor another section of this process.
    /// - Parameter body: The section; it must not start another.
    /// - Returns: What `body` returns.
    /// - Throws: ``ErrorCode/dataStorageNotAvailable`` when the lock file cannot be opened or locked; `body`'s errors.
    public func withExclusiveAccess<Result>(_ body: () throws(IdentityFlowError) -> Result) throws(IdentityFlowError) -> Result {
        let descriptor = open(directory.appendingPathComponent(".lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.posixError("Cannot open the storage's lock file", errno) }
        // Closing the descriptor releases the lock, also when `body` throws.
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Self.posixError("Cannot lock the storage", errno) }
        }
        return try body()
    }

    private func fileURL(for key: String) -> URL {
        directory.appendingPathComponent(Base64URL.encode(Array(key.utf8)) + ".value")
    }

    private static func writeSynchronously(_ data: Data, to path: String) throws(IdentityFlowError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw posixError("Cannot create a temporary file", errno) }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, failure == 0 {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 { failure = errno } else { offset += written }
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure != 0 {
            unlink(path)
            throw posixError("Cannot write a stored value", failure)
        }
    }

    private static func fsyncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func posixError(_ message: String, _ code: Int32) -> IdentityFlowError {
        IdentityFlowError(
            .dataStorageNotAvailable, "\(message) (errno \(code)).",
            underlying: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }
}
