import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Decides which file of the output folder answers a request path, and refuses anything that
/// would leave the folder.
///
/// The folder's real path is taken afresh on every lookup (a first build may create it, and
/// nothing stops a user from replacing it), then the real path of every name on the way to the
/// file, with symbolic links resolved, must lie inside it. So `..` in any spelling is refused by
/// ``RequestPath`` before the file system is asked, and a symbolic link in the output that points
/// elsewhere is refused here.
public struct StaticFileResolver: Sendable {
    /// What a request path leads to.
    public enum Lookup: Sendable, Hashable {
        /// A regular file inside the folder, by its real path.
        case file(String)
        /// A folder asked for without its trailing slash: send the browser to this path, so the
        /// page's relative links resolve from inside the folder.
        case redirect(String)
        /// Nothing there.
        case notFound
        /// A path that is malformed or leads out of the folder.
        case forbidden
    }

    /// The folder served.
    public let root: URL

    /// A resolver for a folder.
    public init(root: URL) {
        self.root = root.standardizedFileURL
    }

    /// The file for a raw request path (as sent, still percent-encoded, without the query).
    ///
    /// Each name is resolved in turn, and every step must stay inside the folder: a symbolic link
    /// that leads out is refused even when a later name would lead back in.
    public func lookup(_ rawPath: String) -> Lookup {
        guard let path = RequestPath(rawPath) else { return .forbidden }
        guard let base = Self.realPath(root.path) else { return .notFound }
        var current = base
        for segment in path.segments {
            guard let next = Self.realPath(current + "/" + segment) else { return .notFound }
            guard Self.isInside(next, base) else { return .forbidden }
            current = next
        }
        var info = stat()
        guard stat(current, &info) == 0 else { return .notFound }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            if !path.isFolder { return .redirect(rawPath + "/") }
            guard let index = Self.realPath(current + "/index.html") else { return .notFound }
            guard Self.isInside(index, base) else { return .forbidden }
            current = index
        } else if path.isFolder {
            // A file asked for as a folder (`/robots.txt/`): a static host answers 404, and a page
            // served there would resolve its relative links one folder too deep.
            return .notFound
        }
        guard stat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .notFound }
        return .file(current)
    }

    /// Whether a real path is the folder `base` or lies below it.
    static func isInside(_ path: String, _ base: String) -> Bool {
        path == base || path.utf8.starts(with: (base == "/" ? "/" : base + "/").utf8)
    }

    /// The site's own 404 page, if the build wrote one.
    public func notFoundPage() -> String? {
        if case .file(let path) = lookup("/404.html") { return path }
        return nil
    }

    /// The canonical absolute path of a file, with every symbolic link resolved, or `nil` if it
    /// does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
