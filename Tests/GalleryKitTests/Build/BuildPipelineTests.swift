import Foundation
import Testing

@testable import GalleryKit

/// The pipeline as steps in order: a step that throws stops the build, named with its place.
@Suite struct BuildPipelineTests {
    struct Broken: Error, CustomStringConvertible {
        var description: String { "No space left on device" }
    }

    @Test func aStepThatThrowsStopsTheBuildAndNamesWhereItFailed() async {
        let site = SiteFolder(root: URL(fileURLWithPath: "/tmp/gallery-pipeline-site", isDirectory: true))
        let output = URL(fileURLWithPath: "/tmp/gallery-pipeline-out", isDirectory: true)
        var ran: [String] = []
        for failing in ["load", "write"] {
            let steps = ["load", "render", "write"].map { name in
                BuildStep(name: name) { _, _ in if name == failing { throw Broken() } }
            }
            let state = await BuildPipeline(steps: steps).run(BuildOptions(site: site, output: output))
            #expect(!state.summary.succeeded)
            #expect(state.summary.failedStep == failing)
            // Writing fails on the output folder; other steps on the site.
            let place = failing == "write" ? output.path : site.root.path
            #expect(state.diagnostics.map(\.description) == ["\(place): error: step '\(failing)' failed: No space left on device"])
            ran.append(state.summary.timings.map(\.step).joined(separator: ","))
        }
        #expect(ran == ["load", "load,render,write"])
    }
}
