import Testing
@testable import GalleryPreview

@Suite struct RequestOriginTests {
    @Test func aLoopbackPreviewAnswersLoopbackNamesOnly() {
        let rule = RequestOrigin(loopbackOnly: true)
        for host in ["localhost", "localhost:1313", "LocalHost.:1313", "a.localhost", "127.0.0.1:1313", "127.1.2.3", "[::1]:1313", "[::1]"] {
            #expect(rule.allows(host: host), "\(host)")
        }
        for host in ["example.com", "127.0.0.1.example.com", "localhost.example.com", "10.0.0.1:1313", "[::2]:1313", "127.0.0.256", ""] {
            #expect(!rule.allows(host: host), "\(host)")
        }
        #expect(rule.allows(host: nil), "HTTP/1.0 sends no Host")
    }

    @Test func aPreviewExposedOnPurposeAnswersAnyName() {
        let rule = RequestOrigin(loopbackOnly: false)
        #expect(rule.allows(host: "shop-laptop.local:1313"))
        #expect(rule.allowsSocket(origin: "http://shop-laptop.local:1313", host: "shop-laptop.local:1313"))
        #expect(!rule.allowsSocket(origin: "http://attacker.example", host: "shop-laptop.local:1313"), "still only its own pages")
    }

    @Test func theSocketOpensForItsOwnPagesOnly() {
        let rule = RequestOrigin(loopbackOnly: true)
        #expect(rule.allowsSocket(origin: nil, host: "127.0.0.1:1313"))
        #expect(rule.allowsSocket(origin: "http://127.0.0.1:1313", host: "127.0.0.1:1313"))
        #expect(rule.allowsSocket(origin: "http://[::1]:1313", host: "[::1]:1313"))
        #expect(!rule.allowsSocket(origin: "http://localhost:1313", host: "127.0.0.1:1313"), "another origin, though the same machine")
        #expect(!rule.allowsSocket(origin: "http://127.0.0.1:1314", host: "127.0.0.1:1313"))
        #expect(!rule.allowsSocket(origin: "null", host: "127.0.0.1:1313"))
        #expect(!rule.allowsSocket(origin: "http://127.0.0.1:1313", host: "evil.example:1313"))
    }
}
