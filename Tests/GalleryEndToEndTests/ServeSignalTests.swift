import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `gallery serve` told to stop more than once.
@Suite(.serialized) struct ServeSignalTests {
    /// GNU `timeout`, and a supervisor that signals a process and its group, send the signal
    /// twice: an idle server took the second for a second Ctrl-C, said it stopped "without
    /// waiting for the rebuild under way" when none was, and exited with 130. With no rebuild
    /// to cut short, it stops as for one signal. (A connection that sent nothing holds the stop
    /// open for a while, so the second signal surely comes during it: two sent at once are often
    /// taken by the kernel as one.)
    @Test(arguments: [SIGTERM, SIGINT])
    func aSecondSignalWhileIdleStopsItAsOneDoes(_ signal: Int32) async throws {
        let folder = try Fixture.site([Fixture.album("Blue", "Joni Mitchell", year: 1971)])
        let server = try await ServeProcess(in: folder.url)
        let idle = try RawHTTPConnection(port: server.port)
        server.signal(signal)
        try await Task.sleep(for: .milliseconds(300))
        server.signal(signal)
        #expect(await server.waitForExit(timeout: 15) == 0, "\(server.stderr.value)")
        #expect(server.stderr.value.contains("serve: stopping\n"), "\(server.stderr.value)")
        #expect(!server.stderr.value.contains("rebuild"), "\(server.stderr.value)")
        withExtendedLifetime(idle) {}
    }
}
