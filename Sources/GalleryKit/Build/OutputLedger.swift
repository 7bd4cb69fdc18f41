import Foundation
import Synchronization

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
    /// The output folder, opened once, so each `stat` walks only the output's own path.
    private let folder: OpenFolder
    /// Counts ``filesVerified``.
    private let verifications = Counter()
    /// The outputs' sizes and change times, read before the ledger was made; `nil` to `stat`
    /// each output when it is asked about.
    private let survey: OutputSurvey?

    /// A ledger of the outputs under `root` against `previous`, with what `survey` found of
    /// them in place of a `stat` of each. The survey must be taken of `previous` under the same
    /// `root`: the records it holds are read in place of `previous`'s.
    init(previous: BuildManifest, root: String, survey: OutputSurvey? = nil) {
        self.previous = previous
        self.root = root
        self.folder = OpenFolder(root)
        self.survey = survey
    }

    /// What became of one output.
    enum Outcome: Sendable {
        /// Its inputs are as before and its file is in place: nothing to do.
        case inPlace(BuildManifest.Entry)
        /// Rendered again, but the bytes are those already in place: nothing to write.
        case unchanged(BuildManifest.Entry)
        /// New or different bytes to write; `isNew` when the previous build made no such output.
        case changed(BuildManifest.Entry, isNew: Bool)

        /// Whether there are bytes to write.
        var isChange: Bool {
            if case .changed = self { true } else { false }
        }

        /// The record of the output.
        var entry: BuildManifest.Entry {
            switch self {
            case .inPlace(let entry), .unchanged(let entry), .changed(let entry, _): entry
            }
        }
    }

    /// Whether an output with this input key can be skipped without rendering it.
    func inPlace(_ path: String, key: UInt64) -> BuildManifest.Entry? {
        // The survey holds each record beside its file's state: one lookup of the path, not two.
        if let found = survey?.files[path] {
            let file = found.size < 0 ? nil : (size: found.size, changed: found.changed)
            guard found.entry.inputKey == key, holds(path, file: file, size: found.entry.size, hash: found.entry.outputHash) else { return nil }
            return found.entry
        }
        guard let entry = previous.entries[path], entry.inputKey == key, holds(path, size: entry.size, hash: entry.outputHash) else { return nil }
        return entry
    }

    /// Whether the output file at `path` holds what the previous build recorded: `size` bytes,
    /// and, when the file changed after the manifest was written, bytes that hash to `hash`.
    ///
    /// A file's change time moves with every write, rename or link and cannot be set back by
    /// hand, so a file not changed since the manifest holds what that build wrote; one changed
    /// since (a same-size hand edit, or a newer build's page under an older cache's manifest)
    /// is read and hashed. Costs a `stat` otherwise, as the size alone did.
    func holds(_ path: String, size: Int, hash: UInt64) -> Bool {
        holds(path, file: fileState(path), size: size, hash: hash)
    }

    /// ``holds(_:size:hash:)`` of a file whose ``fileState(_:)`` is known.
    private func holds(_ path: String, file: (size: Int, changed: Int)?, size: Int, hash: UInt64) -> Bool {
        guard let file, file.size == size else { return false }
        if let writtenAt = previous.writtenAt, file.changed <= writtenAt { return true }
        verifications.increment()
        if size > FastHash.pieceSize {
            let descriptor = openForReading(path)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            return FileBytes.pieces(of: descriptor) { _ in }.map { $0.hash == hash && $0.size == size } ?? false
        }
        var buffer: [UInt8] = []
        return withContents(path, size: size, buffer: &buffer) { bytes in
            bytes.map { FastHash.contentHash(UnsafeRawBufferPointer($0)) == hash } ?? false
        }
    }

    /// How many output files changed after the previous manifest was written were read to
    /// tell whether they still hold what it records. A build that read any writes its manifest
    /// again, even if nothing else changed, so the next build need not read them again.
    var filesVerified: Int { verifications.count }

    /// The key to record for an output whose check found something (a warning: an error stops
    /// the build before the manifest is written): one no build computes, so the next build makes
    /// and checks it again and shows the finding again, as it does a cover's, and `--strict`
    /// fails on it again, instead of leaving the output in place with nothing said.
    static func keyShowingFindingsAgain(_ key: UInt64) -> UInt64 {
        FastHash.combine([key, 0x7761_726E_696E_6773])
    }

    /// What to do with freshly made bytes for an output.
    func outcome(_ path: String, key: UInt64, bytes: some Collection<UInt8>) -> Outcome {
        outcome(path, key: key, size: bytes.count, hash: FastHash.contentHash(bytes))
    }

    /// What to do with an output of `size` bytes whose ``FastHash/contentHash(_:)`` is `hash`.
    func outcome(_ path: String, key: UInt64, size: Int, hash: UInt64) -> Outcome {
        let entry = BuildManifest.Entry(inputKey: key, size: size, outputHash: hash)
        let old = previous.entries[path]
        if let old, old.outputHash == entry.outputHash, old.size == entry.size, holds(path, size: entry.size, hash: entry.outputHash) {
            return .unchanged(entry)
        }
        return .changed(entry, isNew: old == nil)
    }

    /// An output file's bytes now, or `nil` if there is none; with room for `spare` bytes more.
    func contents(_ path: String, spare: Int = 0) -> [UInt8]? {
        FileBytes.contents(of: root + "/" + path, spare: spare)
    }

    /// Reads the output file at `path`, expected to hold `size` bytes, into `buffer` (grown as
    /// needed, so one buffer serves a run of pages), and passes them to `body`; `nil` to `body`
    /// when the file cannot be opened or does not hold exactly `size` bytes.
    func withContents<Result>(_ path: String, size: Int, buffer: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        if buffer.count < size + 1 { buffer = [UInt8](repeating: 0, count: max(size + 1, buffer.count * 2)) }
        let descriptor = openForReading(path)
        guard descriptor >= 0 else { return body(nil) }
        defer { close(descriptor) }
        return buffer.withUnsafeMutableBufferPointer { buffer in
            // One byte more than expected, to tell a file that grew.
            let count = FileBytes.fill(UnsafeMutableBufferPointer(rebasing: buffer[...size]), from: descriptor)
            return body(count == size ? UnsafeBufferPointer(rebasing: buffer[..<size]) : nil)
        }
    }

    /// A descriptor of the output file at `path` opened for reading, or -1.
    private func openForReading(_ path: String) -> Int32 {
        folder.descriptor >= 0 ? openat(folder.descriptor, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) : open(root + "/" + path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    }

    /// The size of an output file now, and when it last changed (nanoseconds since 1970), or
    /// `nil` if there is none.
    func fileState(_ path: String) -> (size: Int, changed: Int)? {
        if let found = survey?.files[path] { return found.size < 0 ? nil : (found.size, found.changed) }
        var info = stat()
        let found = folder.descriptor >= 0 ? fstatat(folder.descriptor, path, &info, 0) : stat(root + "/" + path, &info)
        guard found == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int(info.st_size), Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec))
    }
}

