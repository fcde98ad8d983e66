import StatechartExport

/// The parsed options of `identityflow charts`.
struct ChartsOptions: Equatable {
    /// Why the arguments could not be parsed; the command prints usage and exits 2.
    struct UsageError: Error, Equatable {
        let message: String
    }

    var check = false
    var help = false
    var formats: Set<ChartFormat> = [.scxml, .mermaid]
    var output: String?
    var readme: String?

    /// Parses `--check`, `--format scxml|mermaid|dot|all` (repeatable, comma-separated),
    /// `--output DIR`, `--readme FILE`, `-h`/`--help`; `--option=value` works too.
    init(_ arguments: [String]) throws(UsageError) {
        var explicitFormats: Set<ChartFormat> = []
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("-") else {
                    throw UsageError(message: "\(name) needs a value")
                }
                return next
            }
            switch name {
            case "--check": check = true
            case "-h", "--help": help = true
            case "--output": output = try value()
            case "--readme": readme = try value()
            case "--format":
                for word in try value().split(separator: ",") {
                    if word == "all" {
                        explicitFormats.formUnion(ChartFormat.allCases)
                    } else if let format = ChartFormat(rawValue: String(word)) {
                        explicitFormats.insert(format)
                    } else {
                        throw UsageError(message: "unknown format \(word) (scxml, mermaid, dot or all)")
                    }
                }
            default:
                throw UsageError(message: "unknown option \(argument)")
            }
            if inlineValue != nil, !["--output", "--readme", "--format"].contains(name) {
                throw UsageError(message: "\(name) takes no value")
            }
        }
        if !explicitFormats.isEmpty { formats = explicitFormats }
    }
}
