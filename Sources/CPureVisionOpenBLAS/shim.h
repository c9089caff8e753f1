// OpenBLAS's CBLAS interface (Debian: libopenblas-dev installs cblas.h through the alternatives system). Only its
// types and constants are used at compile time: nothing links libopenblas. PureVisionKernels' OpenBLASLibrary
// loads the library at the first BLAS call, so that its threads are never started (see there).
#include <cblas.h>
