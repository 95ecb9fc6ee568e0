#pragma once
__global__ void jacobi(float *x, int n);
__global__ void scale(float *x, int n);
template <typename T> __global__ void relax(T *x);
extern template __global__ void relax<float>(float *);
