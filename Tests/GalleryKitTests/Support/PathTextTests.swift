import Foundation
import Testing

@testable import GalleryKit

@Suite struct PathTextTests {
    /// As `NSString.deletingLastPathComponent` answers, for the paths it answers without a trap.
    @Test func theParentIsFoundsAsFoundationFindsIt() {
        for path in ["x/y", "ab", "/ab", "/", "/ab/c", "ab/cd/", "x//y", "//x", "abc/d.txt", ""] {
            #expect(PathText.parent(of: path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
        // Where Foundation traps on Linux: one character, with or without a slash after it.
        #expect(PathText.parent(of: "a") == "")
        #expect(PathText.parent(of: "é") == "")
        #expect(PathText.parent(of: "a/") == "")
        #expect(PathText.parent(of: "a/b") == "a")
    }
}
