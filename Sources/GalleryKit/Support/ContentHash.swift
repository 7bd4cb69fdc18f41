import Crypto
import Foundation

/// SHA-256 content hashes as lowercase hex: for fingerprinted file names, the cover cache and the
/// build manifest.
public enum ContentHash {
    /// The full hex digest of bytes.
    public static func of(_ bytes: some DataProtocol) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// The full hex digest of a string's UTF-8 bytes.
    public static func of(_ text: String) -> String {
        of(Data(text.utf8))
    }

    /// The first `length` hex digits of the digest, for file names (`gallery.3fa2b1c0.css`).
    public static func short(_ bytes: some DataProtocol, length: Int = 10) -> String {
        String(of(bytes).prefix(length))
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var result = [UInt8]()
        result.reserveCapacity(64)
        for byte in digest {
            result.append(digits[Int(byte >> 4)])
            result.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: result, as: UTF8.self)
    }
}
