// Empty: the `AVX2` submodule of CPureVisionTargetFeatures (see module.modulemap) carries no declarations; it can be
// imported only when compiling for AVX2, which is what `canImport` tests.
#ifndef CPUREVISION_TARGET_FEATURES_AVX2_H
#define CPUREVISION_TARGET_FEATURES_AVX2_H
#endif
