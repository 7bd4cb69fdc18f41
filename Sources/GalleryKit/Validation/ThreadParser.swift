internal import CLibXML2
#if canImport(Glibc)
import Glibc
#endif

/// One libxml2 parser a thread, reset for every page it checks: making and freeing a parser a
/// page (its dictionary, stacks and tables) was a tenth of the parse of a page's own bytes.
///
/// A check takes the thread's parser out of its slot and gives it back when done, so a check
/// begun inside another (none is, today) makes a parser of its own rather than reset the one in
/// use. Names come from the parser's dictionary, which a reset keeps: an address stays one name
/// for the thread's life (``FragmentMarks`` keys its hashes by address within one parse).
enum ThreadParser {
    static let slot: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { parser in
            if let parser { xmlFreeParserCtxt(parser.assumingMemoryBound(to: xmlParserCtxt.self)) }
        }
        return key
    }()

    /// The thread's parser, reset, or a new one.
    static func take() -> xmlParserCtxtPtr? {
        if let kept = pthread_getspecific(slot) {
            pthread_setspecific(slot, nil)
            let parser = kept.assumingMemoryBound(to: xmlParserCtxt.self)
            xmlCtxtReset(parser)
            return parser
        }
        return xmlNewParserCtxt()
    }

    /// Keeps `parser` for the thread's next check, or frees it when the thread keeps another.
    static func give(_ parser: xmlParserCtxtPtr) {
        if pthread_getspecific(slot) == nil {
            pthread_setspecific(slot, parser)
        } else {
            xmlFreeParserCtxt(parser)
        }
    }
}
