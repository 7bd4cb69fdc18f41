import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A cache folder whose files sit in shard folders named by their hash's first characters
/// (`ab/abcdef…`): the thumbnail cache, and the cover cache's objects.
enum ShardedFolder {
    /// Removes every file in the shards of `folder` but those in `kept` (standardized paths), and
    /// the shard folders left empty; names that start with a dot (a write under way, perhaps of
    /// another build) are left.
    ///
    /// - Returns: How many files were removed.
    static func removeAll(in folder: String, but kept: Set<String>) -> Int {
        let fileManager = FileManager.default
        var removed = 0
        guard let shards = try? fileManager.contentsOfDirectory(atPath: folder) else { return 0 }
        for shard in shards where !shard.hasPrefix(".") {
            let shardPath = folder + "/" + shard
            guard let names = try? fileManager.contentsOfDirectory(atPath: shardPath) else { continue }
            for name in names where !name.hasPrefix(".") {
                let path = shardPath + "/" + name
                if !kept.contains(path), unlink(path) == 0 { removed += 1 }
            }
            rmdir(shardPath)
        }
        return removed
    }
}
