// Hyperscan's literal matcher (peer_hyperscan.hpp). CMake defines CUDAMATCH_HAVE_HYPERSCAN for this file
// alone, and only when it found Hyperscan; without it the functions say there is none.
#include "peer_hyperscan.hpp"

#include <stdexcept>

#if CUDAMATCH_HAVE_HYPERSCAN
#include <hs.h>

#include "common/matchers/matcher_detail.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#endif

namespace cudamatch::cli {

#if CUDAMATCH_HAVE_HYPERSCAN

namespace {

struct FreeDatabase {
  void operator()(hs_database_t* database) const { hs_free_database(database); }
};
struct FreeScratch {
  void operator()(hs_scratch_t* scratch) const { hs_free_scratch(scratch); }
};

// Hyperscan reports a match by its end offset in the block scanned, every end offset at which the pattern
// matches, in increasing order: for one literal of m bytes, every occurrence, overlapping ones included.
class HyperscanMatcher final : public detail::ScanMatcher<HyperscanMatcher> {
 public:
  HyperscanMatcher(ByteView pattern, std::size_t piece_bytes)
      : ScanMatcher(pattern), piece_(std::max(std::min(piece_bytes, kHyperscanLargestScan), pattern.size)) {
    if (pattern.size > kHyperscanLargestScan) throw std::runtime_error("Hyperscan: the pattern is over 4 GiB");
    hs_database_t* database = nullptr;
    hs_compile_error_t* error = nullptr;
    if (hs_compile_lit(reinterpret_cast<const char*>(this->pattern().data()), 0, this->pattern().size(), HS_MODE_BLOCK,
                       nullptr, &database, &error) != HS_SUCCESS) {
      const std::string message = error != nullptr ? error->message : "no reason given";
      hs_free_compile_error(error);
      throw std::runtime_error("Hyperscan cannot compile the pattern: " + message);
    }
    database_.reset(database);
    hs_scratch_t* scratch = nullptr;
    if (hs_alloc_scratch(database, &scratch) != HS_SUCCESS) throw std::runtime_error("Hyperscan: no scratch space");
    scratch_.reset(scratch);
  }

  // ScanMatcher's scan: on_match(offset) for every occurrence in t[0, n), in increasing order (m <= n).
  template <class OnMatch>
  void scan(const std::uint8_t* t, std::size_t n, OnMatch on_match) const {
    const std::size_t m = pattern().size();
    struct Piece {
      OnMatch& on_match;
      std::size_t start;  // in the text
      std::size_t m;
      std::exception_ptr error;  // what on_match threw: it must not cross Hyperscan's C frames
    };
    const match_event_handler on_end = [](unsigned int, unsigned long long, unsigned long long end, unsigned int,
                                          void* context) {
      auto& piece = *static_cast<Piece*>(context);
      try {
        piece.on_match(piece.start + end - piece.m);
        return 0;
      } catch (...) {
        piece.error = std::current_exception();
        return 1;  // stop the scan
      }
    };
    const std::lock_guard<std::mutex> one_scan_at_a_time(scratch_in_use_);
    // Pieces overlapping by m - 1 bytes: every occurrence lies inside exactly one (as in file_scan.hpp).
    for (std::size_t start = 0;; start += piece_ - (m - 1)) {
      const std::size_t length = std::min(piece_, n - start);
      Piece piece{on_match, start, m, nullptr};
      const hs_error_t status = hs_scan(database_.get(), reinterpret_cast<const char*>(t + start),
                                        static_cast<unsigned int>(length), 0, scratch_.get(), on_end, &piece);
      if (piece.error) std::rethrow_exception(piece.error);
      if (status != HS_SUCCESS) throw std::runtime_error("Hyperscan: hs_scan failed, error " + std::to_string(status));
      if (start + length == n) return;
    }
  }

 private:
  std::size_t piece_;
  std::unique_ptr<hs_database_t, FreeDatabase> database_;
  std::unique_ptr<hs_scratch_t, FreeScratch> scratch_;
  mutable std::mutex scratch_in_use_;
};

}  // namespace

std::optional<std::string> hyperscan_version() { return std::string(hs_version()); }

std::unique_ptr<CpuMatcher> make_hyperscan_matcher(ByteView pattern, std::size_t piece_bytes) {
  return std::make_unique<HyperscanMatcher>(pattern, piece_bytes);
}

#else

std::optional<std::string> hyperscan_version() { return std::nullopt; }

std::unique_ptr<CpuMatcher> make_hyperscan_matcher(ByteView, std::size_t) {
  throw std::logic_error("Hyperscan is not built into this cudamatch");
}

#endif

}  // namespace cudamatch::cli
