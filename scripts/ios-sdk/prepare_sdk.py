#!/usr/bin/env python3
"""Prepare an iPhoneOS 16.5 SDK for compiling IdentityFlow on Linux (scripts/check-ios.sh).

    prepare_sdk.py SOURCE DEST
    prepare_sdk.py --version      (what a prepared DEST's marker must say)

SOURCE is an iPhoneOS16.5.sdk directory, or the git directory of a copy of the public repository
theos/sdks (no work tree needed). DEST (a folder in the cache, outside the repository) receives:

  iPhoneOS16.5.sdk/   what a compile reads (headers, module maps, API notes, arm64 Swift
                      interfaces, settings), with the additions below
  apinotes/           the Dispatch and os API notes Apple's toolchains ship and Linux ones lack
  prepared            a marker naming this script's version; written last

Additions to the SDK copy, each declared with the availability Apple gives it:
  * Swift 5.9-6.2 standard library and concurrency declarations the package uses (the SDK's own
    interfaces are Swift 5.8): the `sending @isolated(any)` Task initialisers (SE-0430/0431),
    Task.immediate (iOS 26), AsyncStream.makeStream (SE-0388), #isolation (SE-0420),
    Clock.sleep(for:) (SE-0374), String(validating:as:) (iOS 18), Sequence.count(where:),
    typed throws in Optional.map / flatMap and Result.get (SE-0413) with the runtime hooks a
    typed `throw` needs, BitwiseCopyable (SE-0426);
  * Dispatch objects are Sendable, as newer SDKs declare them;
  * one os_log message in SwiftUI's inlinable Environment.wrappedValue loses its interpolation
    (the 6.3 type checker rejects it there, and SwiftUI could not be built);
  * ASWebAuthenticationSession.Callback (iOS 17.4 SDK), for https redirect URIs (this SDK's
    availability macros predate visionOS, so that platform is left out of its declaration).
A new use of a newer standard library API needs a declaration here. Nothing here is committed to
the project: the SDK files are Apple's.
"""
import os
import pathlib
import shutil
import subprocess
import sys

VERSION = "identityflow-ios-sdk 3"
SDK_NAME = "iPhoneOS16.5.sdk"
MARK = "// Added by IdentityFlow's scripts/ios-sdk/prepare_sdk.py"

# ---------------------------------------------------------------------------------------------
# 1. Copy what a compile reads.

SKIPPED_SUFFIXES = (".tbd", ".swiftdoc", ".swiftsourceinfo", ".a", ".dylib", ".bitstream", ".abi.json")
SKIPPED_PREFIXES = ("System/Library/PrivateFrameworks/", "usr/share/", "Developer/", "usr/libexec/", "Applications/")


def wanted(relative):
    """Whether a compile can read the file (symbolic links are always kept)."""
    if relative.endswith(SKIPPED_SUFFIXES) or relative.startswith(SKIPPED_PREFIXES):
        return False
    # Interfaces of other architectures (arm64e, the simulators) are never read for arm64.
    return not ("arm64e" in relative or "-simulator" in relative)


