// libpng (Debian: libpng-dev).
#include <png.h>
