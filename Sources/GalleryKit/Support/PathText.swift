/// Paths as text, without Foundation's `NSString` path methods: on Linux,
/// `("a" as NSString).deletingLastPathComponent` traps (SIGILL) for a relative path of one
/// character, which took a build down when a static folder named `a` left the output.
public enum PathText {
    /// The path without its last component, as `NSString.deletingLastPathComponent` gives it:
    /// `x/y` → `x`, `ab` → ``, `/ab` → `/`, `/` → `/`; trailing slashes are ignored.
    public static func parent(of path: String) -> String {
        var text = Substring(path)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        guard let slash = text.lastIndex(of: "/") else { return "" }
        if slash == text.startIndex { return "/" }
        var head = text[..<slash]
        while head.count > 1, head.hasSuffix("/") { head = head.dropLast() }
        return String(head)
    }
}