/// The previous build's outputs as the output folder held them when a build began, each one's
/// size and change time, taken in the background while the archive is decoded.
///
/// A one-album edit of 10k albums leaves 10k pages in place, and the render step asks of each
/// whether its file is still there at its recorded size: a `stat` each, some 2.5 µs apiece on a
/// virtual machine, a fifth of the edit's work, on the cores the pages render on. Taken while
/// one core decodes the archive and the other has little to do, they are off the edit's path.
/// The output folder is locked for the build (``OutputLock``) before the manifest is read, so
/// only a hand edit in the few milliseconds between could be missed, as one made after the
/// render step's `stat` always could.
struct OutputSurvey: Sendable {
    /// What was found at one output path: the previous build's record of it, and a regular
    /// file's size and change time (nanoseconds since 1970), or a size of -1 for none.
    struct Found: Sendable {
        let entry: BuildManifest.Entry
        let size: Int
        let changed: Int
    }

    /// By output path, every output `previous` records.
    let files: [String: Found]

    /// Takes the survey of every output `previous` records under `root`, in chunks on the
    /// cooperative pool's threads.
    static func take(of previous: BuildManifest, root: String) async -> OutputSurvey {
        let ledger = OutputLedger(previous: previous, root: root)
        let paths = Array(previous.entries.keys)
        let chunks = (try? await Parallel.mapChunks(count: paths.count, chunkSize: 2048) { range in
            range.map { index in ledger.fileState(paths[index]) }
        }) ?? []
        let states = Array(chunks.joined())
        guard states.count == paths.count else { return OutputSurvey(files: [:]) }
        // `mapValues` keeps the records' table as it is, so no path is hashed again (a keyed
        // insert of each was a tenth of the survey). It visits them in the order `keys` gave
        // them; checked below, since only the positions tie each state to its path.
        var next = 0
        let files = previous.entries.mapValues { entry in
            defer { next += 1 }
            let state = states[next]
            return Found(entry: entry, size: state?.size ?? -1, changed: state?.changed ?? 0)
        }
        // Each key is the very string `keys` gave, so comparing them compares two words.
        if zip(files.keys, paths).allSatisfy(==) { return OutputSurvey(files: files) }
        var keyed: [String: Found] = [:]
        keyed.reserveCapacity(paths.count)
        for (path, state) in zip(paths, states) {
            guard let entry = previous.entries[path] else { continue }
            keyed[path] = Found(entry: entry, size: state?.size ?? -1, changed: state?.changed ?? 0)
        }
        return OutputSurvey(files: keyed)
    }
}

/// A count shared by the copies of a ledger, on whichever threads they run.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    func increment() {
        value.add(1, ordering: .relaxed)
    }

    var count: Int { value.load(ordering: .relaxed) }
}

/// A folder opened for `fstatat`, closed when the last copy of the ledger goes; a folder that
/// cannot be opened (there is none yet) gives descriptor -1.
private final class OpenFolder: Sendable {
    let descriptor: Int32

    init(_ path: String) {
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }
}
