// How a copy of n ints splits into a scalar head, whole vectors and a scalar tail. Host code, shared
// by the starter and the solution (and tested on its own).
#pragma once

#include <cstddef>
#include <cstdint>

struct VectorPlan {
  std::size_t head = 0;     // ints copied one by one before the first aligned vector
  std::size_t vectors = 0;  // whole vectors of `ints_per_vector` ints
  std::size_t tail = 0;     // ints copied one by one after the last vector
};

// The split for vectors of `vector_bytes` (4, 8 or 16). src and dst are int-aligned. When they are
// misaligned differently, no split works: everything is head (scalar).
inline VectorPlan plan_vector_copy(const int* src, const int* dst, std::size_t n, std::size_t vector_bytes) {
  const auto s = reinterpret_cast<std::uintptr_t>(src);
  const auto d = reinterpret_cast<std::uintptr_t>(dst);
  VectorPlan plan;
  if (s % vector_bytes != d % vector_bytes) {
    plan.head = n;
    return plan;
  }
  const std::size_t misalignment_ints = (vector_bytes - s % vector_bytes) % vector_bytes / sizeof(int);
  plan.head = misalignment_ints < n ? misalignment_ints : n;
  const std::size_t ints_per_vector = vector_bytes / sizeof(int);
  plan.vectors = (n - plan.head) / ints_per_vector;
  plan.tail = n - plan.head - plan.vectors * ints_per_vector;
  return plan;
}
