/// The albums' cover URLs, each distinct one once: a URL is fetched and thumbnailed once however
/// many albums name it, and each album finds its cover by number.
///
/// A back catalogue shares a few covers among many albums (a label's "artwork coming soon"), and
/// a one-album edit of 10k albums looks at every album's cover: looked up by URL, each album's
/// was hashed three times in the fetch step and twice more in the thumbnails step, its album
/// and its cover copied on the way, some 5 ms of the edit. Now its URL is hashed once, here.
struct CoverSlots: Sendable {
    /// For each album, the index of its cover URL in ``urls``.
    let ofAlbum: [Int]
    /// The distinct cover URLs, in the order of the first album that names each.
    let urls: [String]
    /// For each of ``urls``, the first album (from 0) that names it.
    let firstAlbum: [Int]
    /// What became of each of ``urls`` (after `fetchCovers`; empty before).
    var results: [Result<Cover, CoverFailure>] = []

    /// The slots of `entries`' cover URLs.
    init(_ entries: [Catalogue.Entry]) {
        var slotOf: [String: Int] = [:]
        var ofAlbum: [Int] = []
        ofAlbum.reserveCapacity(entries.count)
        var urls: [String] = []
        var firstAlbum: [Int] = []
        for index in entries.indices {
            let url = entries[index].album.coverURL
            let slot = slotOf[url, default: urls.count]
            if slot == urls.count {
                slotOf[url] = slot
                urls.append(url)
                firstAlbum.append(index)
            }
            ofAlbum.append(slot)
        }
        self.ofAlbum = ofAlbum
        self.urls = urls
        self.firstAlbum = firstAlbum
    }

    /// The slots of `entries`' cover URLs, none of them fetched (a pipeline without the fetch
    /// step): each album shows the placeholder.
    init(unfetched entries: [Catalogue.Entry]) {
        self.init(entries)
        results = urls.map(Self.notFetched)
    }

    /// What a URL the fetch step did not get to gives.
    static func notFetched(_ url: String) -> Result<Cover, CoverFailure> {
        .failure(CoverFailure(url: url, reason: "not fetched"))
    }

    /// Each album's cover or why it has none, in album order.
    var perAlbum: [Result<Cover, CoverFailure>] {
        ofAlbum.map { results[$0] }
    }
}
