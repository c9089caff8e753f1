// OpenBLAS's CBLAS interface (Debian: libopenblas-dev installs cblas.h through the alternatives system).
#include <cblas.h>
