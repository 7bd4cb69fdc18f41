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

    /// Twins start their search where the last twin's ended (10,000 albums of one name took
    /// 50 million tries), and get the slugs the plain search gives: checked against it on random
    /// archives whose names also derive `-2`, `-3`… slugs of their own ("Pop 3") and whose
    /// explicit slugs take some.
    @Test func twinsGetTheSlugsOfThePlainSearch() {
        var generator = SystemRandomNumberGenerator()
        let titles = ["Pop", "Pop 2", "Pop 3", "Pop 2 2", "Rock"]
        for _ in 0..<200 {
            // Explicit slugs are unique in a valid archive: each is given once at most.
            var unused = ["u2-pop", "u2-pop-2", "u2-pop-3", "u2-pop-4", "u2-rock-2"]
            let albums = (0..<Int.random(in: 1...40, using: &generator)).map { _ in
                let title = titles.randomElement(using: &generator)!
                let slug = Int.random(in: 0..<6, using: &generator) == 0 && !unused.isEmpty ? unused.remove(at: Int.random(in: 0..<unused.count, using: &generator)) : nil
                return Album(title: title, artist: "U2", genre: "Pop", year: 2000, coverURL: "c", slug: slug)
            }
            var taken = Set(albums.compactMap(\.slug))
            let expected = albums.map { album -> String in
                if let slug = album.slug { return slug }
                let base = Catalogue.derivedSlug(for: album)
                var slug = base, suffix = 2
                while taken.contains(slug) { slug = "\(base)-\(suffix)"; suffix += 1 }
                taken.insert(slug)
                return slug
            }
            #expect(Catalogue(albums: albums).entries.map(\.slug) == expected, "\(albums.map { ($0.title, $0.slug ?? "-") })")
        }
        let twins = Catalogue(albums: (0..<5000).map { _ in Album(title: "Same", artist: "Same", genre: "Pop", year: 2000, coverURL: "c") })
        #expect(twins.entries.map(\.slug) == ["same-same"] + (2...5000).map { "same-same-\($0)" })
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
