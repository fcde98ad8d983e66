/// A file the code would write: its name and content.
public struct GeneratedFile: Sendable, Hashable {
    /// The file name, such as `Door.scxml`.
    public let name: String
    /// The content.
    public let content: String

    /// Creates a file description.
    /// - Parameters:
    ///   - name: The file name.
    ///   - content: The content.
    public init(name: String, content: String) {
        self.name = name
        self.content = content
    }
}
