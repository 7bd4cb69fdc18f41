import BlueLibrary
import Foundation
import Testing

/// `gallery import --update`: the weekly import of a catalogue also takes the file's values for
/// the albums already in the archive, as one change that `gallery undo` reverses.
@Suite struct ImportUpdateTests: StarterSiteTests {
    static let catalogue = """
        Title,Artist,Genre,Year,Cover
        Best of Bowie,David Bowie,Pop,1992,covers/best-of-bowie.svg
        It's My Life,No Doubt,Pop,2003,covers/its-my-life.svg
        Nothing Like The Sun,Sting,Pop,1999,covers/nothing-like-the-sun.svg
        Staring at the Sun,U2,Rock,2001,covers/staring-at-the-sun.svg
        american pie,Madonna,Pop,2000,covers/soon.svg
        New One,Someone,Pop,2024,covers/its-my-life.svg

        """

    func list(_ folder: TemporaryFolder) async throws -> String {
        try await run(["list"], folder).stdout
    }

    @Test func anUpdateTakesTheFilesValuesAndOneUndoReversesIt() async throws {
        let folder = try await starter()
        try folder.write(Self.catalogue, to: "in.csv")
        let before = try folder.read("site/content/albums.json")
        let addresses = try await list(folder).split(separator: "\n").map { $0.split(separator: " ")[1] }

        // Without --update the import says what differs, and how to take it.
        let plain = try await run(["import", "in.csv", "--dry-run"], folder)
        #expect(plain.stdout.hasSuffix("""
            2 albums already in the archive differ in the file; import again with --update to take the file's values
            would import 1 of 6 albums from csv in.csv; nothing was written (--dry-run)

            """), "\(plain.stdout)")

        let dry = try await run(["import", "in.csv", "--update", "--dry-run"], folder)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try folder.read("site/content/albums.json") == before)

        let run = try await run(["import", "in.csv", "--update"], folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == """
            skipped row 1 (line 2): "Best of Bowie" by David Bowie is already album 1 of the archive, as it is
            skipped row 2 (line 3): "It's My Life" by No Doubt is already album 2 of the archive, as it is
            skipped row 3 (line 4): "Nothing Like The Sun" by Sting is already album 3 of the archive, as it is
            updated album 4 from row 4 (line 5): "Staring at the Sun" by U2: genre "Pop" → "Rock"; year 2000 → 2001
            updated album 5 from row 5 (line 6): "american pie" by Madonna: title "American Pie" → "american pie"; cover_url "covers/american-pie.svg" → "covers/soon.svg"
            added row 6 (line 7) as album 6: "New One" by Someone
            imported 1 and updated 2 of 6 albums from csv in.csv

            """)
        // A new cover is warned about as an added album's is.
        #expect(run.stderr == "warning: album 5's cover site/content/covers/soon.svg does not exist yet; the album shows a placeholder until it does\n")
        #expect(dry.stdout == run.stdout.replacingOccurrences(of: "updated album", with: "would update album").replacingOccurrences(of: "added row", with: "would add row")
            .replacingOccurrences(of: "imported 1 and updated 2 of 6 albums from csv in.csv", with: "would import 1 and update 2 of 6 albums from csv in.csv; nothing was written (--dry-run)"))
        let rows = try await list(folder).split(separator: "\n")
        #expect(rows[4].hasSuffix("Staring at the Sun    Rock   2001"), "\(rows[4])")
        #expect(rows[5].contains("american pie"))
        // No page moved.
        #expect(Array(rows.prefix(6).map { $0.split(separator: " ")[1] }) == addresses)

        // Again, the file and the archive agree.
        let again = try await self.run(["import", "in.csv", "--update"], folder)
        #expect(again.stdout == "skipped 6 albums already in the archive as they are\nimported 0 and updated 0 of 6 albums from csv in.csv\n", "\(again.stdout)")

        let undo = try await self.run(["undo"], folder)
        #expect(undo.stdout == "undid: imported 1 album and updated 2\n", "\(undo.stdout)")
        #expect(try folder.read("site/content/albums.json") == before)
    }

    /// A list exported with its slugs and read back differs in nothing: a slug that is the
    /// album's page address already is no difference, though the archive does not hold it.
    /// `gallery list --json` gives each album's params, and what it writes is read back by
    /// `import`, into another site, as the albums it lists (their numbers left out).
    @Test func aListsJSONIsReadBack() async throws {
        let folder = try await starter()
        #expect(try await run(["edit", "2", "--param", "catno=LBL-7", "--param", "stock=3"], folder).status == 0)
        let listed = try await run(["list", "--json"], folder)
        #expect(listed.stdout.contains("\"cover_url\":\"covers/its-my-life.svg\",\"params\":{\"catno\":\"LBL-7\",\"stock\":3}}"), "\(listed.stdout)")
        try folder.write(listed.stdout, to: "list.json")
        #expect(try await GalleryBinary.run(["init", "other"], in: folder.url).status == 0)
        try folder.write("{\"version\": 1, \"albums\": []}\n", to: "other/content/albums.json")
        let imported = try await run(["import", "list.json"], folder, site: "other")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasSuffix("imported 5 of 5 albums from json list.json\n"), "\(imported.stdout)")
        let relisted = try await run(["list", "--json"], folder, site: "other")
        #expect(relisted.stdout == listed.stdout, "the same albums, params and addresses")
        #expect(try !folder.read("other/content/albums.json").contains("\"number\""))
    }

    @Test func aSlugColumnOfTheAddressesIsNoDifference() async throws {
        let folder = try await starter()
        try folder.write("Title,Artist,Genre,Year,Cover,Slug\nBest of Bowie,David Bowie,Pop,1992,covers/best-of-bowie.svg,david-bowie-best-of-bowie\n", to: "in.csv")
        let run = try await run(["import", "in.csv"], folder)
        #expect(run.stdout == "skipped row 1 (line 2): \"Best of Bowie\" by David Bowie is already album 1 of the archive (--allow-duplicates imports it anyway)\nimported 0 of 1 album from csv in.csv\n", "\(run.stdout)")
        // A slug the file gives that is another address moves the page, as `edit --slug` does.
        try folder.write("Title,Artist,Genre,Year,Cover,Slug\nBest of Bowie,David Bowie,Pop,1992,covers/best-of-bowie.svg,bowie-best\nIt's My Life,No Doubt,Pop,2003,covers/its-my-life.svg,sting-nothing-like-the-sun\n", to: "in.csv")
        let taken = try await self.run(["import", "in.csv", "--update"], folder)
        #expect(taken.status != 0)
        #expect(taken.stderr.contains("in.csv:3: row 2: slug \"sting-nothing-like-the-sun\" is"), "\(taken.stderr)")
        #expect(taken.stderr.hasSuffix("error: nothing was imported\nerror: import with --skip-invalid to leave out the 1 row with faults and import the rest\n"), "\(taken.stderr)")
        try folder.write("Title,Artist,Genre,Year,Cover,Slug\nBest of Bowie,David Bowie,Pop,1992,covers/best-of-bowie.svg,bowie-best\n", to: "in.csv")
        let moved = try await self.run(["import", "in.csv", "--update"], folder)
        #expect(moved.stdout.hasPrefix("updated album 1 from row 1 (line 2): \"Best of Bowie\" by David Bowie: slug \"david-bowie-best-of-bowie\" → \"bowie-best\"\n"), "\(moved.stdout)")
        #expect(try await list(folder).contains("1  bowie-best "))
    }

    /// Twins (albums of one artist and title) are told apart by the slug the file gives; without
    /// one the row names them all and changes none. One album is updated by one row.
    @Test func twinsAreToldApartBySlug() async throws {
        let folder = try await starter()
        #expect(try await run(["add", "--title", "Staring at the Sun", "--artist", "U2", "--genre", "Pop", "--year", "2000", "--cover", "covers/staring-at-the-sun.svg"], folder).status == 0)
        try folder.write("Title,Artist,Genre,Year,Cover\nStaring at the Sun,U2,Rock,2000,covers/staring-at-the-sun.svg\n", to: "in.csv")
        let ambiguous = try await run(["import", "in.csv", "--update"], folder)
        #expect(ambiguous.stdout == """
            skipped row 1 (line 2): "Staring at the Sun" by U2 is already albums 4, 6 of the archive; give its row the slug of the one it is, in a Slug column, to update it
            imported 0 and updated 0 of 1 album from csv in.csv

            """, "\(ambiguous.stdout)")
        try folder.write("""
            Title,Artist,Genre,Year,Cover,Slug
            Staring at the Sun,U2,Rock,2000,covers/staring-at-the-sun.svg,u2-staring-at-the-sun-2
            Staring at the Sun,U2,Jazz,2000,covers/staring-at-the-sun.svg,u2-staring-at-the-sun-2

            """, to: "in.csv")
        let run = try await run(["import", "in.csv", "--update"], folder)
        #expect(run.stdout == """
            skipped row 2 (line 3): "Staring at the Sun" by U2 is album 6 of the archive, as row 1 (line 2) is; a later row of one album is skipped
            updated album 6 from row 1 (line 2): "Staring at the Sun" by U2: genre "Pop" → "Rock"
            imported 0 and updated 1 of 2 albums from csv in.csv

            """, "\(run.stdout)")
        let rows = try await list(folder).split(separator: "\n")
        #expect(rows[4].hasSuffix("Pop    2000") && rows[6].hasSuffix("Rock   2000"), "\(rows)")
    }

    /// Editions of one title (an LP, a CD, a cassette) are albums of their own when their rows
    /// name addresses of their own (a slug, or for one row of them none): added, not skipped as
    /// duplicates, and a weekly sync with --update updates the ones there (the row without a
    /// slug, the album at the address its title gives) and adds a new one, which
    /// --allow-duplicates (refused beside --update) could not.
    @Test func editionsWithSlugsOfTheirOwnAreAlbumsOfTheirOwn() async throws {
        let folder = try await starter()
        try folder.write("""
            Title,Artist,Genre,Year,Cover,Slug,Format
            Ghosts,Ada Kim,Jazz,2019,covers/best-of-bowie.svg,ada-kim-ghosts-lp,LP
            Ghosts,Ada Kim,Jazz,2019,covers/best-of-bowie.svg,ada-kim-ghosts-cd,CD
            Ghosts,Ada Kim,Jazz,2019,covers/best-of-bowie.svg,,

            """, to: "editions.csv")
        let first = try await run(["import", "editions.csv", "--map", "Format=params.format"], folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasSuffix("imported 3 of 3 albums from csv editions.csv\n"), "\(first.stdout)")
        try folder.write("""
            Title,Artist,Genre,Year,Cover,Slug,Format
            Ghosts,Ada Kim,Jazz,2020,covers/best-of-bowie.svg,ada-kim-ghosts-lp,LP
            Ghosts,Ada Kim,Jazz,2019,covers/best-of-bowie.svg,ada-kim-ghosts-cd,CD
            Ghosts,Ada Kim,Soul,2019,covers/best-of-bowie.svg,,
            Ghosts,Ada Kim,Jazz,2019,covers/best-of-bowie.svg,ada-kim-ghosts-mc,MC

            """, to: "editions.csv")
        let sync = try await run(["import", "editions.csv", "--map", "Format=params.format", "--update"], folder)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("updated album 6 from row 1 (line 2): \"Ghosts\" by Ada Kim: year 2019 → 2020"), "\(sync.stdout)")
        #expect(sync.stdout.contains("skipped row 2 (line 3): \"Ghosts\" by Ada Kim is already album 7 of the archive"), "\(sync.stdout)")
        #expect(sync.stdout.contains("updated album 8 from row 3 (line 4): \"Ghosts\" by Ada Kim: genre \"Jazz\" → \"Soul\""), "the row without a slug is the album at its title's address: \(sync.stdout)")
        #expect(sync.stdout.hasSuffix("imported 1 and updated 2 of 4 albums from csv editions.csv\n"), "\(sync.stdout)")
        let listed = try await list(folder)
        #expect(listed.contains("ada-kim-ghosts-lp") && listed.contains("ada-kim-ghosts-cd") && listed.contains("ada-kim-ghosts-mc") && listed.contains(" ada-kim-ghosts "), "\(listed)")
    }

    /// One album, one row: the first row that is an album decides, even when it gives the
    /// album as it is, and a later row of it is skipped, not taken.
    @Test func theFirstRowOfAnAlbumDecides() async throws {
        let folder = try await starter()
        try folder.write("Title,Artist,Genre,Year,Cover\nStaring at the Sun,U2,Pop,2000,covers/staring-at-the-sun.svg\nStaring at the Sun,U2,Rock,2001,covers/staring-at-the-sun.svg\n", to: "in.csv")
        let run = try await run(["import", "in.csv", "--update"], folder)
        #expect(run.stdout == """
            skipped row 1 (line 2): "Staring at the Sun" by U2 is already album 4 of the archive, as it is
            skipped row 2 (line 3): "Staring at the Sun" by U2 is album 4 of the archive, as row 1 (line 2) is; a later row of one album is skipped
            imported 0 and updated 0 of 2 albums from csv in.csv

            """, "\(run.stdout)")
        // Greek's final sigma matches the capital it lowercases from.
        #expect(try await self.run(["add", "--title", "Ο Μέτοικος", "--artist", "Σωκράτης Μάλαμας", "--genre", "Laïkó", "--year", "1994", "--cover", "c.png"], folder).status == 0)
        try folder.write("Title,Artist,Genre,Year,Cover\nΟ ΜΈΤΟΙΚΟΣ,ΣΩΚΡΆΤΗΣ ΜΆΛΑΜΑΣ,Laïkó,1994,c.png\n", to: "greek.csv")
        let greek = try await self.run(["import", "greek.csv"], folder)
        #expect(greek.stdout.hasPrefix("skipped row 1 (line 2): \"Ο ΜΈΤΟΙΚΟΣ\" by ΣΩΚΡΆΤΗΣ ΜΆΛΑΜΑΣ is already album 6 of the archive"), "\(greek.stdout)")
    }

    /// An update that would move another album's page, or the album's own without a slug from
    /// the file, keeps the page where it was: a slug derived from a name in another script is a
    /// hash of it, which a change of case changes.
    @Test func anUpdateMovesNoPage() async throws {
        let folder = try await starter()
        #expect(try await run(["add", "--title", "Звезда", "--artist", "Кино", "--genre", "Rock", "--year", "1988", "--cover", "covers/its-my-life.svg"], folder).status == 0)
        let address = try await list(folder).split(separator: "\n")[6].split(separator: " ")[1]
        try folder.write("Title,Artist,Genre,Year,Cover\nзвезда,кино,Rock,1988,covers/its-my-life.svg\n", to: "in.csv")
        let run = try await run(["import", "in.csv", "--update"], folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("album 6 keeps its page, albums/\(address)/, as its own slug\n"), "\(run.stdout)")
        let row = try await list(folder).split(separator: "\n")[6]
        #expect(row.split(separator: " ")[1] == address && row.contains("звезда"), "\(row)")
        #expect(try await self.run(["undo"], folder).status == 0)
        #expect(try folder.read("site/content/albums.json").contains("\"slug\"") == false)
    }

    @Test func updateAndAllowDuplicatesAreRefusedTogether() async throws {
        let folder = try await starter()
        try folder.write(Self.catalogue, to: "in.csv")
        let run = try await run(["import", "in.csv", "--update", "--allow-duplicates"], folder)
        #expect(run.status == 64)
        #expect(run.stderr.contains("--update and --allow-duplicates cannot be used together"))
    }

    /// A label's sheet gives some rows a slug and leaves others empty: the CD's row with a slug
    /// of its own after the LP's without one is another edition (it was skipped as the LP's
    /// duplicate, in CSV and JSON alike), while a row with no slug after its title's stays a
    /// duplicate, told how to be an edition.
    @Test func aRowWithASlugOfItsOwnIsAnEditionBesideOneWithout() async throws {
        let folder = try await starter()
        try folder.write("\u{FEFF}Cat. No.;Artist;Title;Format;Genre;Year;Cover URL;Slug\r\nX-1;Anna;Blue Hour;LP;Jazz;2020;covers/its-my-life.svg;\r\nX-2;Anna;Blue Hour;CD;Jazz;2020;covers/its-my-life.svg;x-2-cd\r\nX-3;Anna;Blue Hour;MC;Jazz;2020;covers/its-my-life.svg;\r\nX-4;Anna;Blue Hour;LP;Jazz;2020;covers/its-my-life.svg;anna-blue-hour\r\n", to: "ed.csv")
        let run = try await run(["import", "ed.csv", "--map", "Cat. No.=params.catno", "--map", "Format=params.format"], folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("skipped row 3 (line 4): \"Blue Hour\" by Anna is already row 1 (line 2) of the file; another edition needs a slug of its own in a Slug column"), "\(run.stdout)")
        // The LP's address, given again, is the LP's row again.
        #expect(run.stdout.contains("skipped row 4 (line 5): \"Blue Hour\" by Anna is already row 1 (line 2) of the file (--allow"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("imported 2 of 4 albums from csv ed.csv\n"), "\(run.stdout)")
        let listed = try await list(folder)
        #expect(listed.contains(" anna-blue-hour ") && listed.contains(" x-2-cd "), "\(listed)")

        try folder.write(#"[{"title": "Neon Harbour", "artist": "Nordlicht", "genre": "Synth", "year": 2021, "cover_url": "covers/its-my-life.svg"}, {"title": "Neon Harbour", "artist": "Nordlicht", "genre": "Synth", "year": 2021, "cover_url": "covers/its-my-life.svg", "slug": "lbl-2503-cd"}, {"title": "Neon Harbour", "artist": "Nordlicht", "genre": "Synth", "year": 2021, "cover_url": "covers/its-my-life.svg"}]"#, to: "export.json")
        let json = try await self.run(["import", "export.json"], folder)
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains("skipped album 3 of the file: \"Neon Harbour\" by Nordlicht is already album 1 of the file; another edition needs a \"slug\" of its own"), "\(json.stdout)")
        #expect(json.stdout.hasSuffix("imported 2 of 3 albums from json export.json\n"), "\(json.stdout)")
        #expect(try await list(folder).contains(" lbl-2503-cd "))
        // In either order: the CD's row with its slug first, then the LP's without one.
        try folder.write("\u{FEFF}Cat. No.;Artist;Title;Format;Genre;Year;Cover URL;Slug\r\nY-2;Bo;Red Hour;CD;Jazz;2020;covers/its-my-life.svg;y-2-cd\r\nY-1;Bo;Red Hour;LP;Jazz;2020;covers/its-my-life.svg;\r\n", to: "reversed.csv")
        let reversed = try await self.run(["import", "reversed.csv", "--map", "Cat. No.=params.catno", "--map", "Format=params.format"], folder)
        #expect(reversed.stdout.hasSuffix("imported 2 of 2 albums from csv reversed.csv\n"), "\(reversed.stdout)")
        // A week later the LP's genre changes in the sheet: its row, without a slug, updates it.
        try folder.write("\u{FEFF}Cat. No.;Artist;Title;Format;Genre;Year;Cover URL;Slug\r\nY-2;Bo;Red Hour;CD;Jazz;2020;covers/its-my-life.svg;y-2-cd\r\nY-1;Bo;Red Hour;LP;Soul;2020;covers/its-my-life.svg;\r\n", to: "reversed.csv")
        let weekly = try await self.run(["import", "reversed.csv", "--map", "Cat. No.=params.catno", "--map", "Format=params.format", "--update"], folder)
        #expect(weekly.stdout.contains(": \"Red Hour\" by Bo: genre \"Jazz\" → \"Soul\""), "\(weekly.stdout)")
        #expect(weekly.stdout.hasSuffix("imported 0 and updated 1 of 2 albums from csv reversed.csv\n"), "\(weekly.stdout)")
    }

    /// A weekly sync of the whole catalogue says which albums of the archive no row has any
    /// more: a title renamed in the sheet is added as a new album, and the old one stayed
    /// published without a word. A file of a few new albums says nothing of the rest.
    @Test func aSyncNamesTheAlbumsTheFileNoLongerHas() async throws {
        let folder = try await starter()
        let renamed = Self.catalogue.replacingOccurrences(of: "Nothing Like The Sun,Sting", with: "Nothing Like The Sun (Remastered),Sting")
        try folder.write(renamed, to: "in.csv")
        let sync = try await run(["import", "in.csv", "--update", "--dry-run"], folder)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("would add row 3 (line 4) as album 6: \"Nothing Like The Sun (Remastered)\" by Sting"), "\(sync.stdout)")
        #expect(sync.stdout.contains("\n1 album of the archive is in no row of the file (a title or artist changed in it is another album): album 3, \"Nothing Like The Sun\" by Sting; if it left the catalogue, `gallery delete 3` removes it\n"), "\(sync.stdout)")
        // A row left out for a fault this week (--skip-invalid) is still a row of the file: its
        // album is not offered for deletion.
        try folder.write(renamed.replacingOccurrences(of: "Best of Bowie,David Bowie,Pop,1992", with: "Best of Bowie,David Bowie,Pop,"), to: "faulty.csv")
        let skipped = try await run(["import", "faulty.csv", "--update", "--skip-invalid", "--dry-run"], folder)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stdout.contains("1 album of the archive is in no row of the file") && !skipped.stdout.contains("Best of Bowie\" by David Bowie; "), "\(skipped.stdout)")
        #expect(skipped.stdout.contains("`gallery delete 3` removes it"), "\(skipped.stdout)")
        try folder.write("Title,Artist,Genre,Year,Cover\nNew One,Someone,Pop,2024,covers/its-my-life.svg\n", to: "new.csv")
        let few = try await run(["import", "new.csv", "--dry-run"], folder)
        #expect(few.status == 0 && !few.stdout.contains("in no row of the file"), "\(few.stdout)")
    }
}
