import Foundation
import Testing

@testable import GalleryKit

/// Where a build may write: not the system's own folders, at any depth, nor the folders one level
/// down in those that also hold web roots and homes; their deeper folders (a web server's root)
/// and the user's own project folders may.
@Suite struct SiteFolderTests {
    @Test(arguments: [
        ("/usr/share", "/usr/share"), ("/usr/bin", "/usr/bin"), ("/usr/local/bin", "/usr/local/bin"),
        ("/etc/ssl", "/etc"), ("/etc/nginx/sites", "/etc"), ("/bin/x", "/bin"), ("/lib/modules", "/lib"),
        ("/var/lib", "/var/lib"), ("/var/log", "/var/log"), ("/home/ada", "/home/ada"), ("/proc/1", "/proc"),
        ("/dev/shm", "/dev"), ("/dev/null", "/dev"), ("/run/user/1000", "/run/user/1000"), ("/run/lock/x", "/run"),
        ("/run/media/alice", "/run/media/alice"), ("/var/cache", "/var/cache"), ("/usr/local/share", "/usr/local/share"),
        // Programs and libraries at any depth (/lib is /usr/lib where /usr is merged), and the
        // package managers' records.
        ("/usr/lib/x86_64-linux-gnu", "/usr/lib"), ("/usr/bin/x", "/usr/bin"), ("/usr/local/lib/python3/x", "/usr/local/lib"),
        ("/var/lib/dpkg", "/var/lib/dpkg"), ("/var/lib/apt/lists", "/var/lib/apt"),
        // A user's drives (udisks on Debian), a Windows drive under WSL.
        ("/media/alice", "/media/alice"), ("/mnt/c", "/mnt/c"),
    ])
    func aSystemFolderIsNoOutput(_ path: String, _ system: String) {
        #expect(SiteFolder.systemFolder(holding: path) == system, "\(path)")
    }

    @Test(arguments: ["/var/www", "/var/www/html", "/usr/share/nginx/html", "/usr/local/www/site", "/home/ada/site/public", "/srv/albums", "/tmp/x", "/opt/site", "/root/site",
                           "/dev/shm/site", "/dev/shm/bench/public", "/run/shm/site", "/run/user/1000/site",
                           // A USB drive mounted by udisks; web roots of other habits.
                           "/run/media/alice/USB/site", "/var/site", "/usr/local/www", "/srv/www/x", "/var/tmp/x",
                           // A CI server's home.
                           "/var/lib/jenkins/workspace/site/public",
                           // A drive's folder, a container's volume.
                           "/media/alice/USB/site", "/mnt/c/Users/ada/site", "/mnt/public", "/srv/site"])
    func aWebRootOrAProjectFolderMayBe(_ path: String) {
        #expect(SiteFolder.systemFolder(holding: path) == nil, "\(path)")
    }

    /// The user database's home counts when HOME is unset or another's, but only a person's:
    /// www-data's is /var/www, the web root its deploy hooks build into.
    @Test func theUserDatabasesHomeIsAPersons() {
        #expect(SiteFolder.homeFolders(environment: nil, database: "/home/ada") == ["/home/ada"])
        #expect(SiteFolder.homeFolders(environment: nil, database: "/root") == ["/root"])
        #expect(SiteFolder.homeFolders(environment: "/tmp", database: "/home/ada") == ["/tmp", "/home/ada"])
        #expect(SiteFolder.homeFolders(environment: nil, database: "/var/www").isEmpty)
        #expect(SiteFolder.homeFolders(environment: "", database: "/nonexistent").isEmpty)
    }

    @Test func theHiddenFoldersOfTheHomeFolderAreNoOutput() throws {
        let home = try #require(ProcessInfo.processInfo.environment["HOME"])
        let site = SiteFolder(root: URL(fileURLWithPath: "/tmp/gallery-site-\(UUID().uuidString)"))
        let cache = site.root.appending(path: ".gallery-cache")
        let refused = site.outputConflict(URL(fileURLWithPath: home).appending(path: ".ssh/site"), cache: cache)
        #expect(refused?.hasPrefix("the output folder is inside .ssh in your home folder") == true, "\(refused ?? "allowed")")
        #expect(site.outputConflict(URL(fileURLWithPath: home).appending(path: ".cache"), cache: cache)?.hasPrefix("the output folder is .cache in your home folder") == true)
        // Settings, keyrings and browser profiles: what --clean-destination would remove.
        for path in [".local/share/keyrings", ".mozilla/firefox/x.default", ".jenkins/workspace/label/public"] {
            #expect(site.outputConflict(URL(fileURLWithPath: home).appending(path: path), cache: cache)?.contains("in your home folder (settings, keys and profiles)") == true, "\(path)")
        }
        // A site in a CI agent's workspace in a hidden folder builds its own public/, and a
        // cache in ~/.cache holds serve's preview.
        let agent = SiteFolder(root: URL(fileURLWithPath: home).appending(path: ".jenkins/workspace/label"))
        #expect(agent.outputConflict(agent.root.appending(path: "public"), cache: agent.root.appending(path: ".gallery-cache")) == nil)
        let xdg = URL(fileURLWithPath: home).appending(path: ".cache/gallery/label")
        #expect(site.outputConflict(xdg.appending(path: "preview"), cache: xdg) == nil)
        #expect(agent.outputConflict(URL(fileURLWithPath: home).appending(path: ".ssh/label"), cache: agent.root.appending(path: ".gallery-cache")) != nil)
        // A site that is the home folder (HOME=/app in a container) owns no hidden folder but
        // its cache: its preview is fine, a keyring is not.
        let app = SiteFolder(root: URL(fileURLWithPath: home))
        let appCache = app.root.appending(path: ".gallery-cache")
        #expect(app.outputConflict(appCache.appending(path: "preview"), cache: appCache) == nil)
        #expect(app.outputConflict(URL(fileURLWithPath: home).appending(path: ".local/share/keyrings"), cache: appCache) != nil)
        #expect(site.outputConflict(URL(fileURLWithPath: "/home/www"), cache: cache)?.hasPrefix("the output folder is the home folder /home/www") == true)
        #expect(site.outputConflict(URL(fileURLWithPath: "/usr/share"), cache: cache)?.hasPrefix("the output folder is the system folder /usr/share") == true)
        #expect(site.outputConflict(URL(fileURLWithPath: "/usr/share/doc"), cache: cache) == nil)
        for mounts in ["/mnt", "/media", "/srv"] {
            #expect(site.outputConflict(URL(fileURLWithPath: mounts), cache: cache)?.hasPrefix("the output folder is the system folder \(mounts),") == true, "\(mounts)")
        }
        // The path as written counts too, not only where its links lead: /lib is a link to
        // /usr/lib on this machine and most others (and /etc to /private/etc on macOS).
        #expect(site.outputConflict(URL(fileURLWithPath: "/lib/x86_64-linux-gnu"), cache: cache)?.hasPrefix("the output folder is inside the system folder /lib,") == true)
        #expect(site.outputConflict(URL(fileURLWithPath: "/sbin"), cache: cache)?.hasPrefix("the output folder is the system folder /sbin,") == true)
        #expect(site.outputConflict(URL(fileURLWithPath: "/tmp/gallery-out-\(UUID().uuidString)"), cache: cache) == nil)
        // Building into RAM, as the benchmarks do.
        #expect(site.outputConflict(URL(fileURLWithPath: "/dev/shm/gallery-out-\(UUID().uuidString)"), cache: cache) == nil)
    }
}
