/// "Did you mean …?" for a name that is not known: template values and partials, `gallery.toml`
/// keys, the archive's top-level keys, commands.
public enum Spelling {
    /// The candidate closest to `word` by edit distance, if it is close enough to be a slip
    /// (at most a third of the letters of the word's last path component, and at least one).
    public static func nearest(_ word: String, among candidates: Set<String>) -> String? {
        let limit = max(1, (word.split(separator: "/").last ?? Substring(word)).count / 3)
        // Lengths that differ by more than the limit are more edits apart than it: a key of
        // 3 MB (a hand-made archive) took 12 s and 530 MB to be compared letter by letter.
        let length = word.count
        let scored = candidates.filter { abs($0.count - length) <= limit }.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= limit }
        return scored.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }

    /// The edit distance between two strings, by characters: insertions, deletions,
    /// substitutions and swaps of two neighbours (`titel` is one edit from `title`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
