import Testing
@testable import GalleryKit

@Suite struct ReferenceValidationTests {
    let paths: Set<String> = ["index.html", "albums/a/index.html", "albums/b/index.html", "covers/a b.svg", "feed.xml"]

    func resolve(_ reference: String, from page: String = "albums/a/index.html", basePath: String = "/") -> ReferenceResolver.Outcome {
        let validator = PageValidator(outputPaths: paths, basePath: basePath)
        return validator.resolver(for: page).resolve(reference)
    }

    @Test func resolvesRelativeToThePagesFolder() {
        #expect(resolve("../b/") == .found("albums/b/index.html"))
        #expect(resolve("../b") == .found("albums/b/index.html"), "a folder means its index.html")
        #expect(resolve("./") == .found("albums/a/index.html"))
        #expect(resolve("..") == .missing("albums/index.html"))
        #expect(resolve("../../") == .found("index.html"))
        #expect(resolve("../../feed.xml?v=2#top") == .found("feed.xml"))
        #expect(resolve("albums/b/", from: "index.html") == .found("albums/b/index.html"))
        #expect(resolve("../c/") == .missing("albums/c/index.html"))
    }

    @Test func refusesToClimbAboveTheRoot() {
        #expect(resolve("../../../index.html") == .escapesRoot)
        #expect(resolve("../", from: "index.html") == .escapesRoot)
        #expect(resolve("/../index.html") == .escapesRoot)
    }

    @Test func skipsExternalURLs() {
        for url in ["https://example.com/", "http://x", "mailto:a@b.c", "data:image/png;base64,AA==", "tel:+441234",
                    "//cdn.example.com/a.js", "ftp://x/y", "  https://padded.example/ "] {
            #expect(resolve(url) == .external, "\(url)")
        }
        #expect(resolve("a:b/c") == .external, "anything with a scheme")
        #expect(resolve("1a:b") == .missing("albums/a/1a:b"), "not a scheme: must start with a letter")
    }

    /// Script in a URL is no link: a supplier's `javascript:` value in a template's link would
    /// run on the site's origin.
    @Test func faultsScriptURLs() {
        for url in ["javascript:alert(1)", "JAVASCRIPT:void(0)", " javascript:x", "vbscript:msgbox(1)"] {
            #expect(resolve(url) == .script, "\(url)")
        }
        #expect(resolve("javascripts:x") == .external)
        let page = ValidationFixtures.page(["<p><a href=\"javascript:alert(1)\">buy</a></p>"])
        let found = PageValidator(outputPaths: ValidationFixtures.outputPaths).validateXHTML(page, path: "albums/a/index.html")
        #expect(found.map(\.message) == ["link to 'javascript:alert(1)' is script, which is not published (album text in a link would run on the site); use a <button> and a script under assets/"])
    }

    /// A form's action, a button's formaction and an SVG animation's values name no file, so
    /// they are not checked as links, but script there runs as in a link: a "buy" param of
    /// `javascript:…` in `<form action>` was published, and `gallery check` passed it. The
    /// stream check and the tree check (which names it) agree; tabs and newlines inside the
    /// scheme, as a browser drops them, and entities are seen through.
    @Test(arguments: [
        "<form action=\"javascript:alert(1)\"><p><button type=\"submit\">Buy</button></p></form>",
        "<form action=\"/cart\"><p><button formaction=\" JAVA&#9;SCRIPT:alert(1)\">Buy</button></p></form>",
        "<form action=\"/cart\"><p><input type=\"submit\" formaction=\"java\nscript:alert(1)\"/></p></form>",
        "<form action=\"&#106;avascript:alert(1)\"></form>",
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><a href=\"#x\"><set attributeName=\"href\" to=\"javascript:alert(1)\"/><text id=\"x\">x</text></a></svg>",
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><a href=\"#x\"><animate attributeName=\"href\" values=\"#x;javascript:alert(1)\"/><text id=\"x\">x</text></a></svg>",
    ])
    func faultsScriptWhereNoFileIsNamed(markup: String) throws {
        let page = ValidationFixtures.page([markup])
        let validator = PageValidator(outputPaths: ValidationFixtures.outputPaths)
        let found = validator.validateXHTML(page, path: "albums/a/index.html")
        #expect(found.count == 1 && found[0].message.contains("is script, which is not published"), "\(found.map(\.message))")
        #expect(!XHTMLStreamCheck.passes(page, resolver: validator.resolver(for: "albums/a/index.html")))
    }

