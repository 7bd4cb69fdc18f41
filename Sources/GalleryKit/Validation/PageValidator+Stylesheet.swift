extension PageValidator {
    /// Checks that every URL a style sheet names (`url(…)`, `@import`) lands on a file of the
    /// output, as the pages' links must: a background image or a font that is not there fails
    /// the build, at the line and column of its `url(`.
    ///
    /// URLs in a style sheet are relative to the style sheet, not to the page that uses it; a
    /// path that is missing from there but names a file from the site's root gets the path to
    /// write. A bare `url(#id)` names an element of the page using the sheet, so it is not checked.
    ///
    /// - Parameter path: The style sheet's path relative to the output root (where its
    ///   references resolve from); diagnostics name it.
    public func validateStylesheet(_ bytes: [UInt8], path: String) -> [Diagnostic] {
        let resolver = resolver(for: path)
        return bytes.withUnsafeBufferPointer { css in
            StylesheetURLs.all(in: css).compactMap { url, offset in
                let reference = String(decoding: url, as: UTF8.self)
                let outcome = url.withUnsafeBufferPointer { resolver.resolve($0) }
                guard var problem = outcome.problem(subject: "url('\(reference)')", reference: reference, basePath: basePath) else { return nil }
                if case .missing = outcome { problem += "; " + advice(for: reference, in: path) }
                return .error(problem, path: path, at: TemplateAttribution.position(ofByte: offset, in: css))
            }
        }
    }

    /// What to do about a URL of the style sheet at `path` that names no file: the path to write
    /// when the URL was written as if from the page at the site's root, else where files go.
    private func advice(for reference: String, in path: String) -> String {
        let depth = path.split(separator: "/").count - 1
        if depth > 0, !reference.hasPrefix("/"), case .found(let file) = resolver(for: "index.html").resolve(reference) {
            let written = String(repeating: "../", count: depth) + file
            return "URLs in a style sheet are relative to the style sheet, not to the page: write '\(written)'"
        }
        return "put the file in assets/ (or static/), or correct the path, which is relative to the style sheet"
    }
}
