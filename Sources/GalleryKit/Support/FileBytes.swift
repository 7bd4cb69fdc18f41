import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads whole files straight into byte arrays: `Data(contentsOf:)` and then `Array(data)` copy
/// every byte twice, and a rebuild of 10k albums reads some 8 MB (the archive, the manifest, and
/// the strip and the data file it splices).
enum FileBytes {
    /// The bytes of the regular file at `path`, or `nil` if it cannot be read or is not one
    /// (a folder, a device, a named pipe: opened without waiting for a writer, as a plain open
    /// of a pipe would wait for good).
    static func contents(of path: String) -> [UInt8]? {
        contents(of: path, upTo: nil)
    }

    /// The bytes as ``contents(of:)`` gives them, in an array with room for `spare` bytes more
    /// (for a file that is to be changed in place).
    static func contents(of path: String, spare: Int) -> [UInt8]? {
        contents(of: path, upTo: nil, spare: spare)
    }

    /// At most the first `limit` bytes of the regular file at `path` (all of it for `nil`), or
    /// `nil` as ``contents(of:)`` gives it.
    static func contents(of path: String, upTo limit: Int?, spare: Int = 0) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return contents(of: descriptor, size: Int(info.st_size), upTo: limit, spare: spare)
    }

    /// The bytes of the regular file open at `descriptor`, which held `size` bytes when it was
    /// looked at (all of them, should it have grown since, unless `limit` is given), or `nil`
    /// on a read error; in an array with room for `spare` bytes more.
    static func contents(of descriptor: Int32, size: Int, upTo limit: Int? = nil, spare: Int = 0) -> [UInt8]? {
        let size = min(size, limit ?? .max)
        var failed = false
        var bytes = [UInt8](unsafeUninitializedCapacity: size + spare) { buffer, count in
            let got = fill(UnsafeMutableBufferPointer(rebasing: buffer[..<size]), from: descriptor)
            failed = got == nil
            count = got ?? 0
        }
        guard !failed else { return nil }
        if limit != nil { return bytes }
        // A file that grew while it was read: the rest too.
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got > 0 {
                bytes += chunk[..<got]
            } else if got < 0, errno == EINTR {
                continue
            } else {
                if got < 0 { return nil }
                break
            }
        }
        return bytes
    }

    /// Reads from `descriptor` until `buffer` is full or the file ends: how many bytes it read,
    /// or `nil` on an error.
    static func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>, from descriptor: Int32) -> Int? {
        var count = 0
        while count < buffer.count {
            let got = read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            if got > 0 {
                count += got
            } else if got < 0, errno == EINTR {
                continue
            } else {
                return got < 0 ? nil : count
            }
        }
        return count
    }

    /// Reads the file open at `descriptor` to its end in pieces of ``FastHash/pieceSize`` bytes,
    /// one buffer for all, and hands each piece to `body` (which may write it elsewhere): the
    /// file's ``FastHash/contentHash(_:)`` and size, or `nil` on a read error. A file of any
    /// size costs a mebibyte of memory.
    static func pieces(of descriptor: Int32, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows -> (hash: UInt64, size: Int)? {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: FastHash.pieceSize)
        defer { buffer.deallocate() }
        var hasher = FastHash.PieceHasher()
        var size = 0
        while true {
            guard let got = fill(buffer, from: descriptor) else { return nil }
            // A file that ends at a piece's end has no empty piece after it.
            if got == 0, size > 0 { break }
            let piece = UnsafeRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[..<got]))
            hasher.add(piece)
            try body(piece)
            size += got
            if got < buffer.count { break }
        }
        return (hasher.value, size)
    }
}
