// Lesson 15: byte-SIMD on 32-bit words, what v1 and v2 compare with. A 32-bit register holds four text
// bytes; one instruction compares all four with one pattern byte (EPSM's packed compare, four bytes wide
// instead of SSE's sixteen). Host and device code alike, so the host tests check them without a GPU.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define LESSON15_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define LESSON15_HOST_DEVICE inline
#endif

namespace cudamatch::lesson15 {

// A pattern byte in all four bytes of a word. (text_word ^ repeated(c)) has a zero byte exactly where
// the text byte equals c: four compares in one XOR.
LESSON15_HOST_DEVICE unsigned repeated(std::uint8_t byte) { return byte * 0x01010101u; }

// The four text bytes that start `shift` bytes (0..3) into the word `lo`, continuing into `hi`, the
// word after it: the text seen `shift` positions further on. On the GPU one byte permute (PRMT: byte k
// of the result is byte k + shift of hi:lo), nothing for a shift of 0 (the shifts are constants once
// the callers' loops are unrolled). __byte_perm is a compiler builtin, so a shift that recurs is made
// once and an unused one not at all; __funnelshift_r would do the same work but is inline assembly
// that the compiler keeps wherever it is written.
LESSON15_HOST_DEVICE unsigned shifted(unsigned lo, unsigned hi, unsigned shift) {
  if (shift == 0) return lo;
#if defined(__CUDA_ARCH__)
  return __byte_perm(lo, hi, 0x3210u + 0x1111u * shift);
#else
  return (lo >> (8 * shift)) | (hi << (32 - 8 * shift));
#endif
}

// 0x80 in each byte of `d` that is zero, 0 in every other byte. (d & 0x7f7f7f7f) + 0x7f7f7f7f sets bit 7
// of a byte exactly when its low seven bits are not all zero, and no carry leaves the byte; ORing d adds
// the bytes whose bit 7 is set. What is left clear is a zero byte.
LESSON15_HOST_DEVICE unsigned zero_byte_flags(unsigned d) {
  return ~(((d & 0x7f7f7f7fu) + 0x7f7f7f7fu) | d) & 0x80808080u;
}

// Nonzero exactly when some byte of `d` is zero; one instruction cheaper than zero_byte_flags, but a
// borrow can also flag a 0x01 byte above a zero one, so it only answers "any".
LESSON15_HOST_DEVICE unsigned any_zero_byte(unsigned d) { return (d - 0x01010101u) & ~d & 0x80808080u; }

// The four flags of zero_byte_flags as bits 0..3, in byte order: SSE's movemask for one word. The
// multiply moves the flag of byte b (bit 8b + 7) to bit 28 + b; every other partial product lands below
// bit 28 or beyond bit 31, at distinct bits, so nothing carries into the four bits kept.
LESSON15_HOST_DEVICE unsigned flag_bits(unsigned flags) { return (flags * 0x00204081u) >> 28; }

}  // namespace cudamatch::lesson15
