import Foundation

/// What `gallery env` reports, as `hugo env` does: gallery's version and platform, and the
/// libraries it runs on, for bug reports and for checking a CI machine.
public enum RuntimeFacts {
    /// `gallery VERSION OS/ARCHITECTURE`.
    public static var heading: String {
        "gallery \(GalleryVersion.current) \(operatingSystem)/\(architecture)"
    }

    /// Each fact as a key and a value: the cores, libvips (loading it) and libxml2.
    public static var facts: [(key: String, value: String)] {
        [("cores", String(ProcessInfo.processInfo.activeProcessorCount))]
            + Thumbnailer.libraryFacts
            + [("libxml2", XMLDocument.libraryVersion)]
    }

    /// A version number in the form libvips and libxml2 give it (major × 10000 + minor × 100 +
    /// micro) as `major.minor.micro`.
    static func dotted(_ number: Int) -> String {
        "\(number / 10000).\(number / 100 % 100).\(number % 100)"
    }

    /// The facts as `key="value"` lines (backslashes and quotes escaped), after the heading.
    public static var report: String {
        let lines = facts.map { key, value in
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\n", with: "\\n")
            return "\(key)=\"\(escaped)\""
        }
        return ([heading] + lines).joined(separator: "\n") + "\n"
    }

    private static var operatingSystem: String {
        #if os(Linux)
        "linux"
        #elseif os(macOS)
        "darwin"
        #else
        "unknown"
        #endif
    }

    private static var architecture: String {
        #if arch(x86_64)
        "x86_64"
        #elseif arch(arm64)
        "arm64"
        #else
        "unknown"
        #endif
    }
}
