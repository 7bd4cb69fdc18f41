import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Compares a build's outputs with what the previous build left in the output folder, so
/// unchanged files are neither rendered nor rewritten.
struct OutputLedger: Sendable {
    /// What the previous build wrote (empty for a first or `--clean` build).
    let previous: BuildManifest
    /// The output folder's path.
    let root: String

    /// What became of one output.
    enum Outcome: Sendable {
        /// Its inputs are as before and its file is in place: nothing to do.
        case inPlace(BuildManifest.Entry)
        /// Rendered again, but the bytes are those already in place: nothing to write.
        case unchanged(BuildManifest.Entry)
        /// New or different bytes to write.
        case changed(BuildManifest.Entry)
    }

    /// Whether an output with this input key can be skipped without rendering it.
    func inPlace(_ path: String, key: UInt64) -> BuildManifest.Entry? {
        guard let entry = previous.entries[path], entry.inputKey == key, fileSize(path) == entry.size else { return nil }
        return entry
    }

    /// What to do with freshly made bytes for an output.
    func outcome(_ path: String, key: UInt64, bytes: some Collection<UInt8>) -> Outcome {
        let entry = BuildManifest.Entry(inputKey: key, size: bytes.count, outputHash: FastHash.hash(bytes))
        if let old = previous.entries[path], old.outputHash == entry.outputHash, old.size == entry.size, fileSize(path) == entry.size {
            return .unchanged(entry)
        }
        return .changed(entry)
    }

    /// The size of an output file now, or `nil` if there is none.
    func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(root + "/" + path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }
}
