import Testing

@testable import GalleryKit

@Suite struct SlugTests {
    @Test(arguments: [
        ("David Bowie Best of Bowie", "david-bowie-best-of-bowie"),
        ("No Doubt It's My Life", "no-doubt-its-my-life"),
        ("Björk Homogenic", "bjork-homogenic"),
        ("Sigur Rós ( )", "sigur-ros"),
        ("AT&T Presents", "at-and-t-presents"),
        ("Motörhead — Ace of Spades!", "motorhead-ace-of-spades"),
        ("Straße Œuvre Ærø", "strasse-oeuvre-aero"),
        ("<script>alert(1)</script>", "script-alert-1-script"),
        ("坂本龍一", ""),
        ("🎸🎸", ""),
    ])
    func derivesURLSafeASCIISlugs(text: String, slug: String) {
        #expect(Slug.make(from: text) == slug)
        #expect(slug.isEmpty || Slug.isValid(slug))
    }

    @Test func cutsLongSlugsAtAWord() {
        let slug = Slug.make(from: String(repeating: "word ", count: 40))
        #expect(slug.count <= Slug.maximumLength)
        #expect(!slug.hasSuffix("-"))
        #expect(Slug.isValid(slug))
    }

    @Test func validatesOwnerSlugs() {
        #expect(Slug.isValid("abc-123"))
        #expect(!Slug.isValid("Abc"))
        #expect(!Slug.isValid("-abc"))
        #expect(!Slug.isValid("a--b"))
        #expect(!Slug.isValid("a/b"))
        #expect(!Slug.isValid(""))
    }

    @Test func catalogueSlugsAreUniqueStableAndNeverTakeAnOwnersSlug() {
        let album = { (artist: String, title: String, slug: String?) in
            Album(title: title, artist: artist, genre: "Pop", year: 2000, coverURL: "c", slug: slug)
        }
        let catalogue = Catalogue(albums: [
            album("U2", "Pop", nil),
            album("U2", "Pop", nil),
            album("X", "Y", "u2-pop-3"),
            album("U2", "Pop", nil),
            album("坂本龍一", "音楽図鑑", nil),
        ])
        let slugs = catalogue.entries.map(\.slug)
        #expect(slugs[0] == "u2-pop")
        #expect(slugs[1] == "u2-pop-2")
        #expect(slugs[2] == "u2-pop-3")
        #expect(slugs[3] == "u2-pop-4")
        #expect(slugs[4].hasPrefix("album-") && slugs[4].count == 16)
        #expect(Set(slugs).count == slugs.count)
        #expect(Catalogue(albums: catalogue.albums).entries.map(\.slug) == slugs)
    }
}
