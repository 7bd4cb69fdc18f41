import Foundation

/// The regular files of an output folder, relative to it, found without leaving it.
///
/// Symbolic links are never followed out of the folder: a link to a file inside counts as that
/// file, a link that points outside (or nowhere) is an error, and a link to a folder is not
/// descended into (a warning), which also rules out cycles.
struct OutputListing {
    /// The files, relative to the folder with `/` separators, sorted.
    private(set) var files: [String] = []
    /// Problems found while listing (symbolic links, special files).
    private(set) var diagnostics: [Diagnostic] = []
    private let displayPrefix: String

    /// Lists `folder`; `displayPrefix` is put before relative paths in diagnostics.
    init(folder: URL, displayPrefix: String) throws(OutputChecker.CheckError) {
        self.displayPrefix = displayPrefix
        guard let root = Self.realPath(folder.path) else {
            throw OutputChecker.CheckError(path: displayPrefix, reason: .notAFolder)
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) else {
            throw OutputChecker.CheckError(path: displayPrefix, reason: .notAFolder)
        }
        guard isFolder.boolValue else { throw OutputChecker.CheckError(path: displayPrefix, reason: .aFile) }
        do {
            try list(root: root, relative: "")
        } catch {
            throw OutputChecker.CheckError(path: displayPrefix, reason: .unreadable(error.localizedDescription))
        }
        files.sort()
    }

    /// The path diagnostics use for `relative`: the display prefix, a `/`, the relative path.
    func display(_ relative: String) -> String {
        if displayPrefix.isEmpty { return relative }
        return displayPrefix.hasSuffix("/") ? displayPrefix + relative : displayPrefix + "/" + relative
    }

    private mutating func list(root: String, relative: String) throws {
        let fileManager = FileManager.default
        let folder = relative.isEmpty ? root : root + "/" + relative
        for name in try fileManager.contentsOfDirectory(atPath: folder).sorted() {
            // What a killed build staged is no part of the site, and the next build clears it;
            // but a deploy before that publishes it (an upload of the folder takes dot files).
            if relative.isEmpty, name == StagingArea.insideName {
                var left = 0
                if let walker = FileManager.default.enumerator(atPath: folder + "/" + name) {
                    while walker.nextObject() != nil { if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular { left += 1 } }
                }
                diagnostics.append(.error("a build of this folder was stopped (killed, or still running) and left its staging folder, holding \(left) file\(left == 1 ? "" : "s"), which a deploy of this folder would publish; run gallery build again, which clears it, or remove it", path: display(name)))
                continue
            }
            let entry = relative.isEmpty ? name : relative + "/" + name
            let full = root + "/" + entry
            let type = try fileManager.attributesOfItem(atPath: full)[.type] as? FileAttributeType
            switch type {
            case .typeDirectory?:
                try list(root: root, relative: entry)
            case .typeRegular?:
                files.append(entry)
            case .typeSymbolicLink?:
                followLink(at: entry, full: full, root: root)
            default:
                diagnostics.append(.warning("is not a regular file; skipped", path: display(entry)))
            }
        }
    }

    private mutating func followLink(at entry: String, full: String, root: String) {
        let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "?"
        guard let target = Self.realPath(full) else {
            diagnostics.append(.error("symbolic link to '\(destination)' points to nothing", path: display(entry)))
            return
        }
        guard target == root || target.hasPrefix(root + "/") else {
            diagnostics.append(.error(
                "symbolic link points outside the output folder (to '\(destination)'); the site would not serve it",
                path: display(entry)))
            return
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isFolder), isFolder.boolValue {
            diagnostics.append(.warning("symbolic link to the folder '\(destination)' is not followed", path: display(entry)))
        } else {
            files.append(entry)
        }
    }

    /// The absolute path with every symbolic link resolved, or `nil` when it leads nowhere.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
