#include <cstdio>
float sumOnDevice(const float *in, float *partial, float *out, int n);
int main() { std::printf("%f\n", sumOnDevice(nullptr, nullptr, nullptr, 0)); }
