/// `identityflow demo`: placeholder until the demo lands in this session.
enum DemoCommand {
    static func run(_ arguments: [String]) async -> Int32 { 1 }
}
