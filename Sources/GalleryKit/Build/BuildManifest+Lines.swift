/// The manifest's entry lines: written in path order from the entries, or, after an edit, made
/// from the lines the previous file held with the few that changed written again.
extension BuildManifest {
    /// The entry lines of the file a manifest was read from, one for each of its
    /// ``sortedPaths``, exactly as ``entryLines()`` writes them: kept by ``parse(_:)`` only
    /// when every line is. A hint, not part of what the manifest says (`==` ignores it).
    struct ReadLines: Sendable {
        /// The file's bytes.
        let bytes: [UInt8]
        /// Where each sorted path's line starts in `bytes`, and, last, where the lines end.
        let starts: [Int]

        /// Whether the line from `start` to `end` (its line feed included) is the one
        /// ``entryLines()`` writes for the entry of `size` whose path is `pathLength` bytes long:
        /// sixteen hex digits, the size without leading zeros, sixteen hex digits and the path.
        /// (The fields parsed, and what each may hold, were checked as they were read.)
        static func isAsWritten(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, size: Int, pathLength: Int) -> Bool {
            var digits = 1
            var rest = size / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            let sizeEnd = start + 17 + digits
            return end - start == 16 + 1 + digits + 1 + 16 + 1 + pathLength + 1
                && buffer[start + 16] == 0x09 && buffer[sizeEnd] == 0x09
        }
    }

    /// The paths of `entries` sorted by `<`, each once: a ``sortedPaths`` for a manifest of them.
    static func sortedUniquePaths(of entries: [(path: String, entry: Entry)]) -> [String] {
        var paths = entries.map(\.path)
        paths.sort()
        var unique: [String] = []
        unique.reserveCapacity(paths.count)
        for path in paths where unique.last != path { unique.append(path) }
        return unique
    }

    /// The entries in path order: in ``sortedPaths``' when it names exactly these paths.
    func sortedEntries() -> [(key: String, value: Entry)] {
        if sortedPaths.count == entries.count {
            var inOrder: [(key: String, value: Entry)] = []
            inOrder.reserveCapacity(entries.count)
            for path in sortedPaths {
                guard let entry = entries[path] else { break }
                inOrder.append((path, entry))
            }
            if inOrder.count == entries.count { return inOrder }
        }
        return entries.sorted { $0.key < $1.key }
    }

    func entryLines() -> EntryLines {
        var lines = ByteWriter(capacity: entries.count * 80)
        var everyPathKept = true
        for (path, entry) in sortedEntries() {
            guard !Self.hasLineFeed(path) else {
                everyPathKept = false
                continue
            }
            Self.writeLine(path, entry, to: &lines)
        }
        return EntryLines(bytes: lines.bytes, everyPathKept: everyPathKept)
    }

    /// The ``entryLines()`` of a manifest whose entries are this one's with `changes` made (each
    /// path among them already): the lines read, with those of the changes written again. At
    /// 10k albums an edit changes some 35 of 10,000 lines, and writing them all from the entries
    /// (a lookup and four fields each) was a thirtieth of the edit. `nil` when the lines read
    /// were not kept or a change's path is not among them.
    func entryLines(changedBy changes: [(path: String, entry: Entry)]) -> EntryLines? {
        guard let read = readLines, read.starts.count == sortedPaths.count + 1, sortedPaths.count == entries.count else { return nil }
        var changed: [(line: Int, entry: Entry)] = []
        changed.reserveCapacity(changes.count)
        for (path, entry) in changes {
            guard let line = sortedPaths.sortedIndex(of: path) else { return nil }
            changed.append((line, entry))
        }
        // In line order; of a path changed twice, the later change (stable sort, last wins).
        changed = changed.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
        var lines = ByteWriter(capacity: read.starts[read.starts.count - 1] - read.starts[0] + changes.count * 40)
        var copied = read.starts[0]
        for (number, change) in changed.enumerated() {
            if number + 1 < changed.count, changed[number + 1].line == change.line { continue }
            lines.write(bytes: read.bytes[copied..<read.starts[change.line]])
            Self.writeLine(sortedPaths[change.line], change.entry, to: &lines)
            copied = read.starts[change.line + 1]
        }
        lines.write(bytes: read.bytes[copied..<read.starts[read.starts.count - 1]])
        return EntryLines(bytes: lines.bytes, everyPathKept: true)
    }

    /// One entry's line: `KEY\tSIZE\tHASH\tPATH\n`.
    private static func writeLine(_ path: String, _ entry: Entry, to lines: inout ByteWriter) {
        lines.writeHex16(entry.inputKey)
        lines.write("\t")
        lines.write(entry.size)
        lines.write("\t")
        lines.writeHex16(entry.outputHash)
        lines.write("\t")
        lines.write(path)
        lines.write("\n")
    }
}

extension [String] {
    /// Where `element` is in this array sorted by `<`, by halving; `nil` if it is not there.
    func sortedIndex(of element: String) -> Int? {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < element { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == element ? low : nil
    }
}
