extension BuildStep {
    /// Errors for the files of `static/` that would take the place of something gallery makes
    /// (`made`: the pages and generated files; and every file of `state.files`): a file of the
    /// same path, a folder gallery writes into (`static/albums`, a file), or a second spelling
    /// in Unicode of another static file's name.
    static func reportStaticFilesInTheWay(_ staticPaths: [String], made: Set<String>, state: inout BuildState, observer: some BuildObserving) {
        // A static file may add to the site, never replace what gallery makes.
        var uses: [String: Int] = [:]
        for file in state.files { uses[file.path, default: 0] += 1 }
        let site = state.options.site
        // Static files whose names are one text in Unicode (`é` as one character, or as `e`
        // and an accent) but not one run of bytes: Swift's `String` counts them as one path.
        var spellings: [String: [String]] = [:]
        for path in staticPaths { spellings[path, default: []].append(path) }
        for path in staticPaths where made.contains(path) || uses[path, default: 0] > 1 {
            if let twins = spellings[path], twins.count > 1, !made.contains(path), uses[path, default: 0] == twins.count {
                // Once, by the first spelling.
                guard path.utf8.elementsEqual(twins[0].utf8) else { continue }
                let names = twins.map { "'\($0.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined())'" }.joined(separator: " and ")
                state.report(.error(
                    "\(names) are one name written in two ways in Unicode (an accented letter as one character, or as a letter and a combining accent): they look alike, macOS takes them for one file, and a link to one may reach the other; rename or remove all but one",
                    path: site.display(site.staticFolder.appending(path: path))
                ), to: observer)
                continue
            }
            // A page of its own is made with the page's template, as in Hugo's layouts/.
            let template = path == "404.html" ? "404" : path == "index.html" || path.hasPrefix("page/") ? "index" : path.hasPrefix("albums/") ? "album" : nil
            let instead = template.map { "; to make this page your own, write templates/\($0).mustache (gallery templates \($0) gives the built-in one to start from)" } ?? ""
            state.report(.error(
                "gallery writes \(path) itself, so this file would replace it; rename or remove it\(instead)",
                path: site.display(site.staticFolder.appending(path: path))
            ), to: observer)
        }
        // A static file with the name of a folder gallery writes into (`static/albums`, a
        // file): it failed the write step with "Is a directory", naming neither.
        var madeFolders = Set((made.map { $0 } + state.files.map(\.path)).compactMap { path in path.firstIndex(of: "/").map { String(path[..<$0]) } })
        for path in made where path.hasSuffix("/index.html") { madeFolders.insert(String(path.dropLast("/index.html".count))) }
        for path in staticPaths where madeFolders.contains(path) {
            state.report(.error(
                "gallery writes pages or files into a folder named \(path)/, so this file cannot take its name; rename or remove it",
                path: site.display(site.staticFolder.appending(path: path))
            ), to: observer)
        }
    }
}
