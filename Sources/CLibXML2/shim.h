#include <libxml/xmlversion.h>
/*
 * libxml2 built with ICU includes the system's <unicode/ucnv.h>; Foundation brings its own ICU
 * headers (_FoundationICU) with a different UErrorCode, and a Swift module that loads both Clang
 * modules (any release build of a module importing Foundation and GalleryKit) fails with
 * "'UErrorCode' has different definitions in different modules". Hiding libxml2's ICU support
 * only drops two trailing pointer fields of xmlCharEncodingHandler, which Swift never touches.
 */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/HTMLparser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/relaxng.h>
#include <libxml/xmlsave.h>
#include <libxml/xmlreader.h>
