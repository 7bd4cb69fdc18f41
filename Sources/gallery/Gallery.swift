import ArgumentParser
import GalleryKit

@main
struct Gallery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "A static site generator for album galleries.",
        version: GalleryVersion.current,
        subcommands: [Build.self, Serve.self, Check.self, Init.self, Templates.self, List.self, Add.self, Edit.self, Delete.self, Undo.self, Redo.self, Import.self, Env.self]
    )
}
