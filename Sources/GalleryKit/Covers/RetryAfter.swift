import Foundation

/// Reads a `Retry-After` header: a number of seconds (`120`) or an HTTP date
/// (`Wed, 21 Oct 2015 07:28:00 GMT`).
enum RetryAfter {
    /// How long the server asks us to wait, or `nil` if the value is neither form. A date in the
    /// past means no wait.
    static func delay(from value: String, now: Date = .now) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) {
            return seconds >= 0 ? .seconds(seconds) : nil
        }
        // More seconds than an Int holds (`999999999999999999999999`): longer than any wait,
        // which the fetcher takes at its word, rather than no header at all (retried at once).
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return .seconds(Int.max)
        }
        guard let date = httpDate(text) else { return nil }
        return .seconds(max(0, date.timeIntervalSince(now)))
    }

    /// Parses the IMF-fixdate form of HTTP dates and the two obsolete forms RFC 9110 asks
    /// recipients to accept (RFC 850 and asctime).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
