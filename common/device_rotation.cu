#include "common/device_rotation.hpp"

#include <algorithm>
#include <stdexcept>

namespace cudamatch {

namespace {

// One 16-byte vector of the text per thread and step (grid-stride): bytes first .. first + 15, byte k
// in bits 8 (k mod 4) of word k / 4 (little-endian, as memory holds it). Bytes at or past `size` are
// written as zero: the last vector ends at most at the next multiple of 16, inside the padding, which
// is zero anyway. The corpus index walks up with the text index and wraps at the period.
__global__ void rotation_kernel(const std::uint8_t* __restrict__ corpus, std::size_t period, std::size_t offset,
                                std::size_t size, uint4* __restrict__ text) {
  const std::size_t vectors = (size + 15) / 16;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t v = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < vectors; v += stride) {
    const std::size_t first = 16 * v;
    std::size_t j = (offset + first) % period;
    unsigned int words[4] = {0, 0, 0, 0};
#pragma unroll
    for (int k = 0; k < 16; ++k) {
      const unsigned int byte = first + k < size ? corpus[j] : 0u;
      words[k / 4] |= byte << (8 * (k % 4));
      j = j + 1 == period ? 0 : j + 1;
    }
    text[v] = make_uint4(words[0], words[1], words[2], words[3]);
  }
}

ByteView non_empty(ByteView corpus) {
  if (corpus.size == 0) throw std::invalid_argument("DeviceCorpus: the corpus is empty");
  return corpus;
}

}  // namespace

DeviceCorpus::DeviceCorpus(ByteView corpus) : bytes_(non_empty(corpus).size) {
  bytes_.upload(corpus.data, corpus.size);
}

void DeviceCorpus::write_rotation(DeviceText& text, std::size_t offset, std::size_t text_size, cudaStream_t stream,
                                  const std::vector<ByteEdit>& edits) const {
  // The allocation is 256-byte aligned (cudaMalloc) and extends to the next multiple of 16 past the text.
  uint4* vectors = reinterpret_cast<uint4*>(text.resize_async(text_size, stream));
  const std::size_t count = (text_size + 15) / 16;
  if (count == 0) return;
  const unsigned int threads = 256;
  const auto blocks = static_cast<unsigned int>(std::min<std::size_t>((count + threads - 1) / threads, 4096));
  rotation_kernel<<<blocks, threads, 0, stream>>>(bytes_.data(), size(), offset % size(), text_size, vectors);
  CUDA_CHECK_LAUNCH();
  std::uint8_t* bytes = reinterpret_cast<std::uint8_t*>(vectors);
  for (const ByteEdit& edit : edits) {
    if (edit.at >= text_size) throw std::out_of_range("DeviceCorpus::write_rotation: an edit past the text");
    CUDA_CHECK(cudaMemcpyAsync(bytes + edit.at, &edit.value, 1, cudaMemcpyHostToDevice, stream));
  }
}

FreshDeviceText::FreshDeviceText(ByteView corpus, std::size_t text_bytes, const DeviceInfo& device)
    : corpus_(corpus), text_(DeviceText::with_capacity(text_bytes)), text_bytes_(text_bytes), flush_(device) {}

void FreshDeviceText::rewrite(std::size_t rotation, const std::vector<ByteEdit>& edits) {
  corpus_.write_rotation(text_, rotation, text_bytes_, nullptr, edits);
}

void FreshDeviceText::flush_l2() const {
  flush_.enqueue(nullptr);
  CUDA_CHECK(cudaStreamSynchronize(nullptr));
}

}  // namespace cudamatch
