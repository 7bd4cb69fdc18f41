import Foundation

/// The built-in templates as files, for `gallery templates`: a site's `templates/` folder gets
/// copies of them to start customising from, the same bytes as this repository's `templates/`.
public enum BuiltinTemplates {
    /// Why the templates could not be written, or a name that is no built-in template.
    public struct Error: Swift.Error, Sendable {
        /// The file, or the name as given.
        public var path: String
        /// What went wrong and what to do.
        public var reason: String
    }

    /// What ``write(_:into:replacing:)`` did, as paths relative to the templates folder
    /// (`partials/tile.mustache`).
    public struct Outcome: Sendable, Hashable {
        /// The files written.
        public var written: [String] = []
        /// The files that existed and were left as they are.
        public var kept: [String] = []
    }

    /// The names of the built-in templates (`base`, `partials/tile`), sorted.
    public static var names: [String] {
        BuiltinResources.files(under: "templates").map(\.name).filter { $0.hasSuffix(".mustache") }
            .map { String($0.dropLast(".mustache".count)) }
    }

    /// The built-in template a name given on the command line means: `partials/tile`, also
    /// written as a file (`partials/tile.mustache`, `templates/partials/tile.mustache`).
    ///
    /// - Throws: ``Error`` when it names none, with the nearest name or the list of them all.
    public static func name(for given: String) throws(Error) -> String {
        var name = given
        if name.hasPrefix("./") { name.removeFirst(2) }
        if name.hasPrefix("templates/") { name.removeFirst("templates/".count) }
        if name.hasSuffix(".mustache") { name.removeLast(".mustache".count) }
        let known = names
        if known.contains(name) { return name }
        // `tile` or `tiel` for `partials/tile`: a file name without its folder.
        let fileName = { (path: String) in path.split(separator: "/").last.map(String.init) ?? path }
        let byFileName = Dictionary(grouping: known, by: fileName).compactMapValues { $0.count == 1 ? $0.first : nil }
        let nearFile = name.contains("/") ? nil : Spelling.nearest(name, among: Set(byFileName.keys)).flatMap { byFileName[$0] }
        let hint = (nearFile ?? Spelling.nearest(name, among: Set(known))).map { "did you mean '\($0)'?" }
            ?? "the built-in templates are \(known.joined(separator: ", "))"
        throw Error(path: given, reason: "there is no built-in template '\(name)'; \(hint)")
    }

    /// Writes the built-in templates `names` (all of them when empty; each once) into `folder`
    /// as `NAME.mustache`, making the folder and its subfolders as needed.
    ///
    /// - Parameter replacing: Whether a file that exists is written over; if not, it is left
    ///   as it is and listed in the outcome's `kept`.
    /// - Throws: ``Error`` before writing anything when a template's place is taken by a
    ///   folder, or naming the file that could not be written (the files before it are written).
    public static func write(_ names: [String], into folder: URL, replacing: Bool = false) throws(Error) -> Outcome {
        try write((names.isEmpty ? Self.names : names).map { $0 + ".mustache" }, from: "templates/", into: folder, replacing: replacing)
    }

    /// The built-in stylesheet and script, as `gallery templates --assets` writes them.
    public static let assets = ["gallery.css", "gallery.js"]

    /// Writes the built-in stylesheet and script, as their source (not shrunk), into `folder`
    /// (the site's `assets/`), where they replace the built-in ones; as ``write(_:into:replacing:)``.
    public static func writeAssets(into folder: URL, replacing: Bool = false) throws(Error) -> Outcome {
        try write(assets, from: "assets/", into: folder, replacing: replacing)
    }

    /// Writes the built-in files `relatives` (paths below `resources`) into `folder`.
    private static func write(_ relatives: [String], from resources: String, into folder: URL, replacing: Bool) throws(Error) -> Outcome {
        let fileManager = FileManager.default
        var outcome = Outcome()
        var pending: [(relative: String, data: Data)] = []
        var seen = Set<String>()
        for relative in relatives where seen.insert(relative).inserted {
            let name = relative.hasSuffix(".mustache") ? String(relative.dropLast(".mustache".count)) : relative
            let target = folder.appending(path: relative)
            guard let data = BuiltinResources.data(at: resources + relative) else {
                throw Error(path: name, reason: "there is no built-in template '\(name)'")
            }
            // A link, even one to nothing, counts as a file that exists.
            guard (try? fileManager.attributesOfItem(atPath: target.path)) != nil else {
                pending.append((relative, data))
                continue
            }
            var isFolder: ObjCBool = false
            if fileManager.fileExists(atPath: target.path, isDirectory: &isFolder), isFolder.boolValue {
                throw Error(path: SiteFolder.display(target), reason: "this is a folder, not a template file; move it away to get the built-in '\(name)' here")
            }
            if replacing {
                pending.append((relative, data))
            } else {
                outcome.kept.append(relative)
            }
        }
        for (relative, data) in pending {
            let target = folder.appending(path: relative)
            let reason: String
            do {
                try fileManager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                do throws(AtomicFile.WriteError) {
                    try AtomicFile.write(data, to: target)
                    outcome.written.append(relative)
                    continue
                } catch {
                    reason = error.reason
                }
            } catch {
                reason = StarterSite.plainReason(error)
            }
            throw Error(path: SiteFolder.display(target), reason: "cannot write this file: \(reason); check that you may write to \(SiteFolder.display(folder))")
        }
        return outcome
    }
}
