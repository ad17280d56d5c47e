// Debian's libxml2 is built with ICU, so its encoding.h would pull in /usr/include/unicode, whose
// UErrorCode clashes with the toolchain's own ICU (_FoundationICU) in any module that sees both
// (Swift 6's test discovery does). Nothing here touches an encoding handler's ICU fields, only
// pointers to handlers, so the headers are read as if libxml2 had no ICU.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
