import Foundation
import GalleryKit
import Hummingbird
import NIOCore

#if canImport(Glibc)
import Glibc
#endif

/// A file too large to read whole for each request (a video or an album's audio in `static/`),
/// open to be sent a piece at a time.
///
/// A browser asks for such a file in many small ranges as it plays and seeks, and each answer
/// used to read the whole file and hash it for its ETag: 2 s and 1.8 GB of memory for 1 KB of an
/// 800 MB video, with every other request waiting meanwhile. So its ETag is made from what the
/// file system says of it instead of its bytes, and only the bytes asked for are read, in pieces
/// of ``pieceSize``, as the connection takes them.
///
/// The file is held open from the moment its ETag is taken until the answer is sent, so a file
/// replaced meanwhile (a rebuild renames a new copy over it) is still sent as the old one, whole
/// and matching its ETag and size. It is closed when the answer no longer needs it, sent or not.
final class LargeFile: Sendable {
    /// Files above this size are sent this way; smaller ones, read whole, keep an ETag of their
    /// bytes. The build hashes files in pieces of this size too (``FastHash/pieceSize``).
    static let threshold = FastHash.pieceSize

    /// How much is read at once: what Hummingbird's own file server reads.
    static let pieceSize = 128 * 1024

    private let descriptor: Int32
    /// This file's reads, in order. A queue made with a label is given a thread when every one
    /// of the shared pool's is busy; `.global()`'s are those the server's and a rebuild's tasks
    /// run on, and a read would wait there while a rebuild renders.
    private let reading = DispatchQueue(label: "gallery.large-file")
    /// Its size in bytes.
    let size: Int
    /// A strong ETag of its identity: size, modification and change times (to the nanosecond)
    /// and inode, which any write or replacement changes.
    let tag: String

    /// The regular file at `path`, open, if it is larger than ``threshold``; `nil` for a smaller
    /// one, which is read whole, and for one that cannot be opened (reading it whole says why).
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) > Self.threshold else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        size = Int(info.st_size)
        let identity = [
            "\(info.st_size)",
            "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)",
            "\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)",
            "\(info.st_dev):\(info.st_ino)",
        ].joined(separator: " ")
        tag = "\"" + FastHash.hash(identity).hex16 + "\""
    }

    deinit {
        close(descriptor)
    }

    /// A body of the bytes in `range`, read as the connection takes them; the file stays open as
    /// long as the body is kept.
    func body(_ range: Range<Int>) -> ResponseBody {
        ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            while offset < range.upperBound {
                let piece = try await self.read(min(Self.pieceSize, range.upperBound - offset), at: offset)
                try await writer.write(piece)
                offset += piece.readableBytes
            }
            try await writer.finish(nil)
        }
    }

    /// Reads `count` bytes from `offset` on a thread of its own: a read from a slow disk, or one
    /// that is asleep, must not hold one of the few threads every request is answered on.
    private func read(_ count: Int, at offset: Int) async throws -> ByteBuffer {
        try await withCheckedThrowingContinuation { continuation in
            reading.async {
                continuation.resume(with: Result { try self.readNow(count, at: offset) })
            }
        }
    }

    /// Reads `count` bytes from `offset`. A file that ends before them (cut short while it is
    /// sent) is an error, which ends the connection rather than send fewer bytes than announced.
    private func readNow(_ count: Int, at offset: Int) throws -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pointer in
            var done = 0
            while done < count {
                let got = pread(descriptor, pointer.baseAddress! + done, count - done, off_t(offset + done))
                if got > 0 {
                    done += got
                } else if got < 0, errno == EINTR {
                    continue
                } else {
                    throw CocoaError(.fileReadUnknown)
                }
            }
            return done
        }
        return buffer
    }
}
