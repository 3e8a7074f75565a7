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
using Database = std::unique_ptr<hs_database_t, FreeDatabase>;
using Scratch = std::unique_ptr<hs_scratch_t, FreeScratch>;

// The database that compile(&database, &error) makes, or std::runtime_error with Hyperscan's reason when
// it fails.
template <class Compile>
Database compiled(const std::string& what, Compile compile) {
  hs_database_t* database = nullptr;
  hs_compile_error_t* error = nullptr;
  if (compile(&database, &error) != HS_SUCCESS) {
    const std::string message = error != nullptr ? error->message : "no reason given";
    hs_free_compile_error(error);
    throw std::runtime_error("Hyperscan cannot compile " + what + ": " + message);
  }
  return Database(database);
}

Scratch scratch_for(const hs_database_t* database) {
  hs_scratch_t* scratch = nullptr;
  if (hs_alloc_scratch(database, &scratch) != HS_SUCCESS) throw std::runtime_error("Hyperscan: no scratch space");
  return Scratch(scratch);
}

void check_scan(hs_error_t status) {
  if (status != HS_SUCCESS) throw std::runtime_error("Hyperscan: hs_scan failed, error " + std::to_string(status));
}

// Hyperscan reports a match by its end offset in the block scanned, every end offset at which the pattern
// matches, in increasing order: for one literal of m bytes, every occurrence, overlapping ones included.
class HyperscanMatcher final : public detail::ScanMatcher<HyperscanMatcher> {
 public:
  HyperscanMatcher(ByteView pattern, std::size_t piece_bytes)
      : ScanMatcher(pattern), piece_(std::max(std::min(piece_bytes, kHyperscanLargestScan), pattern.size)) {
    if (pattern.size > kHyperscanLargestScan) throw std::runtime_error("Hyperscan: the pattern is over 4 GiB");
    database_ = compiled("the pattern", [&](hs_database_t** database, hs_compile_error_t** error) {
      return hs_compile_lit(reinterpret_cast<const char*>(this->pattern().data()), 0, this->pattern().size(),
                            HS_MODE_BLOCK, nullptr, database, error);
    });
    scratch_ = scratch_for(database_.get());
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
      check_scan(status);
      if (start + length == n) return;
    }
  }

 private:
  std::size_t piece_;
  Database database_;
  Scratch scratch_;
  mutable std::mutex scratch_in_use_;
};

// The literal multi-pattern matcher: one database, one scratch space per thread.
class HyperscanMulti final : public MultiCounter {
 public:
  HyperscanMulti(const std::vector<ByteView>& patterns, unsigned threads, std::size_t piece_bytes)
      : patterns_(patterns.size()), threads_(std::max(threads, 1u)) {
    std::vector<const char*> expressions;
    std::vector<unsigned> flags(patterns.size(), 0), ids(patterns.size());
    std::vector<std::size_t> lengths;
    for (std::size_t k = 0; k < patterns.size(); ++k) {
      if (patterns[k].size == 0) throw EmptyPatternError();
      expressions.push_back(reinterpret_cast<const char*>(patterns[k].data));
      lengths.push_back(patterns[k].size);
      ids[k] = static_cast<unsigned>(k);
      longest_ = std::max(longest_, patterns[k].size);
    }
    if (longest_ > kHyperscanLargestScan) throw std::runtime_error("Hyperscan: a pattern is over 4 GiB");
    piece_ = std::max(std::min(piece_bytes, kHyperscanLargestScan), longest_);
    if (patterns.empty()) return;  // nothing to find, and Hyperscan compiles no empty set
    database_ = compiled(
        std::to_string(patterns.size()) + " literals", [&](hs_database_t** database, hs_compile_error_t** error) {
          return hs_compile_lit_multi(expressions.data(), flags.data(), ids.data(), lengths.data(),
                                      static_cast<unsigned>(patterns.size()), HS_MODE_BLOCK, nullptr, database, error);
        });
    scratch_.push_back(scratch_for(database_.get()));
    for (unsigned t = 1; t < threads_; ++t) {
      hs_scratch_t* clone = nullptr;
      if (hs_clone_scratch(scratch_[0].get(), &clone) != HS_SUCCESS)
        throw std::runtime_error("Hyperscan: no scratch space");
      scratch_.emplace_back(clone);
    }
  }

  PatternCounts count(ByteView text) const override {
    if (!database_) return {0, std::vector<std::uint64_t>(patterns_)};
    return count_in_pieces(
        text, patterns_, longest_, threads_, piece_,
        [&](ByteView piece, std::size_t seen, unsigned thread, PatternCounts& into) {
          struct Context {
            PatternCounts& into;
            unsigned long long seen;
          } context{into, seen};
          const match_event_handler on_end = [](unsigned int id, unsigned long long, unsigned long long end,
                                                unsigned int, void* c) {
            auto& counting = *static_cast<Context*>(c);
            if (end > counting.seen) {  // ends in the piece's own bytes
              ++counting.into.total;
              ++counting.into.per_pattern[id];
            }
            return 0;
          };
          check_scan(hs_scan(database_.get(), reinterpret_cast<const char*>(piece.data),
                             static_cast<unsigned int>(piece.size), 0, scratch_[thread].get(), on_end, &context));
        });
  }

 private:
  std::size_t patterns_;
  unsigned threads_;
  std::size_t longest_ = 0;
  std::size_t piece_ = 0;  // the most bytes of one hs_scan, at least the longest pattern
  Database database_;
  std::vector<Scratch> scratch_;  // one per thread
};

}  // namespace

std::optional<std::string> hyperscan_version() { return std::string(hs_version()); }

std::unique_ptr<CpuMatcher> make_hyperscan_matcher(ByteView pattern, std::size_t piece_bytes) {
  return std::make_unique<HyperscanMatcher>(pattern, piece_bytes);
}

std::unique_ptr<MultiCounter> make_hyperscan_multi(const std::vector<ByteView>& patterns, unsigned threads,
                                                   std::size_t piece_bytes) {
  return std::make_unique<HyperscanMulti>(patterns, threads, piece_bytes);
}

#else

std::optional<std::string> hyperscan_version() { return std::nullopt; }

std::unique_ptr<CpuMatcher> make_hyperscan_matcher(ByteView, std::size_t) {
  throw std::logic_error("Hyperscan is not built into this cudamatch");
}

std::unique_ptr<MultiCounter> make_hyperscan_multi(const std::vector<ByteView>&, unsigned, std::size_t) {
  throw std::logic_error("Hyperscan is not built into this cudamatch");
}

#endif

}  // namespace cudamatch::cli
