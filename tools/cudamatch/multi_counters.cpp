#include "multi_counters.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <thread>

namespace cudamatch::cli {

namespace {

void add(PatternCounts& into, const PatternCounts& more) {
  into.total += more.total;
  for (std::size_t k = 0; k < more.per_pattern.size(); ++k) into.per_pattern[k] += more.per_pattern[k];
}

// count_in_pieces's counter of a piece with `automaton`.
PieceCounter counted_by(const AhoCorasick& automaton) {
  return [&automaton](ByteView piece, std::size_t seen, unsigned, PatternCounts& into) {
    add(into, automaton.count(piece, seen));
  };
}

// `automaton`'s counts in `text` on `threads` threads, in as many pieces.
PatternCounts count_on_threads(const AhoCorasick& automaton, ByteView text, unsigned threads) {
  const std::size_t longest = automaton.longest_pattern();
  return count_in_pieces(text, automaton.pattern_count(), longest, threads, text.size + longest, counted_by(automaton));
}

class ParallelAhoCorasick final : public MultiCounter {
 public:
  ParallelAhoCorasick(const std::vector<ByteView>& patterns, unsigned threads)
      : automaton_(patterns), threads_(std::max(threads, 1u)) {}

  PatternCounts count(ByteView text) const override { return count_on_threads(automaton_, text, threads_); }

 private:
  AhoCorasick automaton_;
  unsigned threads_;
};

}  // namespace

PatternCounts count_in_pieces(ByteView text, std::size_t patterns, std::size_t longest, unsigned threads,
                              std::size_t largest_piece, const PieceCounter& count_piece) {
  const std::size_t overlap = longest == 0 ? 0 : longest - 1;
  const std::size_t new_bytes = std::max(largest_piece, longest) - overlap;  // at most, per piece
  const std::size_t pieces = std::max<std::size_t>({threads, 1, (text.size + new_bytes - 1) / new_bytes});
  threads = static_cast<unsigned>(std::min<std::size_t>(std::max(threads, 1u), pieces));
  std::vector<PatternCounts> counts(threads, PatternCounts{0, std::vector<std::uint64_t>(patterns)});
  std::vector<std::exception_ptr> errors(threads);
  std::atomic<std::size_t> next{0};
  const auto work = [&](unsigned thread) {
    try {
      for (std::size_t i = next++; i < pieces; i = next++) {
        // Piece i's own bytes, [low, high), the bytes of the text split evenly; it starts `seen` bytes before.
        const std::size_t low = text.size * i / pieces, high = text.size * (i + 1) / pieces;
        if (low == high) continue;
        const std::size_t start = low - std::min(low, overlap);
        count_piece(ByteView(text.data + start, high - start), low - start, thread, counts[thread]);
      }
    } catch (...) {
      errors[thread] = std::current_exception();
    }
  };
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(work, t);
  work(0);
  for (std::thread& helper : helpers) helper.join();
  for (const std::exception_ptr& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  for (unsigned t = 1; t < threads; ++t) add(counts[0], counts[t]);
  return counts[0];
}

PatternCounts count_repeated(const AhoCorasick& automaton, ByteView text, std::size_t period, unsigned threads) {
  const std::size_t longest = automaton.longest_pattern();
  const std::size_t overlap = longest == 0 ? 0 : longest - 1;
  const bool repeats =
      period > overlap && text.size > period && std::memcmp(text.data, text.data + period, text.size - period) == 0;
  if (!repeats) return count_on_threads(automaton, text, threads);
  const PieceCounter count_piece = counted_by(automaton);
  PatternCounts counts{0, std::vector<std::uint64_t>(automaton.pattern_count())};
  count_piece(ByteView(text.data, period), 0, 0, counts);  // [0, period)
  // Piece j of the whole ones after the first: [j * period - overlap, (j + 1) * period), the bytes of piece 1.
  const std::size_t whole = text.size / period;
  if (whole >= 2) {
    PatternCounts one{0, std::vector<std::uint64_t>(automaton.pattern_count())};
    count_piece(ByteView(text.data + period - overlap, period + overlap), overlap, 0, one);
    for (std::size_t j = 1; j < whole; ++j) add(counts, one);
  }
  if (const std::size_t rest = text.size - whole * period; rest > 0) {
    count_piece(ByteView(text.data + whole * period - overlap, rest + overlap), overlap, 0, counts);
  }
  return counts;
}

std::unique_ptr<MultiCounter> make_parallel_aho_corasick(const std::vector<ByteView>& patterns, unsigned threads) {
  return std::make_unique<ParallelAhoCorasick>(patterns, threads);
}

}  // namespace cudamatch::cli
