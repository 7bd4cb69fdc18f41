import Foundation
import PackagePlugin

/// Embeds the built-in templates, assets, schemas and starter site into GalleryKit, so the
/// `gallery` binary works from any directory without a resource bundle beside it.
@main
struct EmbedResources: BuildToolPlugin {
    /// Folders at the package root whose files travel inside the binary.
    static let folders = ["templates", "assets", "schemas", "content"]
    /// Single files at the package root that travel too (the starter site's settings).
    static let files = ["gallery.toml"]

    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        let root = context.package.directoryURL
        var inputs: [URL] = []
        let fileManager = FileManager.default
        for folder in Self.folders {
            let base = root.appending(path: folder)
            guard let walker = fileManager.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in walker {
                let values = try url.resourceValues(forKeys: [.isRegularFileKey])
                if values.isRegularFile == true { inputs.append(url) }
            }
        }
        for file in Self.files where fileManager.fileExists(atPath: root.appending(path: file).path) {
            inputs.append(root.appending(path: file))
        }
        inputs.sort { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) built-in resources",
                executable: try context.tool(named: "embed-resources").url,
                arguments: [root.path, output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
