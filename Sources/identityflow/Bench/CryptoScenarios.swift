import CIdentityFlowCrypto
import Foundation
@_spi(Integrator) import IdentityFlow

/// The crypto rows (k1…k5 here, k6…k15 in SignatureScenarios): IdentityFlow against OpenSSL's
/// libcrypto in the same process.
/// Targets are read as ratios to OpenSSL; without libcrypto the rows carry a note instead.
enum CryptoScenarios {
    /// The row ids, for `--only crypto`.
    static let rowIDs: Set<String> = Set((1...15).map { "k\($0)" })

    /// Measures the rows k1…k5, then k6…k15 (SignatureScenarios), that `only` lets through.
    static func rows(_ settings: BenchSettings, only: Set<String>?) async -> [BenchRow] {
        var rows: [BenchRow] = []
        func add(_ id: String, _ measure: String, unit: String, target: Double, ours: () -> Double, theirs: ((OpenSSLLibrary) -> Double)?) async {
            let openSSL = OpenSSLLibrary.shared
            let theirs: (() -> Double)? = openSSL.flatMap { library in theirs.map { body in { body(library) } } }
            if let row = await row(settings, only: only, id, measure, unit: unit, target: target, ours: ours, theirs: theirs) { rows.append(row) }
        }
        let small = [UInt8](repeating: 0xa5, count: 64)
        let large = [UInt8](repeating: 0x5a, count: 16_384)
        let key = [UInt8](repeating: 0x0b, count: 32)
        let smallCount = settings.count(200_000), largeCount = settings.count(5_000)

        await add(
            "k1", "SHA-256, 64 B", unit: "ns", target: .infinity,
            ours: {
                hashLoop(smallCount) { Hashing.sha256(small) }
            },
            theirs: { lib in
                hashLoop(smallCount) { digest(32) { out in small.withUnsafeBufferPointer { _ = lib.sha256($0.baseAddress, $0.count, out) } } }
            })
        await add(
            "k2", "SHA-256, 16 KiB", unit: "µs", target: 1.2,
            ours: {
                hashLoop(largeCount) { Hashing.sha256(large) } / 1_000
            },
            theirs: { lib in
                hashLoop(largeCount) { digest(32) { out in large.withUnsafeBufferPointer { _ = lib.sha256($0.baseAddress, $0.count, out) } } } / 1_000
            })
        await add(
            "k3", "HMAC-SHA256, 32 B key, 64 B message", unit: "ns", target: .infinity,
            ours: {
                hashLoop(smallCount) { Hashing.hmacSHA256(key: key, message: small) }
            },
            theirs: { lib in
                hashLoop(smallCount) {
                    digest(32) { out in
                        key.withUnsafeBytes { k in
                            small.withUnsafeBufferPointer { m in
                                _ = lib.hmac(lib.evpSHA256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, out, nil)
                            }
                        }
                    }
                }
            })
        let iterations = settings.count(100_000)
        let password = Array("correct horse battery staple".utf8), salt = [UInt8](repeating: 0x11, count: 16)
        await add(
            "k4", "PBKDF2-HMAC-SHA256, \(iterations) iterations", unit: "ms", target: 1.0,
            ours: {
                hashLoop(1) { (try? KeyDerivation.pbkdf2SHA256(password: password, salt: salt, iterations: iterations, keyLength: 32)) ?? [] } / 1e6
            },
            theirs: { lib in
                hashLoop(1) {
                    digest(32) { out in
                        password.withUnsafeBufferPointer { p in
                            p.withMemoryRebound(to: CChar.self) { chars in
                                salt.withUnsafeBufferPointer { s in
                                    _ = lib.pbkdf2(
                                        chars.baseAddress, Int32(chars.count), s.baseAddress, Int32(s.count), Int32(iterations), lib.evpSHA256(), 32, out)
                                }
                            }
                        }
                    }
                } / 1e6
            })
        let rsaCount = settings.count(2_000)
        let publicKey = try? RSAPublicKey(modulus: BenchRSAKey.modulus, exponent: BenchRSAKey.exponent)
        let theirKey = OpenSSLLibrary.shared?.publicKey(modulus: BenchRSAKey.modulus, exponent: BenchRSAKey.exponent)
        await add(
            "k5", "RSA-2048 PKCS#1 v1.5 SHA-256 verify", unit: "µs", target: 1.5,
            ours: {
                hashLoop(rsaCount) { publicKey?.isValidSignature(BenchRSAKey.signature, for: BenchRSAKey.message) == true ? [1] : [] } / 1_000
            },
            theirs: theirKey == nil
                ? nil
                : { lib in
                    hashLoop(rsaCount) {
                        let hash = digest(32) { out in BenchRSAKey.message.withUnsafeBufferPointer { _ = lib.sha256($0.baseAddress, $0.count, out) } }
                        let valid = hash.withUnsafeBufferPointer { h in
                            BenchRSAKey.signature.withUnsafeBufferPointer { s in
                                lib.rsaVerify(OpenSSLLibrary.sha256NID, h.baseAddress, UInt32(h.count), s.baseAddress, UInt32(s.count), theirKey)
                            }
                        }
                        return valid == 1 ? [1] : []
                    } / 1_000
                })
        rows += await SignatureScenarios.rows(settings, only: only)
        if !rows.isEmpty {
            let engine = ifc_sha256_has_hardware() != 0 ? "SHA instructions (SHA-NI / ARMv8 SHA2)" : "the portable C engine"
            let found = OpenSSLLibrary.shared.map { "; OpenSSL from \($0.name)" } ?? ""
            rows[0].note = [rows[0].note, "IdentityFlow's SHA-256 runs on \(engine)\(found)"].compactMap { $0 }.joined(separator: "; ")
        }
        return rows
    }

