#include "jpeg_support.h"
int purevision_jpeg_support_version(void) { return 1; }
