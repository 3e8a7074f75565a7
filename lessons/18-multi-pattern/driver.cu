#include "multi_gpu.hpp"
int main() { return multi_gpu().versions.empty() ? 1 : 0; }
