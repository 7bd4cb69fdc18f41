import Foundation
import Testing

@testable import GalleryKit

/// Large files (a video in `static/`) are hashed and copied a mebibyte at a time; the hash read
/// piece by piece must be the one recorded for the same bytes in memory, or every build would
/// copy such a file again, or keep a changed one.
@Suite struct PieceCopyTests {
    let folder: URL = FileManager.default.temporaryDirectory.appending(path: "gallery-pieces-\(UUID().uuidString)", directoryHint: .isDirectory)

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Bytes that differ from piece to piece and within each, so a piece out of place shows.
    static func bytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    func file(_ bytes: [UInt8], _ name: String = "source") throws -> URL {
        let url = folder.appending(path: name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test(arguments: [0, 1, FastHash.pieceSize - 1, FastHash.pieceSize, FastHash.pieceSize + 1, 2 * FastHash.pieceSize, 3 * FastHash.pieceSize + 7])
    func aFileHashesTheSameInPiecesAsWhole(size: Int) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Self.bytes(size)
        let url = try file(bytes)
        let descriptor = open(url.path, O_RDONLY)
        defer { close(descriptor) }
        var pieces: [Int] = []
        let read = try #require(FileBytes.pieces(of: descriptor) { pieces.append($0.count) })
        #expect(read.size == size)
        #expect(read.hash == FastHash.contentHash(bytes))
        #expect(pieces.allSatisfy { $0 <= FastHash.pieceSize } && pieces.reduce(0, +) == size, "\(pieces)")
        // Up to a piece (every page) it is the plain hash, so manifests of earlier builds hold.
        if size <= FastHash.pieceSize {
            #expect(read.hash == FastHash.hash(bytes))
        }
    }

    @Test func aChangeInAnyPieceOrTheLengthChangesTheHash() {
        let bytes = Self.bytes(2 * FastHash.pieceSize + 100)
        var later = bytes
        later[FastHash.pieceSize + 5] ^= 1
        var last = bytes
        last[last.count - 1] ^= 0x80
        let hashes = [bytes, later, last, Array(bytes.dropLast()), bytes + [0]].map { FastHash.contentHash($0) }
        #expect(Set(hashes).count == hashes.count)
    }

    @Test func aCopyHoldsTheSameBytes() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Self.bytes(2 * FastHash.pieceSize + 12_345, seed: 7)
        let source = try file(bytes)
        let target = folder.appending(path: "copy")
        try Data("longer than nothing, shorter than the copy".utf8).write(to: target)
        try AtomicFile.copyInPlace(from: source.path, to: target.path, expecting: FastHash.contentHash(bytes))
        #expect(try Data(contentsOf: target) == Data(bytes))
    }

    @Test func aSourceThatChangedSinceItWasHashedIsNamed() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Self.bytes(FastHash.pieceSize + 1)
        let recorded = FastHash.contentHash(bytes)
        var changed = bytes
        changed[3] ^= 1
        let source = try file(changed)
        let error = #expect(throws: AtomicFile.WriteError.self) {
            try AtomicFile.copyInPlace(from: source.path, to: folder.appending(path: "copy").path, expecting: recorded)
        }
        #expect(error?.path == source.path)
        #expect(error?.reason.contains("it changed while the build copied it") == true, "\(String(describing: error))")
        // A write that fails (a full disk) is named by the copy's path and its reason.
        let full = #expect(throws: AtomicFile.WriteError.self) {
            try AtomicFile.copyInPlace(from: source.path, to: "/dev/full")
        }
        #expect(full?.path == "/dev/full" && full?.reason == String(cString: strerror(ENOSPC)), "\(String(describing: full))")
        let missing = #expect(throws: AtomicFile.WriteError.self) {
            try AtomicFile.copyInPlace(from: folder.appending(path: "none").path, to: folder.appending(path: "copy").path)
        }
        #expect(missing?.path.hasSuffix("/none") == true)
    }
}