def copy_from_git(git_dir, dest):
    listing = subprocess.run(["git", "-C", git_dir, "ls-tree", "-r", "-z", "HEAD", SDK_NAME], check=True, capture_output=True).stdout
    entries = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, path = record.split(b"\t", 1)
        mode, _, blob = meta.decode().split()
        relative = path.decode()[len(SDK_NAME) + 1:]
        if mode == "120000" or wanted(relative):
            entries.append((mode, blob, relative))
    reader = subprocess.Popen(["git", "-C", git_dir, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    absent = 0
    for mode, blob, relative in entries:
        reader.stdin.write(blob.encode() + b"\n")
        reader.stdin.flush()
        header = reader.stdout.readline().split()
        if header[-1] == b"missing":  # a partial mirror: a blob the compile does not need, or an error below
            absent += 1
            continue
        content = reader.stdout.read(int(header[2]))
        reader.stdout.read(1)
        target = dest / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == "120000":
            if target.is_symlink() or target.exists():
                target.unlink()
            os.symlink(content.decode(), target)
        else:
            target.write_bytes(content)
    reader.stdin.close()
    reader.wait()
    print(f"copied {len(entries) - absent} files from {git_dir} ({absent} absent from the mirror)")


def copy_from_directory(sdk, dest):
    count = 0
    for root, dirs, files in os.walk(sdk):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            source = pathlib.Path(root) / name
            relative = str(source.relative_to(sdk))
            if not (source.is_symlink() or wanted(relative)):
                continue
            target = dest / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_symlink():
                os.symlink(os.readlink(source), target)
            else:
                shutil.copy2(source, target)
            count += 1
    print(f"copied {count} files from {sdk}")


# ---------------------------------------------------------------------------------------------
# 2. Declarations newer than the SDK.

def replace_block(text, signature, declaration):
    """Replaces the inline-bodied declaration starting with `signature` (through its matching
    closing brace) by a bodiless `declaration`."""
    start = text.index(signature)
    depth = 0
    index = start + len(signature) - 1  # at the opening brace that ends the signature
    assert text[index] == "{", signature
    while True:
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                break
        index += 1
    return text[:start] + declaration + text[index + 1:]


def append_once(path, addition, replacements=()):
    text = path.read_text()
    if MARK in text:
        return
    for signature, declaration in replacements:
        text = replace_block(text, signature, declaration)
    path.write_text(text + "\n" + MARK + "\n" + addition)


CONCURRENCY_TASK_ENTRY_POINTS = [
    (f"@_alwaysEmitIntoClient public init(priority: _Concurrency.TaskPriority? = nil, @_inheritActorContext @_implicitSelfCapture operation: __owned @escaping @Sendable () async {t}-> Success) {{",
     f"public init(name: Swift.String? = nil, priority: _Concurrency.TaskPriority? = nil, @_inheritActorContext @_implicitSelfCapture operation: sending @escaping @isolated(any) () async {t}-> Success)")
    for t in ("", "throws ")
] + [
    (f"@_alwaysEmitIntoClient public static func detached(priority: _Concurrency.TaskPriority? = nil, operation: __owned @escaping @Sendable () async {t}-> Success) -> _Concurrency.Task<Success, Failure> {{",
     f"public static func detached(name: Swift.String? = nil, priority: _Concurrency.TaskPriority? = nil, operation: sending @escaping @isolated(any) () async {t}-> Success) -> _Concurrency.Task<Success, Failure>")
    for t in ("", "throws ")
]

CONCURRENCY_ADDITIONS = """
@available(macOS 10.15, iOS 13.0, watchOS 6.0, tvOS 13.0, *)
extension _Concurrency.AsyncStream {
  @_alwaysEmitIntoClient public static func makeStream(of elementType: Element.Type = Element.self, bufferingPolicy limit: _Concurrency.AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded) -> (stream: _Concurrency.AsyncStream<Element>, continuation: _Concurrency.AsyncStream<Element>.Continuation) {
    var made: _Concurrency.AsyncStream<Element>.Continuation? = nil
    let stream = _Concurrency.AsyncStream<Element>(bufferingPolicy: limit) { made = $0 }
    return (stream: stream, continuation: made!)
  }
}
@available(macOS 10.15, iOS 13.0, watchOS 6.0, tvOS 13.0, *)
extension _Concurrency.AsyncThrowingStream {
  @_alwaysEmitIntoClient public static func makeStream(of elementType: Element.Type = Element.self, throwing failureType: Failure.Type = Failure.self, bufferingPolicy limit: _Concurrency.AsyncThrowingStream<Element, Failure>.Continuation.BufferingPolicy = .unbounded) -> (stream: _Concurrency.AsyncThrowingStream<Element, Failure>, continuation: _Concurrency.AsyncThrowingStream<Element, Failure>.Continuation) where Failure == any Swift.Error {
    var made: _Concurrency.AsyncThrowingStream<Element, Failure>.Continuation? = nil
    let stream = _Concurrency.AsyncThrowingStream<Element, Failure>(bufferingPolicy: limit) { made = $0 }
    return (stream: stream, continuation: made!)
  }
}
@available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
extension _Concurrency.Task where Failure == Swift.Never {
  @discardableResult public static func immediate(name: Swift.String? = nil, priority: _Concurrency.TaskPriority? = nil, @_implicitSelfCapture @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Success) -> _Concurrency.Task<Success, Failure>
}
@available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
extension _Concurrency.Task where Failure == any Swift.Error {
  @discardableResult public static func immediate(name: Swift.String? = nil, priority: _Concurrency.TaskPriority? = nil, @_implicitSelfCapture @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> Success) -> _Concurrency.Task<Success, Failure>
}
@available(macOS 10.15, iOS 13.0, watchOS 6.0, tvOS 13.0, *)
@freestanding(expression) public macro isolation<T>() -> T = Builtin.IsolationMacro
@available(macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0, *)
extension _Concurrency.Clock {
  @_alwaysEmitIntoClient public func sleep(for duration: Self.Duration, tolerance: Self.Duration? = nil) async throws {
    try await sleep(until: now.advanced(by: duration), tolerance: tolerance)
  }
}
"""

SWIFT_TYPED_THROWS = [
    ("@inlinable public func map<U>(_ transform: (Wrapped) throws -> U) rethrows -> U? {",
     "public func map<E, U>(_ transform: (Wrapped) throws(E) -> U) throws(E) -> U? where E : Swift.Error"),
    ("@inlinable public func flatMap<U>(_ transform: (Wrapped) throws -> U?) rethrows -> U? {",
     "public func flatMap<E, U>(_ transform: (Wrapped) throws(E) -> U?) throws(E) -> U? where E : Swift.Error"),
    ("@inlinable public func get() throws -> Success {",
     "public func get() throws(Failure) -> Success"),
]

SWIFT_ADDITIONS = """
@_marker public protocol BitwiseCopyable {
}
public typealias _BitwiseCopyable = Swift.BitwiseCopyable
extension Swift.String {
  @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
  public init?<Encoding>(validating codeUnits: some Swift.Sequence<Encoding.CodeUnit>, as encoding: Encoding.Type) where Encoding : Swift._UnicodeEncoding
}
extension Swift.Sequence {
  public func count<E>(where predicate: (Self.Element) throws(E) -> Swift.Bool) throws(E) -> Swift.Int where E : Swift.Error
}
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
@usableFromInline @_silgen_name("swift_willThrowTypedImpl")
internal func _willThrowTypedImpl<E>(_ error: E) where E : Swift.Error
@inlinable @_alwaysEmitIntoClient @_silgen_name("swift_willThrowTyped")
public func _willThrowTyped<E>(_ error: E) where E : Swift.Error {
  if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
    _willThrowTypedImpl(error)
  }
}
@inlinable @_alwaysEmitIntoClient @_silgen_name("swift_unexpectedErrorTyped")
public func _unexpectedErrorTyped<E>(_ error: __owned E, filenameStart: Builtin.RawPointer, filenameLength: Builtin.Word, filenameIsASCII: Builtin.Int1, line: Builtin.Word) where E : Swift.Error {
  _unexpectedError(error, filenameStart: filenameStart, filenameLength: filenameLength, filenameIsASCII: filenameIsASCII, line: line)
}
@_alwaysEmitIntoClient
public func _errorInMainTyped<Failure>(_ error: Failure) -> Swift.Never where Failure : Swift.Error {
  fatalError("Error raised at top level: \\(Swift.String(reflecting: error))")
}
"""

DISPATCH_SENDABLE = [
    ("#define DISPATCH_DECL(name) OS_OBJECT_DECL_SUBCLASS_SWIFT(name, dispatch_object)",
     "#define DISPATCH_DECL(name) __attribute__((swift_attr(\"@Sendable\"))) OS_OBJECT_DECL_SUBCLASS_SWIFT(name, dispatch_object)"),
    ("#define DISPATCH_DECL_SUBCLASS(name, base) OS_OBJECT_DECL_SUBCLASS_SWIFT(name, base)",
     "#define DISPATCH_DECL_SUBCLASS(name, base) __attribute__((swift_attr(\"@Sendable\"))) OS_OBJECT_DECL_SUBCLASS_SWIFT(name, base)"),
]

WEB_AUTHENTICATION_CALLBACK = """
NS_ASSUME_NONNULL_BEGIN
API_AVAILABLE(ios(17.4), macos(14.4), watchos(10.4), tvos(17.4))
NS_SWIFT_NAME(ASWebAuthenticationSession.Callback)
@interface ASWebAuthenticationSessionCallback : NSObject
+ (instancetype)callbackWithCustomScheme:(NSString *)customScheme NS_SWIFT_NAME(customScheme(_:));
+ (instancetype)callbackWithHTTPSHost:(NSString *)host path:(NSString *)path NS_SWIFT_NAME(https(host:path:));
- (instancetype)init NS_UNAVAILABLE;
+ (instancetype)new NS_UNAVAILABLE;
- (BOOL)matchesURL:(NSURL *)url;
@end
@interface ASWebAuthenticationSession (IdentityFlowCallback)
- (instancetype)initWithURL:(NSURL *)URL callback:(ASWebAuthenticationSessionCallback *)callback completionHandler:(ASWebAuthenticationSessionCompletionHandler)completionHandler API_AVAILABLE(ios(17.4), macos(14.4), watchos(10.4));
@end
NS_ASSUME_NONNULL_END
"""


# SwiftUI's Environment.wrappedValue logs with an interpolated os_log message in an inlinable body;
# the 6.3 type checker resolves that call to the StaticString overload and rejects the
# interpolation, so the module cannot be built. The message loses its type name; nothing else.
SWIFTUI_ENVIRONMENT_LOG = (
    "Accessing Environment<\\(Value.self)>'s value outside of \\\n                    being installed on a View. \\",
    "Accessing Environment's value outside of \\\n                    being installed on a View. \\",
)


def patch(sdk):
    swift = sdk / "usr/lib/swift"
    append_once(swift / "_Concurrency.swiftmodule/arm64-apple-ios.swiftinterface", CONCURRENCY_ADDITIONS, CONCURRENCY_TASK_ENTRY_POINTS)
    append_once(swift / "Swift.swiftmodule/arm64-apple-ios.swiftinterface", SWIFT_ADDITIONS, SWIFT_TYPED_THROWS)
    header = sdk / "usr/include/dispatch/object.h"
    text = header.read_text()
    if MARK not in text:
        for old, new in DISPATCH_SENDABLE:
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        header.write_text(text + "\n/* " + MARK[3:] + " */\n")
    swiftui = sdk / "System/Library/Frameworks/SwiftUI.framework/Modules/SwiftUI.swiftmodule/arm64-apple-ios.swiftinterface"
    text = swiftui.read_text()
    if MARK not in text:
        old, new = SWIFTUI_ENVIRONMENT_LOG
        assert text.count(old) == 1, old
        swiftui.write_text(text.replace(old, new) + "\n" + MARK + "\n")
    # AuthenticationServices lives in the OS cryptex of this SDK; the framework path links there.
    session = next(sdk.glob("**/AuthenticationServices.framework/Headers/ASWebAuthenticationSession.h"))
    text = session.read_text()
    if MARK not in text:
        session.write_text(text + "\n/* " + MARK[3:] + " */\n" + WEB_AUTHENTICATION_CALLBACK)


# ---------------------------------------------------------------------------------------------
# 3. API notes: how the Dispatch and os C APIs appear in Swift (the names the SDK's Swift
#    overlays are written against).

DISPATCH_CLASSES = {
    "OS_dispatch_object": "DispatchObject", "OS_dispatch_queue": "DispatchQueue", "OS_dispatch_io": "DispatchIO",
    "OS_dispatch_semaphore": "DispatchSemaphore", "OS_dispatch_group": "DispatchGroup", "OS_dispatch_source": "DispatchSource",
    "OS_dispatch_data": "__DispatchData",
}
DISPATCH_PROTOCOLS = {
    "OS_dispatch_source": "DispatchSourceProtocol", "OS_dispatch_source_mach_send": "DispatchSourceMachSend",
    "OS_dispatch_source_mach_recv": "DispatchSourceMachReceive", "OS_dispatch_source_memorypressure": "DispatchSourceMemoryPressure",
    "OS_dispatch_source_proc": "DispatchSourceProcess", "OS_dispatch_source_read": "DispatchSourceRead",
    "OS_dispatch_source_signal": "DispatchSourceSignal", "OS_dispatch_source_timer": "DispatchSourceTimer",
    "OS_dispatch_source_data_or": "DispatchSourceUserDataOr", "OS_dispatch_source_data_add": "DispatchSourceUserDataAdd",
    "OS_dispatch_source_data_replace": "DispatchSourceUserDataReplace", "OS_dispatch_source_vnode": "DispatchSourceFileSystemObject",
    "OS_dispatch_source_write": "DispatchSourceWrite",
}
DISPATCH_HIDDEN_TYPEDEFS = """dispatch_object_t dispatch_block_t dispatch_queue_t dispatch_semaphore_t dispatch_io_t dispatch_data_t
    dispatch_group_t dispatch_qos_class_t dispatch_data_applier_t dispatch_fd_t dispatch_io_handler_t dispatch_source_t
    dispatch_function_t dispatch_io_close_flags_t dispatch_io_interval_flags_t dispatch_io_type_t dispatch_source_timer_flags_t
    dispatch_queue_attr_t dispatch_queue_priority_t dispatch_source_mach_send_flags_t dispatch_source_memorypressure_flags_t
    dispatch_source_proc_flags_t dispatch_source_vnode_flags_t""".split()
DISPATCH_PRIVATE_TYPEDEFS = "dispatch_autorelease_frequency_t dispatch_block_flags_t dispatch_source_type_t".split()
DISPATCH_HIDDEN_FUNCTIONS = """dispatch_release dispatch_retain dispatch_async_f dispatch_barrier_async_f dispatch_apply_f dispatch_sync_f
    dispatch_barrier_sync_f dispatch_after_f dispatch_get_main_queue dispatch_set_finalizer_f dispatch_get_context dispatch_set_context
    _dispatch_object_validate dispatch_data_create dispatch_group_async_f dispatch_group_notify_f dispatch_source_set_event_handler_f
    dispatch_source_set_cancel_handler_f dispatch_source_set_registration_handler_f""".split()
DISPATCH_BLOCK_FUNCTIONS = {
    "dispatch_block_create": "DispatchWorkItem()", "dispatch_block_create_with_qos_class": "DispatchWorkItem()",
    "dispatch_block_perform": "DispatchWorkItem.perform()", "dispatch_block_wait": "DispatchWorkItem.wait(timeout:)",
    "dispatch_block_notify": "DispatchWorkItem.notify(queue:execute:)", "dispatch_block_cancel": "DispatchWorkItem.cancel()",
    "dispatch_block_testcancel": "DispatchWorkItem.isCancelled",
}
DISPATCH_PRIVATE_FUNCTIONS = """dispatch_get_global_queue dispatch_assert_queue dispatch_assert_queue_barrier dispatch_assert_queue_not
    dispatch_async dispatch_barrier_async dispatch_apply dispatch_barrier_sync dispatch_queue_get_label dispatch_queue_get_qos_class
    dispatch_after dispatch_queue_get_specific dispatch_queue_set_specific dispatch_get_specific dispatch_queue_attr_make_initially_inactive
    dispatch_queue_attr_make_with_autorelease_frequency dispatch_queue_attr_make_with_qos_class dispatch_data_get_size dispatch_data_apply
    dispatch_data_create_concat dispatch_data_create_subrange dispatch_data_copy_region dispatch_data_create_map dispatch_group_async
    dispatch_group_wait dispatch_group_notify dispatch_io_read dispatch_io_write dispatch_io_close dispatch_io_set_interval dispatch_read
    dispatch_write dispatch_semaphore_wait dispatch_semaphore_signal dispatch_source_create dispatch_source_get_handle
    dispatch_source_get_mask dispatch_source_get_data dispatch_source_merge_data dispatch_source_set_event_handler
    dispatch_source_set_cancel_handler dispatch_source_set_registration_handler dispatch_source_cancel dispatch_source_testcancel
    dispatch_source_set_timer dispatch_time dispatch_walltime""".split()
DISPATCH_RENAMED_FUNCTIONS = {
    "dispatch_queue_create": ("DispatchQueue.init(__label:attr:)", True),
    "dispatch_queue_create_with_target": ("DispatchQueue.init(__label:attr:queue:)", True),
    "dispatch_sync": ("DispatchQueue.sync(self:execute:)", False),
    "dispatch_set_target_queue": ("DispatchObject.setTarget(self:queue:)", False),
    "dispatch_activate": ("DispatchObject.activate(self:)", False),
    "dispatch_suspend": ("DispatchObject.suspend(self:)", False),
    "dispatch_resume": ("DispatchObject.resume(self:)", False),
    "dispatch_group_create": ("DispatchGroup.init()", False),
    "dispatch_group_enter": ("DispatchGroup.enter(self:)", False),
    "dispatch_group_leave": ("DispatchGroup.leave(self:)", False),
    "dispatch_io_create": ("DispatchIO.init(__type:fd:queue:handler:)", True),
    "dispatch_io_create_with_path": ("DispatchIO.init(__type:path:oflag:mode:queue:handler:)", True),
    "dispatch_io_create_with_io": ("DispatchIO.init(__type:io:queue:handler:)", True),
    "dispatch_io_barrier": ("DispatchIO.barrier(self:execute:)", False),
    "dispatch_io_get_descriptor": ("getter:DispatchIO.fileDescriptor(self:)", False),
    "dispatch_io_set_high_water": ("DispatchIO.setLimit(self:highWater:)", False),
    "dispatch_io_set_low_water": ("DispatchIO.setLimit(self:lowWater:)", False),
    "dispatch_semaphore_create": ("DispatchSemaphore.init(value:)", False),
    "dispatch_main": ("dispatchMain()", False),
}
DISPATCH_HIDDEN_ENUMERATORS = """DISPATCH_BLOCK_BARRIER DISPATCH_BLOCK_DETACHED DISPATCH_BLOCK_ASSIGN_CURRENT DISPATCH_BLOCK_NO_QOS_CLASS
    DISPATCH_BLOCK_INHERIT_QOS_CLASS DISPATCH_BLOCK_ENFORCE_QOS_CLASS DISPATCH_AUTORELEASE_FREQUENCY_INHERIT
    DISPATCH_AUTORELEASE_FREQUENCY_WORK_ITEM DISPATCH_AUTORELEASE_FREQUENCY_NEVER""".split()


def item(name, **fields):
    lines = [f"- Name: {name}"]
    for key, value in fields.items():
        lines.append(f"  {key}: {value}")
    return lines


def dispatch_notes():
    out = ["---", "Name: Dispatch", "Typedefs:"]
    for name in DISPATCH_HIDDEN_TYPEDEFS:
        out += item(name, Availability="nonswift")
    for name in DISPATCH_PRIVATE_TYPEDEFS:
        out += item(name, SwiftPrivate="true")
    out.append("Classes:")
    for name, swift in DISPATCH_CLASSES.items():
        out += item(name, SwiftName=swift)
    out += item("OS_dispatch_queue_attr", SwiftPrivate="true")
    out.append("Protocols:")
    for name, swift in DISPATCH_PROTOCOLS.items():
        out += item(name, SwiftName=swift)
    out.append("Functions:")
    for name in DISPATCH_HIDDEN_FUNCTIONS:
        out += item(name, Availability="nonswift")
    for name, use in DISPATCH_BLOCK_FUNCTIONS.items():
        out += item(name, Availability="nonswift", AvailabilityMsg=f"'Use {use}'")
    for name in DISPATCH_PRIVATE_FUNCTIONS:
        out += item(name, SwiftPrivate="true")
    for name, (swift, private) in DISPATCH_RENAMED_FUNCTIONS.items():
        out += item(name, SwiftName=f"'{swift}'", **({"SwiftPrivate": "true"} if private else {}))
    out.append("Globals:")
    for name in ("_dispatch_data_destructor_free", "_dispatch_data_destructor_munmap"):
        out += item(name, Availability="nonswift")
    out.append("Enumerators:")
    for name in DISPATCH_HIDDEN_ENUMERATORS:
        out += item(name, Availability="nonswift")
    return "\n".join(out) + "\n"


def os_notes():
    out = ["---", "Name: os", "Typedefs:"]
    out += item("os_log_type_t", SwiftName="OSLogType") + item("os_trace_payload_t", Availability="nonswift")
    out += item("os_log_t", Availability="nonswift") + item("os_signpost_type_t", SwiftName="OSSignpostType")
    out += ["Classes:"] + item("OS_os_log", SwiftName="OSLog") + ["Enumerators:"]
    for name in ("OS_LOG_TYPE_DEFAULT OS_LOG_TYPE_INFO OS_LOG_TYPE_DEBUG OS_LOG_TYPE_ERROR OS_LOG_TYPE_FAULT "
                 "OS_SIGNPOST_INTERVAL_BEGIN OS_SIGNPOST_INTERVAL_END OS_SIGNPOST_EVENT").split():
        out += item(name, SwiftPrivate="true")
    out.append("Functions:")
    # The os overlay calls these two itself, under their SwiftPrivate names (___os_log_impl, ...).
    out += item("_os_log_impl", SwiftPrivate="true") + item("_os_signpost_emit_with_name_impl", SwiftPrivate="true")
    for name in ("_os_log_error_impl", "_os_log_fault_impl"):
        out += item(name, Availability="nonswift", AvailabilityMsg="'Use os_log'")
    for name in ("_os_log_sensitive_deprecated", "_os_trace_with_buffer", "os_log_is_enabled", "_os_log_create", "os_log_is_debug_enabled"):
        out += item(name, Availability="nonswift")
    out += item("os_log_type_enabled", SwiftName="'OSLog.isEnabled(self:type:)'")
    out += item("os_log_create", SwiftName="'OSLog.init(__subsystem:category:)'", SwiftPrivate="true", NullabilityOfRet="N")
    out += item("os_signpost_enabled", SwiftPrivate="true")
    out += item("os_signpost_id_generate", SwiftPrivate="true", NullabilityOfRet="O")
    out += item("os_signpost_id_make_with_pointer", SwiftPrivate="true", NullabilityOfRet="O")
    return "\n".join(out) + "\n"


def main():
    if sys.argv[1:] == ["--version"]:
        print(VERSION)
        return
    source, dest = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    sdk = dest / SDK_NAME
    (dest / "prepared").unlink(missing_ok=True)
    if sdk.exists():
        shutil.rmtree(sdk)
    sdk.mkdir(parents=True)
    if (source / "objects").is_dir() or (source / ".git").exists():
        copy_from_git(str(source), sdk)
    else:
        copy_from_directory(source, sdk)
    patch(sdk)
    notes = dest / "apinotes"
    notes.mkdir(exist_ok=True)
    (notes / "Dispatch.apinotes").write_text(dispatch_notes())
    (notes / "os.apinotes").write_text(os_notes())
    (dest / "prepared").write_text(VERSION + "\n")
    print(f"prepared {sdk}")


if __name__ == "__main__":
    main()
