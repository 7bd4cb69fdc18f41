public extension String {
    /// The text as a message shows it: cut to its first 60 characters and `…` when it is longer
    /// than 80, so that a 50 MB value in an archive makes a line a terminal can show, not one
    /// of 50 MB.
    var clippedForMessage: String {
        var end = startIndex
        var count = 0
        while end < endIndex, count <= 80 {
            formIndex(after: &end)
            count += 1
        }
        return count > 80 ? String(prefix(60)) + "…" : self
    }
}
