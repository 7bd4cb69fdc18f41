/// `text` as one word of a shell command the user may copy: as it is when it holds only
/// letters, digits and `-_./:~+`, else in single quotes (a quote inside as `'\''`).
func shellWord(_ text: String) -> String {
    if !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:~+".contains($0) }) { return text }
    return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
