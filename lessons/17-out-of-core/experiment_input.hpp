// Lesson 17's experiment: the file it searches (a corpus repeated, written to a temporary file and
// deleted afterwards) and the count that every streamed search must agree with, from the CPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/stream/byte_source.hpp"

namespace lesson17 {

// A file of `bytes` bytes: `corpus` repeated (the last copy cut short), written under $TMPDIR (else
// /tmp) and flushed to the disk, so that the timed reads find it in the page cache and no write-back
// runs beside them. Deleted by the destructor.
class TemporaryCorpusFile {
 public:
  TemporaryCorpusFile(const std::vector<std::uint8_t>& corpus, std::uint64_t bytes);
  ~TemporaryCorpusFile();
  TemporaryCorpusFile(const TemporaryCorpusFile&) = delete;
  TemporaryCorpusFile& operator=(const TemporaryCorpusFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The occurrences of `pattern` in `source`, counted on the CPU (the fastest CPU matcher for its
// length) in pieces of 64 MiB: reads the whole input once, which also brings a file into the page cache.
std::uint64_t count_on_cpu(cudamatch::ByteSource& source, const std::vector<std::uint8_t>& pattern);

}  // namespace lesson17