    /// One row: IdentityFlow's figure, and OpenSSL's in the same run when `theirs` is given (the
    /// ratio and target then follow); `nil` when `only` leaves the row out. The two alternate run
    /// by run (after one warm-up each), so that a neighbour's build on the shared cores weighs on
    /// both sides of a ratio alike instead of on whichever happened to run during it.
    static func row(
        _ settings: BenchSettings, only: Set<String>?, _ id: String, _ measure: String, unit: String, target: Double,
        ours: () -> Double, theirs: (() -> Double)?
    ) async -> BenchRow? {
        guard only?.contains(id) ?? true else { return nil }
        FileHandle.standardError.write(Data("bench: \(id)\n".utf8))
        _ = ours()
        _ = theirs?()
        var mine: [Double] = [], reference: [Double] = []
        for _ in 0..<settings.runs {
            mine.append(ours())
            if let theirs { reference.append(theirs()) }
        }
        var row = BenchRow(id, measure, unit: unit, Stats(mine))
        if theirs != nil {
            row = row.against(BenchRow("openssl", "OpenSSL", unit: unit, Stats(reference)), atMost: target)
            if target.isFinite { row.target = "≤ \(BenchRow.format(target))× OpenSSL" }
        } else {
            row.note = "OpenSSL's libcrypto not found (libcrypto.so.3 / libcrypto.so): no comparison"
        }
        return row
    }

    /// Milliseconds for `count` serial SHA-256 compressions (each block chained on the last) on the
    /// fastest engine: what a PBKDF2 of `count / 2` iterations cannot go below (row g6, the floor
    /// of l2). The blocks are 64 KiB that stay in the cache, hashed again and again, 1,024 per call.
    static func serialCompressions(count: Int) -> Double {
        let perCall = 1_024
        let blocks = [UInt8](repeating: 0x36, count: 64 * perCall)
        var state = [UInt32](repeating: 0x6a09_e667, count: 8)
        let clock = ContinuousClock()
        let start = clock.now
        var left = count
        while left > 0 {
            let now = min(left, perCall)
            ifc_sha256_blocks(&state, blocks, now)
            left -= now
        }
        let elapsed = start.duration(to: clock.now)
        blackHole(state)
        return Harness.nanoseconds(elapsed, per: 1) / 1e6
    }

    /// Nanoseconds per call of `body` over `count` calls; each result goes to the black hole.
    static func hashLoop(_ count: Int, _ body: () -> [UInt8]) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count { blackHole(body()) }
        return Harness.nanoseconds(start.duration(to: clock.now), per: count)
    }

    /// A `count`-byte output buffer filled by `fill`.
    static func digest(_ count: Int, _ fill: (UnsafeMutablePointer<UInt8>) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.initialize(repeating: 0)
            if let base = buffer.baseAddress { fill(base) }
            initialized = count
        }
    }
}
