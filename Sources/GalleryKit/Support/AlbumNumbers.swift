/// Album numbers as people read them, for findings about many albums at once.
enum AlbumNumbers {
    /// The 1-based numbers of albums at sorted 0-based `indices`, as ranges: `3, 9, 12–14`.
    static func ranges(_ indices: [Int]) -> String {
        guard var start = indices.first else { return "" }
        var end = start
        var parts: [String] = []
        func close() { parts.append(start == end ? "\(start + 1)" : "\(start + 1)–\(end + 1)") }
        for index in indices.dropFirst() {
            if index == end + 1 { end = index; continue }
            close()
            start = index
            end = index
        }
        close()
        return parts.joined(separator: ", ")
    }
}
