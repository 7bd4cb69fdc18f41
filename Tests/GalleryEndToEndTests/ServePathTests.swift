import Foundation
import Testing

/// Request paths `gallery serve` cannot read.
@Suite(.serialized) struct ServePathTests {
    /// A `%` not followed by two hexadecimal digits (a static file named `100%.txt`, asked for
    /// by a client that did not encode it) got `403 Forbidden: this path is outside the site`,
    /// which it is not. It is the request's mistake: a 400 that says what is wrong.
    @Test func aBadPercentEscapeIsABadRequestThatSaysSo() async throws {
        let folder = try Fixture.site([Fixture.album("Blue", "Joni Mitchell", year: 1971)])
        try folder.write("full", to: "static/100%.txt")
        let server = try await ServeProcess(in: folder.url)
        for path in ["/100%.txt", "/%zz", "/albums/%e", "/%"] {
            let response = try await RawResponse.get(path, port: server.port)
            #expect(response.status == 400, "\(path) gave \(response.status)")
            #expect(response.body.contains("bad percent-escape in the path"), "\(path): \(response.body)")
        }
        let encoded = try await RawResponse.get("/100%25.txt", port: server.port)
        #expect(encoded.status == 200)
        #expect(encoded.body == "full")
        #expect(try await RawResponse.get("/%2e%2e/secret.txt", port: server.port).status == 403)
    }
}
