import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The process's resident set size: `/proc/self/statm` on Linux, `mach_task_basic_info` on Apple
/// platforms, unavailable elsewhere.
enum ResidentMemory {
    /// Resident bytes now, or `nil` when the platform does not tell.
    static func bytes() -> Int? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #elseif canImport(Darwin)
        var info = mach_task_basic_info()
        var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
        let result = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count)
            }
        }
        return result == KERN_SUCCESS ? Int(info.resident_size) : nil
        #else
        return nil
        #endif
    }

    /// Hands freed heap pages back to the system (glibc), so a reading before a scenario is not
    /// flattered by pages an earlier scenario freed but kept.
    static func trim() {
        #if canImport(Glibc)
        // `malloc_trim` is glibc's, declared in <malloc.h>, which the Glibc module does not export.
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }
}
