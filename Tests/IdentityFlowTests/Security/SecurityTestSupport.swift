import Foundation

/// Hex helpers for the security tests (named to avoid clashing with other suites' helpers).
enum SecurityTestHex {
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// Decodes lowercase or uppercase hex; `nil` on odd length or non-hex characters.
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Locates and runs the Python interpreter used for cross-checks: `IDENTITYFLOW_PYTHON` if set
/// (a path or a command name), else `python3` from `PATH`.
enum SecurityTestPython {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The interpreter, or `nil` when none is found.
    static let executableURL: URL? = {
        let environment = ProcessInfo.processInfo.environment
        let requested = environment["IDENTITYFLOW_PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
        if requested.contains("/") {
            return FileManager.default.isExecutableFile(atPath: requested) ? URL(fileURLWithPath: requested) : nil
        }
        let directories = (environment["PATH"] ?? "").split(separator: ":")
        for directory in directories {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(requested)
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        return nil
    }()

    /// Whether an interpreter was found.
    static let isAvailable = executableURL != nil

    /// Whether the interpreter can import the `cryptography` package.
    static let hasCryptography: Bool = {
        guard isAvailable, let result = try? run(["-c", "import cryptography"]) else { return false }
        return result.status == 0
    }()

    /// Runs the interpreter with `arguments`, writing `input` to its standard input.
    static func run(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String, error: String) {
        guard let executableURL else { throw Failure(description: "python3 not found") }
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        let standardInput = Pipe(), standardOutput = Pipe(), standardError = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        try process.run()
        // The scripts read all of standard input before writing anything, so this cannot deadlock.
        try standardInput.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try standardInput.fileHandleForWriting.close()
        let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
        let error = standardError.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }

    /// Runs a script that must succeed and returns its standard output lines.
    static func lines(ofScript script: String, input: String) throws -> [Substring] {
        let result = try run(["-c", script], input: input)
        guard result.status == 0 else {
            throw Failure(description: "python exited with \(result.status): \(result.error)")
        }
        return result.output.split(separator: "\n")
    }
}

/// A generator of reproducible-enough random test inputs (system randomness; failures print inputs).
enum SecurityTestRandom {
    static func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max) }
    }
}
