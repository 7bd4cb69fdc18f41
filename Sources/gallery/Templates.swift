import ArgumentParser
import Foundation
import GalleryKit

/// `gallery templates [NAME...]`: copies of the built-in templates in the site's `templates/`
/// folder, to start customising from.
struct Templates: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: "Write the built-in templates into the site's templates/ folder, to customise them.",
        discussion: """
        A file templates/NAME.mustache replaces the built-in template NAME, so copy only those \
        you mean to change: a copy you leave as it is no longer follows gallery's own updates. \
        --assets writes the built-in stylesheet and script into assets/ instead (assets/gallery.css \
        and assets/gallery.js replace the built-in ones, and keep their fingerprinted names). \
        Files that exist are left as they are, unless --force is given.
        """
    )

    @Argument(help: ArgumentHelp("The templates to write (default: all): \(BuiltinTemplates.names.joined(separator: ", ")).", valueName: "NAME"))
    var names: [String] = []

    @OptionGroup var siteOptions: SiteOptions

    @Flag(help: "Write the built-in version over a template file that exists (its changes are lost).")
    var force = false

    @Flag(help: "Write the built-in stylesheet and script (gallery.css, gallery.js) into assets/ instead.")
    var assets = false

    func validate() throws {
        if assets, !names.isEmpty { throw ValidationError("--assets writes gallery.css and gallery.js; name no template with it") }
        // Every wrong name at once, not the first of them.
        var reasons: [String] = []
        for name in names {
            do throws(BuiltinTemplates.Error) {
                _ = try BuiltinTemplates.name(for: name)
            } catch {
                reasons.append(error.reason)
            }
        }
        if !reasons.isEmpty { throw ValidationError(reasons.joined(separator: "\n")) }
    }

    func run() throws {
        let site = siteOptions.folder
        let store = Library(site: site).store
        // A folder that is not a site (a typo in --site, the wrong folder) gets no templates/.
        guard store.exists else {
            Diagnostic.print([store.missing])
            throw ExitCode.failure
        }
        let outcome: BuiltinTemplates.Outcome
        do throws(BuiltinTemplates.Error) {
            if assets {
                outcome = try BuiltinTemplates.writeAssets(into: site.assets, replacing: force)
            } else {
                var chosen: [String] = []
                for name in names { chosen.append(try BuiltinTemplates.name(for: name)) }
                outcome = try BuiltinTemplates.write(chosen, into: site.templates, replacing: force)
            }
        } catch {
            Diagnostic.print([.error(error.reason, path: error.path)])
            throw ExitCode.failure
        }
        let folder = site.display(assets ? site.assets : site.templates)
        for path in outcome.written { StandardStreams.output("wrote \(folder)/\(path)\n") }
        for path in outcome.kept { StandardStreams.output("kept \(folder)/\(path): it exists\n") }
        let noun = assets ? "file" : "template"
        let count = { (n: Int) in "\(n) \(noun)\(n == 1 ? "" : "s")" }
        var summary = outcome.written.isEmpty ? "Wrote no \(noun)" : "Wrote \(count(outcome.written.count)) into \(folder)/"
        if !outcome.kept.isEmpty {
            let kept = outcome.kept.map { $0.hasSuffix(".mustache") ? String($0.dropLast(".mustache".count)) : $0 }
            let siteFlag = siteOptions.site == "." ? "" : " --site \(shellWord(siteOptions.site))"
            let one = kept.count == 1
            summary += "; kept \(count(kept.count)) that exist\(one ? "s" : ""), as \(one ? "it" : "they") may hold your changes. "
                + "To replace \(one ? "it" : "them") with the built-in version: gallery templates \(assets ? "--assets" : kept.map(shellWord).joined(separator: " ")) --force\(siteFlag)"
        }
        StandardStreams.output(summary + "\n")
        if !outcome.written.isEmpty {
            StandardStreams.output("Each file replaces the built-in \(assets ? "one" : "template") of its name; delete those you do not change, so they follow gallery's updates.\n")
        }
    }
}
