import Foundation

/// Files whose names are not UTF-8 (`café.txt` from an old Latin-1 archive). Foundation's folder
/// walk leaves them out without a word, so a file in `static/` was never published and nobody
/// was told; this walk, with the system's own calls, finds them to say so.
enum UndecodableNames {
    /// The paths under `folder` (as `shown/…`, the undecodable bytes shown as U+FFFD) of every
    /// entry whose name is not UTF-8, in path order. Symbolic links are not followed (the build's
    /// walk does not follow links to folders either); with `skipHidden`, dot names and all
    /// beneath them are left out, as `assets/` leaves them out.
    static func find(in folder: String, shown: String, skipHidden: Bool = false) -> [String] {
        var found: [String] = []
        walk(folder, shown: shown, skipHidden: skipHidden, into: &found)
        return found.sorted()
    }

    private static func walk(_ folder: String, shown: String, skipHidden: Bool, into found: inout [String]) {
        guard let stream = opendir(folder) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            if skipHidden, bytes.first == 0x2E { continue }
            let path = folder + "/" + String(decoding: bytes, as: UTF8.self)
            guard let name = String(validating: bytes, as: UTF8.self) else {
                found.append(shown + "/" + String(decoding: bytes, as: UTF8.self))
                continue
            }
            if isFolder(entry.pointee.d_type, at: path) {
                walk(folder + "/" + name, shown: shown + "/" + name, skipHidden: skipHidden, into: &found)
            }
        }
    }

    /// Whether an entry is a folder and no link, asking the file system when the entry does not
    /// say (some file systems leave `d_type` unknown).
    private static func isFolder(_ type: UInt8, at path: String) -> Bool {
        if type == UInt8(DT_DIR) { return true }
        guard type == UInt8(DT_UNKNOWN) else { return false }
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
