// The module is its header's macros; this file only gives the C target a source to compile.
#include "CPureVisionTargetFeatures.h"
