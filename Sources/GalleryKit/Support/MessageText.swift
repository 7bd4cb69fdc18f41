public extension String {
    /// The text as a message shows it: cut to its first 60 characters and `…` when it is longer
    /// than 80, so that a 50 MB value in an archive makes a line a terminal can show, not one
    /// of 50 MB. A character may hold any number of combining marks (`e` and two million
    /// accents is one character, and was a message of 4 MB), so the cut also keeps at most 240
    /// of the text's Unicode scalars, once it has more than 320.
    var clippedForMessage: String {
        var end = startIndex
        var count = 0
        while end < endIndex, count <= 80 {
            formIndex(after: &end)
            count += 1
        }
        let manyScalars = unicodeScalars.prefix(321).count > 320
        guard count > 80 || manyScalars else { return self }
        let head = prefix(60).unicodeScalars.prefix(240)
        return String(String.UnicodeScalarView(head)) + "…"
    }
}
