// See CPureVisionAccelerate.h. Built with ACCELERATE_NEW_LAPACK defined (Package.swift), and with 32-bit BLAS
// integers (no ACCELERATE_LAPACK_ILP64): the Swift side checks every dimension against Int32.max.
#if defined(__APPLE__)

#include "CPureVisionAccelerate.h"

#include <Accelerate/Accelerate.h>

#ifndef ACCELERATE_NEW_LAPACK
#error "CPureVisionAccelerate must be compiled with ACCELERATE_NEW_LAPACK (see Package.swift)"
#endif

void purevision_accelerate_sgemm(int transposeA, int transposeB, int m, int n, int k, float alpha, const float *a,
                                 int lda, const float *b, int ldb, float beta, float *c, int ldc) {
    cblas_sgemm(CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans, m, n,
                k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void purevision_accelerate_sgemv(int transpose, int m, int n, float alpha, const float *a, int lda, const float *x,
                                 int incX, float beta, float *y, int incY) {
    cblas_sgemv(CblasRowMajor, transpose ? CblasTrans : CblasNoTrans, m, n, alpha, a, lda, x, incX, beta, y, incY);
}

#endif
