// Accelerate's float matrix products through its current BLAS interface, for PureVisionKernels on Apple platforms.
//
// The classic CBLAS functions are deprecated since iOS 16.4 / macOS 13.3 in favour of the interface that the macro
// ACCELERATE_NEW_LAPACK selects. A package cannot define a Clang macro for its Swift targets without unsafe flags,
// which SwiftPM refuses in a dependency, but it can for a C target: this one defines it (Package.swift) and makes
// the two calls. Plain C types only, so that the Swift side needs no Accelerate header to import it. Elsewhere the
// target compiles to nothing and no Swift code imports it.
#ifndef CPUREVISION_ACCELERATE_H
#define CPUREVISION_ACCELERATE_H

#ifdef __cplusplus
extern "C" {
#endif

/// Row-major `C = alpha · op(A) · op(B) + beta · C`, `op(X)` being `X` or its transpose (`transposeA`,
/// `transposeB` non-zero): `cblas_sgemm(CblasRowMajor, …)`.
void purevision_accelerate_sgemm(int transposeA, int transposeB, int m, int n, int k, float alpha, const float *a,
                                 int lda, const float *b, int ldb, float beta, float *c, int ldc);

/// Row-major `y = alpha · op(A) · x + beta · y`: `cblas_sgemv(CblasRowMajor, …)`.
void purevision_accelerate_sgemv(int transpose, int m, int n, float alpha, const float *a, int lda, const float *x,
                                 int incX, float beta, float *y, int incY);

#ifdef __cplusplus
}
#endif

#endif
