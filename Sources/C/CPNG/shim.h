#include <png.h>

// PNG_FORMAT_RGBA is a macro expression Swift does not import.
static const unsigned int screentime_png_format_rgba = PNG_FORMAT_RGBA;
