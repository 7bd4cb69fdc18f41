internal import CLibXML2

// The byte comparisons the page checks make of libxml2's names and attribute values, without
// making strings of them.

/// Whether the NUL-terminated `cString` equals `name`, comparing bytes without allocating.
/// Inlined: the page check asks it a dozen times for each element it reads, and a literal's bytes
/// then become a few compares in place instead of a call and a loop.
@inline(__always)
func matches(_ cString: UnsafePointer<xmlChar>?, _ name: StaticString) -> Bool {
    guard let cString else { return false }
    return name.withUTF8Buffer { expected in
        for index in 0..<expected.count where cString[index] != expected[index] { return false }
        return cString[expected.count] == 0
    }
}

/// Whether a `class` attribute's value (UTF-8) lists `token` as one of its whitespace-separated
/// tokens.
func classList(_ value: UnsafeBufferPointer<UInt8>, contains token: StaticString) -> Bool {
    token.withUTF8Buffer { wanted in
        var start = 0
        while start < value.count {
            var end = start
            while end < value.count, !isXMLSpace(value[end]) { end += 1 }
            if end - start == wanted.count, value[start..<end].elementsEqual(wanted) { return true }
            start = end + 1
        }
        return false
    }
}

private func isXMLSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}
