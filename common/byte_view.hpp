// A non-owning view of bytes: texts and patterns are arbitrary bytes (NUL and >= 0x80 included),
// so they are never std::string with its char signedness and terminator conventions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cudamatch {

struct ByteView {
  const std::uint8_t* data = nullptr;
  std::size_t size = 0;

  ByteView() = default;
  ByteView(const std::uint8_t* d, std::size_t n) : data(d), size(n) {}
  ByteView(const std::vector<std::uint8_t>& v) : data(v.data()), size(v.size()) {}  // NOLINT: implicit by design
  std::uint8_t operator[](std::size_t i) const { return data[i]; }
};

}  // namespace cudamatch
