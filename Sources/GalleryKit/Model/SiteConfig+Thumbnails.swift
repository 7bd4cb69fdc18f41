import TOMLKit

extension TOMLReader {
    /// Reads the `[thumbnails]` section: `format`, `quality`, `fit`, `large`, `max_pixels`.
    mutating func readThumbnails(_ section: TOMLTable, into thumbnails: inout SiteConfig.Thumbnails) {
        let name = "thumbnails"
        read(section, section: name) { reader, key, value in
            switch key {
            case "format":
                guard let format = reader.choice(value, key: key, section: name, of: ThumbnailFormat.self) else { break }
                if format.isSupported {
                    thumbnails.format = format
                } else {
                    let message = "[\(name)] \(key) is \"\(format.rawValue)\", but this libvips cannot write it (it needs libvips's heif module and libheif with an AV1 encoder); use \"webp\""
                    reader.error(message, key: key, section: name)
                }
            case "fit": reader.choice(value, key: key, section: name, of: ThumbnailFit.self).map { thumbnails.fit = $0 }
            case "quality": reader.int(value, key: key, section: name, in: 1...100).map { thumbnails.quality = $0 }
            case "large": reader.int(value, key: key, section: name, in: 16...4096).map { thumbnails.large = $0 }
            case "max_pixels": reader.int(value, key: key, section: name, in: 1...1_000_000_000).map { thumbnails.maxPixels = $0 }
            default: return false
            }
            return true
        }
    }

    /// A string that must be one of an enumeration's raw values; an error lists the allowed ones.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: any TOMLValueConvertible, key: String, section: String, of type: Choice.Type
    ) -> Choice? where Choice.RawValue == String {
        guard let text = string(value, key: key, section: section) else { return nil }
        if let choice = Choice(rawValue: text) { return choice }
        let allowed = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        error("[\(section)] \(key) is \"\(text)\"; it must be \(allowed)", key: key, section: section)
        return nil
    }
}
