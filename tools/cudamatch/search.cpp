// `cudamatch search`: grep -F -b -o over bytes, every overlapping occurrence, on the GPU or the CPU.
#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common/bandwidth.hpp"
#include "common/file_io.hpp"
#include "file_scan.hpp"
#include "matcher_choice.hpp"
#include "pattern_source.hpp"
#include "streamed_search.hpp"

namespace cudamatch::cli {

namespace {

constexpr int kExitNoMatch = 1;

struct SearchOptions {
  std::string algorithm;
  std::string backend;
  bool count_only = false;
  bool byte_offset = false;  // grep's -b; offsets are what search prints anyway
  std::string pattern_file;
  std::string hex;
  std::vector<std::string> args;  // [PATTERN] FILE...
  std::size_t chunk_bytes = 0;    // 0: 64 MiB pieces for scan_file, the stream's own chunk size (8 MiB)
  std::uint64_t stream_above = kStreamAbove;
};

constexpr std::size_t kPieceBytes = 64 * kMiB;

// Whether a progress bar may be drawn on stderr: not when the offsets go to the same terminal.
bool progress_allowed(bool count_only) { return count_only || ::isatty(STDOUT_FILENO) != 1; }

// Appends "PREFIX" + number + '\n' to `out`.
void append_line(std::string& out, const std::string& prefix, std::uint64_t number) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, number).ptr;
  out += prefix;
  out.append(digits, end);
  out += '\n';
}

int run_search(const SearchOptions& o) {
  PatternKind kind = PatternKind::literal;
  std::string pattern_value;
  std::vector<std::string> files = o.args;
  if (!o.pattern_file.empty() && !o.hex.empty()) throw UsageError("give the pattern once: -f or --hex, not both");
  if (!o.pattern_file.empty()) {
    kind = PatternKind::file;
    pattern_value = o.pattern_file;
  } else if (!o.hex.empty()) {
    kind = PatternKind::hex;
    pattern_value = o.hex;
  } else {
    if (files.empty()) throw UsageError("no pattern given");
    pattern_value = files.front();
    files.erase(files.begin());
  }
  if (files.empty()) throw UsageError("no file given (use - for standard input)");
  const std::vector<std::uint8_t> pattern = load_pattern(kind, pattern_value);
  const AlgorithmSpec spec = parse_algorithm_spec(o.algorithm);
  const Backend backend = o.backend.empty() ? default_backend(spec.algorithm, std::cerr) : parse_backend(o.backend);
  const Algorithm algorithm = spec.algorithm.value_or(default_algorithm(pattern.size(), backend));
  const std::unique_ptr<CpuMatcher> matcher = make_matcher(backend, algorithm, spec.version, pattern);
  std::unique_ptr<StreamedSearch> streamed;  // made for the first input that is streamed

  const bool with_names = files.size() > 1;
  bool any_match = false, any_error = false;
  std::vector<std::uint64_t> offsets;
  std::string out;
  for (const std::string& file : files) {
    const std::string prefix = with_names ? file + ":" : "";
    const auto print = [&](const std::vector<std::uint64_t>& found) {
      out.clear();
      for (std::uint64_t offset : found) append_line(out, prefix, offset);
      std::fwrite(out.data(), 1, out.size(), stdout);
    };
    std::uint64_t count = 0;
    try {
      if (backend == Backend::cuda && wants_stream(file, o.stream_above)) {
        if (!streamed) {
          const GpuVersion& version = chosen_gpu_version(algorithm, spec.version);
          streamed = std::make_unique<StreamedSearch>(version, pattern, o.chunk_bytes);
        }
        const PositionsSink sink = o.count_only ? PositionsSink{} : print;
        count = streamed->search(file, sink, progress_allowed(o.count_only));
      } else {
        scan_file(file, pattern.size() - 1, o.chunk_bytes != 0 ? o.chunk_bytes : kPieceBytes,
                  [&](ByteView piece, std::uint64_t base) {
                    if (o.count_only) {
                      count += matcher->count(piece);
                      return;
                    }
                    offsets.clear();
                    matcher->find_all(piece, base, offsets);
                    count += offsets.size();
                    print(offsets);
                  });
      }
    } catch (const FileError& e) {
      std::fflush(stdout);
      std::cerr << "cudamatch: " << e.what() << '\n';
      any_error = true;
      continue;
    }
    if (o.count_only) {
      out.clear();
      append_line(out, prefix, count);
      std::fwrite(out.data(), 1, out.size(), stdout);
    }
    any_match = any_match || count > 0;
  }
  std::fflush(stdout);
  if (any_error) return kExitTrouble;
  return any_match ? kExitOk : kExitNoMatch;
}

}  // namespace

void add_search_command(CLI::App& app, std::function<int()>& run) {
  auto* search = app.add_subcommand(
      "search",
      "Print the byte offset of every occurrence of PATTERN (overlapping ones included) in each FILE, like\n"
      "grep -F -b -o over raw bytes. Exit status: 0 matches found, 1 none, 2 trouble.\n"
      "On the GPU, standard input and files over 64 MiB are streamed through pinned buffers (lesson 17), with a\n"
      "progress bar on a terminal.\n"
      "Default backend: cuda when there is a GPU and the algorithm has a CUDA version, else cpu. Default algorithm:\n"
      "on the GPU bf (its best version), on the CPU epsm under 16 bytes and ssef from 16 bytes on (the fastest).");
  auto o = std::make_shared<SearchOptions>();
  search->add_option("-a,--algorithm", o->algorithm, "bf, kmp, bm, sunday, epsm or ssef, optionally :vN for a version");
  search->add_option("--backend", o->backend, "cuda or cpu (default: cuda when a GPU and a CUDA version exist)");
  search->add_flag("-c,--count", o->count_only, "print only the number of occurrences (per file)");
  search->add_flag("-b,--byte-offset", o->byte_offset,
                   "print byte offsets (what search prints anyway; for grep habits)");
  search->add_option("-f,--pattern-file", o->pattern_file, "read the pattern's raw bytes from this file");
  search->add_option("--hex", o->hex, "the pattern as hex digits, e.g. 00ff0a");
  search->add_option("--chunk-bytes", o->chunk_bytes, "bytes read per piece of a file (streamed: per chunk)")
      ->group("")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 34));
  search->add_option("--stream-above", o->stream_above, "stream (CUDA backend) regular files longer than this")
      ->group("");
  search->add_option("args", o->args, "[PATTERN] FILE... (- is standard input)")->required();
  search->callback([&run, o] { run = [o] { return run_search(*o); }; });
}

}  // namespace cudamatch::cli
