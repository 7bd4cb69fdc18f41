import Foundation

/// The starter site `gallery init` writes: the shipped `content/` (the seed's five albums and
/// their covers) and `gallery.toml`, as built into the binary, and a `.gitignore`.
public enum StarterSite {
    /// Why the starter site could not be written.
    public struct Error: Swift.Error, Sendable {
        /// What went wrong and what to do.
        public var reason: String
    }

    /// Writes the starter site into `folder`, which must not exist or be empty.
    ///
    /// - Returns: The relative paths written.
    @discardableResult
    public static func write(into folder: URL) throws(Error) -> [String] {
        let fileManager = FileManager.default
        // A repository made first (`git init`, or a clone of a new GitHub repository with its
        // README and licence) is a place for a site too: nothing in it is written over.
        if let existing = try? fileManager.contentsOfDirectory(atPath: folder.path) {
            let other = existing.filter { !Self.isRepositoryFile($0) }.sorted()
            if !other.isEmpty {
                let named = other.prefix(3).joined(separator: ", ") + (other.count > 3 ? " and \(other.count - 3) more" : "")
                throw Error(reason: "this folder already exists and is not empty (it holds \(named)); choose a new folder name, or one that holds only a repository's .git, .gitignore, .github, README and licence")
            }
        }
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: folder.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw Error(reason: "a file with this name already exists; choose a new folder name")
        }
        let paths = BuiltinResources.paths.filter { $0.hasPrefix("content/") || $0 == "gallery.toml" }
        do {
            for path in paths {
                guard let data = BuiltinResources.data(at: path) else { continue }
                let target = folder.appending(path: path)
                try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try AtomicFile.write(data, to: target)
            }
            let ignore = folder.appending(path: gitignorePath)
            try AtomicFile.write(Array(Self.ignoreList(adding: try? String(contentsOf: ignore, encoding: .utf8)).utf8), to: ignore)
            for empty in ["templates", "assets"] {
                try fileManager.createDirectory(at: folder.appending(path: empty, directoryHint: .isDirectory), withIntermediateDirectories: true)
            }
        } catch {
            throw Error(reason: "cannot write the starter site: \(Self.plainReason(error)); choose a folder you can write to")
        }
        return paths + [gitignorePath]
    }

    /// The ignore list to write: the starter's, or, in a repository that has one (GitHub's
    /// new-repository form offers a `.gitignore`), that one with the starter's lines it lacks
    /// added at its end.
    static func ignoreList(adding existing: String?) -> String {
        guard let existing, !existing.isEmpty else { return gitignore }
        let have = Set(existing.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) })
        let missing = gitignore.split(separator: "\n").filter { !$0.hasPrefix("#") && !have.contains(String($0)) }
        guard !missing.isEmpty else { return existing }
        return existing + (existing.hasSuffix("\n") ? "" : "\n") + "\n# gallery: the build's output and caches, the library commands' local state.\n" + missing.joined(separator: "\n") + "\n"
    }

    /// Whether a file in the folder is a repository's own, which `init` leaves alone and writes
    /// nothing over: its version control folder, ignore list (added to), workflows, README and
    /// licence.
    static func isRepositoryFile(_ name: String) -> Bool {
        if [".git", ".hg", ".svn", ".gitattributes", ".gitignore", ".github"].contains(name) { return true }
        let stem = name.split(separator: ".").first.map { $0.uppercased() } ?? ""
        return ["README", "LICENSE", "LICENCE", "COPYING"].contains(stem)
    }

    /// The system's reason for a failed write, in its own words (`Permission denied`), not a
    /// Foundation error's dump of its domain, code and user info.
    static func plainReason(_ error: any Swift.Error) -> String {
        var error = error as NSError
        while let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Swift.Error { error = underlying as NSError }
        if error.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(error.code))) }
        return error.localizedDescription
    }

    /// Where the starter's ignore list goes.
    static let gitignorePath = ".gitignore"

    /// What a site folder under git should not track: the build's output and caches (CI restores
    /// the cache itself), what a killed build or writer can leave, and the library commands'
    /// local state (git keeps the real history). Only the albums, covers, settings and
    /// templates remain.
    static let gitignore = """
        # Written by gallery build: the site, its staging folder, and the cover and thumbnail cache.
        /public/
        /.public.staging/
        /.gallery-cache/
        # The library commands' lock, backup and undo history, and what a killed writer left.
        .albums.json.lock
        albums.json.bak
        .albums.json.history
        .*.tmp-*

        """
}
