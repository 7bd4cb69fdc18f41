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
        ("İlhan İrem Işık Yolu", "ilhan-irem-isik-yolu"),
        ("IŞIK Ħal Saflieni", "isik-hal-saflieni"),
        ("Ŋuvttoš Ŧeahkká", "nguvttos-teahkka"),
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
        // u2-pop-3 is taken by album 3's own slug, but no album has it from its name.
        #expect(catalogue.displaced.isEmpty)
    }

    /// An album added with a slug another album has from its name moves that album's page to
    /// `-2`, whether it comes after it or before (a newest-first archive); the catalogue says
    /// which, so the build can warn.
    @Test func anOwnersSlugThatTakesAnEarlierAlbumsDerivedOneIsADisplacement() {
        let album = { (artist: String, title: String, slug: String?) in
            Album(title: title, artist: artist, genre: "Pop", year: 2000, coverURL: "c", slug: slug)
        }
        let catalogue = Catalogue(albums: [album("X", "Y", "a-t"), album("A", "T", nil), album("B", "C", nil), album("Other", "B", "b-c")])
        #expect(catalogue.entries.map(\.slug) == ["a-t", "a-t-2", "b-c-2", "b-c"])
        #expect(catalogue.displaced == [Catalogue.Displacement(index: 1, by: 0), Catalogue.Displacement(index: 2, by: 3)])
    }

    /// Digits are no Latin letters: names in other scripts with a number in them get a hash slug
    /// each, not `1984`, `1984-2` for unrelated albums, nor a slug that reads as an album number.
    @Test func namesWithDigitsButNoLatinLettersGetHashSlugs() {
        let album = { (artist: String, title: String) in Album(title: title, artist: artist, genre: "Pop", year: 2000, coverURL: "c") }
        let slugs = Catalogue(albums: [album("עידן", "אלבום 1984"), album("שלמה", "שירים 1984"), album("Кино", "Песни 2"), album("Prince", "1999")]).entries.map(\.slug)
        #expect(slugs[0].hasPrefix("album-") && slugs[1].hasPrefix("album-") && slugs[2].hasPrefix("album-"), "\(slugs)")
        #expect(Set(slugs[0...2]).count == 3)
        #expect(slugs[3] == "prince-1999")
        // Nor may the library commands give an album a slug of digits alone.
        let problems = AlbumRules.problems(in: Album(title: "5", artist: "Maroon", genre: "Pop", year: 2002, coverURL: "c", slug: "3"))
        #expect(problems.map(\.reason) == ["\"3\" is only digits, which `gallery edit` and `delete` read as an album's number; try \"album-3\""])
    }
}
