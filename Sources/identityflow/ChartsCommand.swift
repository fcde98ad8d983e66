/// `identityflow charts`: placeholder until the charts exporter lands in this session.
enum ChartsCommand {
    static func run(_ arguments: [String]) -> Int32 { 1 }
}
