// Reading a file of any size in bounded memory, for a pattern of m bytes: consecutive pieces overlap
// by m - 1 bytes, so every occurrence lies entirely inside exactly one piece. (An occurrence at p
// that fits in piece k, [s, e), has p + m <= e; the next piece starts at e - m + 1 > p.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "common/byte_view.hpp"

namespace cudamatch::cli {

// Calls visit(piece, offset of the piece in the file) for consecutive pieces of `path` ("-" reads
// standard input), each holding up to `chunk_bytes` new bytes after the previous piece's last
// `overlap` bytes; with `first_chunk_bytes` (0: chunk_bytes) the first piece holds that many and each
// next one four times more, up to chunk_bytes (a search that may stop at its first match reads little
// of a large file to find it). A file shorter than a chunk is one piece; an empty file is one empty
// piece. Throws FileError (naming the file and the reason) when it cannot be opened or read.
void scan_file(const std::string& path, std::size_t overlap, std::size_t chunk_bytes,
               const std::function<void(ByteView piece, std::uint64_t offset)>& visit,
               std::size_t first_chunk_bytes = 0);

}  // namespace cudamatch::cli