    @Test func aFormToAServerOrAnAnimationOfOtherValuesPasses() {
        let page = ValidationFixtures.page([
            "<form action=\"/cgi-bin/cart.pl\"><p><button formaction=\"https://shop.example/buy\">Buy</button></p></form>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><rect width=\"1\" height=\"1\"><animate attributeName=\"width\" values=\"1;2;javascripts\"/><set attributeName=\"height\" to=\"2\"/></rect></svg>",
        ])
        let validator = PageValidator(outputPaths: ValidationFixtures.outputPaths)
        #expect(validator.validateXHTML(page, path: "albums/a/index.html").isEmpty)
        #expect(XHTMLStreamCheck.passes(page, resolver: validator.resolver(for: "albums/a/index.html")))
    }

    @Test func decodesPercentEscapes() {
        #expect(resolve("../../covers/a%20b.svg") == .found("covers/a b.svg"))
        #expect(resolve("../../covers/a%2") == .malformed)
        #expect(resolve("../../covers/%FF.svg") == .malformed, "not UTF-8 once decoded")
        #expect(resolve("#caf%C3%A9") == .fragment("café"))
    }

    @Test func classifiesSameFileReferences() {
        #expect(resolve("") == .sameFile)
        #expect(resolve("#") == .sameFile)
        #expect(resolve("#top") == .sameFile, "HTML's top of the document")
        #expect(resolve("?sort=year") == .sameFile)
        #expect(resolve("#tracks") == .fragment("tracks"))
    }

    @Test func resolvesRootRelativeReferencesAgainstTheBasePath() {
        #expect(resolve("/", basePath: "/") == .found("index.html"))
        #expect(resolve("/albums/a/", basePath: "/") == .found("albums/a/index.html"))
        #expect(resolve("/my-repo/albums/a/", basePath: "/my-repo/") == .found("albums/a/index.html"))
        #expect(resolve("/my-repo/", from: "404.html", basePath: "my-repo") == .found("index.html"))
        #expect(resolve("/my-repo", basePath: "/my-repo") == .found("index.html"))
        #expect(resolve("/albums/a/", basePath: "/my-repo/") == .outsideBasePath)
        #expect(resolve("/my-repository/", basePath: "/my-repo/") == .outsideBasePath)
    }

    /// A `//` after the start of a path is kept by browsers (`.//about/` is
    /// `http://host/albums/a//about/`), so it is no link to the file the folder walk finds.
    @Test func refusesAnEmptyPathSegment() {
        #expect(resolve(".//") == .emptySegment)
        #expect(resolve("..//b/") == .emptySegment)
        #expect(resolve("../..//index.html") == .emptySegment)
        #expect(resolve("../b//") == .emptySegment)
        #expect(resolve("/albums//a/", basePath: "/") == .emptySegment)
        #expect(resolve("/my-repo//albums/a/", basePath: "/my-repo/") == .emptySegment)
        #expect(resolve("//about/") == .external, "a host, as in a browser")
        #expect(resolve("../b/?next=//x#a//b") == .found("albums/b/index.html"), "the query and fragment are not the path")
        #expect(ReferenceResolver.collapsingSlashes(".//about/") == "./about/")
        #expect(ReferenceResolver.collapsingSlashes("../..///a//b.html?x=//y") == "../../a/b.html?x=//y")
    }

    @Test func readsTheURLsOfASourceSet() {
        #expect(ReferenceResolver.sourceSetURLs("a.jpg 1x, b.jpg 2x") == ["a.jpg", "b.jpg"])
        #expect(ReferenceResolver.sourceSetURLs("a.jpg 1x,b.jpg 2x") == ["a.jpg", "b.jpg"])
        #expect(ReferenceResolver.sourceSetURLs(" x.jpg 100w,\n y.jpg 200w ") == ["x.jpg", "y.jpg"])
        #expect(ReferenceResolver.sourceSetURLs("a,b.jpg 100w") == ["a,b.jpg"], "a comma inside a URL stays")
        #expect(ReferenceResolver.sourceSetURLs("") == [])
    }
}
