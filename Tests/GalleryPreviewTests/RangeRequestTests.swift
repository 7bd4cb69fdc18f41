import GalleryPreview
import Testing

/// The corners of `Range` that a request over HTTP does not reach easily; the server's answers
/// are tested end to end in `ServeRangeTests`.
@Suite struct RangeRequestTests {
    let tag = "\"0123456789abcdef\""

    @Test func positionsTooLargeForAnIntAreAnywherePastTheEnd() {
        #expect(RangeRequest("bytes=99999999999999999999-", size: 10) == .unsatisfiable)
        #expect(RangeRequest("bytes=2-99999999999999999999", size: 10) == .part(2...9))
        #expect(RangeRequest("bytes=-99999999999999999999", size: 10) == .part(0...9))
        #expect(RangeRequest("bytes=\(Int.max)-\(Int.max)", size: 10) == .unsatisfiable)
    }

    @Test func anEmptyFileHasNoPartToSend() {
        #expect(RangeRequest("bytes=0-", size: 0) == .unsatisfiable)
        #expect(RangeRequest("bytes=-1", size: 0) == .whole)
        #expect(RangeRequest("bytes=-0", size: 0) == .unsatisfiable)
    }

    @Test func twoRangeFieldsOrAnIfRangeThatIsNotTheTagGetTheWholeFile() {
        #expect(RangeRequest(range: ["bytes=0-1"], ifRange: [], size: 10, tag: tag) == .part(0...1))
        #expect(RangeRequest(range: ["bytes=0-1"], ifRange: [tag], size: 10, tag: tag) == .part(0...1))
        #expect(RangeRequest(range: ["bytes=0-1", "bytes=4-5"], ifRange: [], size: 10, tag: tag) == .whole)
        #expect(RangeRequest(range: ["bytes=0-1"], ifRange: [tag, tag], size: 10, tag: tag) == .whole)
        #expect(RangeRequest(range: ["bytes=0-1"], ifRange: ["W/" + tag], size: 10, tag: tag) == .whole)
        #expect(RangeRequest(range: [], ifRange: [tag], size: 10, tag: tag) == .whole)
    }
}
