// `cudamatch search`: grep -F -b -o over bytes, every overlapping occurrence, on the GPU or the CPU, with
// grep's habits (-F, -e, -f, -i, -o, -b, -c, -l, -L, -q, -s, -m, -r with --include/--exclude(-dir), -Z, -H, -h,
// --color).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <unordered_set>

#include "commands.hpp"
#include "common/bandwidth.hpp"
#include "common/file_io.hpp"
#include "dispatch.hpp"
#include "file_scan.hpp"
#include "file_walk.hpp"
#include "gpu_backend.hpp"
#include "matcher_choice.hpp"
#include "pattern_set.hpp"
#include "pattern_source.hpp"
#include "streamed_search.hpp"

namespace cudamatch::cli {

namespace {

constexpr int kExitNoMatch = 1;

// grep's -l (the names of the files with a match) and -L (without one).
enum class ListFiles { none, with_matches, without_match };

struct SearchOptions {
  std::string algorithm;
  std::string backend;
  bool count_only = false;
  bool byte_offset = false;  // -b: with -o, each match is OFFSET:TEXT; without, offsets are printed anyway
  bool only_matching = false;
  bool ignore_case = false;
  bool no_overlap = false;
  bool quiet = false;
  bool verbose = false;
  bool invert = false;                     // -v: grep's --invert-match, refused
  bool regexp = false;                     // -E, -G, -P: grep's regular expressions, refused
  bool word_or_line = false;               // -w, -x: grep's word and line matches, refused
  bool fixed_strings = false;              // -F: what cudamatch always does
  ListFiles list_files = ListFiles::none;  // -l, -L
  bool recursive = false;                  // -r
  bool no_messages = false;                // -s: no line for a file that cannot be read
  bool null_after_name = false;            // -Z: a NUL after a file's name instead of ':' or a newline
  FileFilters filters;                     // --include, --exclude, --exclude-dir, in the order given
  bool pattern_index = false;              // --pattern-index: label matches and counts with the pattern's index
  bool per_pattern = false;                // --per-pattern: -c counts each pattern
  std::int64_t max_count = -1;             // -m; -1: no limit
  int with_names = -1;                     // -H 1, -h 0, -1: names when there is more than one file (grep)
  std::string color;                       // --color[=WHEN]; empty: not given
  std::vector<std::string> expressions;    // -e, each one or more patterns (one per line)
  std::vector<std::string> pattern_files;  // -f, one pattern per line
  std::string raw_pattern_file;
  bool raw_given = false;
  std::string hex;
  bool hex_given = false;
  std::vector<std::string> args;  // [PATTERN] FILE...
  std::size_t chunk_bytes = 0;    // 0: 64 MiB pieces for scan_file, the stream's own chunk size (8 MiB)
  std::uint64_t stream_above = kStreamAbove;
};

constexpr std::size_t kPieceBytes = 64 * kMiB;
constexpr std::size_t kFirstPieceBytes = kMiB;  // -l, -L, -q, -m: then 4, 16, 64 MiB

// One pattern of a search: the bytes searched for (lowered for -i), and what labels its output lines
// when there are several patterns: the pattern as given, or with --pattern-index its index.
struct SearchPattern {
  std::vector<std::uint8_t> bytes;
  std::string label;
};

// The patterns of a search, from every source the command line names (the -e patterns, then the -f
// files', then --raw-pattern-file's and --hex's), without duplicates: a pattern given again (-i: equal
// once lowered) is the first one. Its index counts every pattern given before it, repeated ones too, from
// 0 (with one -f FILE: its line number - 1). Removes the PATTERN operand from `files` when no other source
// gives a pattern.
std::vector<SearchPattern> gather_patterns(const SearchOptions& o, std::vector<std::string>& files) {
  std::vector<SearchPattern> patterns;
  std::unordered_set<std::string> searched;  // the bytes of each pattern so far (-f may give 100,000)
  std::size_t given = 0;
  const auto add = [&](std::vector<std::uint8_t> bytes) {
    std::string label = o.pattern_index ? std::to_string(given) : std::string(bytes.begin(), bytes.end());
    ++given;
    if (o.ignore_case) ascii_lower(bytes.data(), bytes.size(), bytes.data());
    if (!searched.emplace(bytes.begin(), bytes.end()).second) return;
    patterns.push_back({std::move(bytes), std::move(label)});
  };
  for (const std::string& e : o.expressions) {
    for (auto& line : pattern_lines(std::vector<std::uint8_t>(e.begin(), e.end()), "the pattern given with -e"))
      add(std::move(line));
  }
  for (const std::string& f : o.pattern_files) {  // "-": standard input, as in grep
    const bool is_stdin = f == "-";
    const std::string source =
        is_stdin ? std::string("the patterns on standard input") : "the pattern file '" + f + "'";
    for (auto& line : pattern_lines(read_file(is_stdin ? "/dev/stdin" : f), source)) add(std::move(line));
  }
  if (o.raw_given) add(load_pattern(PatternKind::file, o.raw_pattern_file));
  if (o.hex_given) add(load_pattern(PatternKind::hex, o.hex));
  if (patterns.empty()) {
    if (files.empty()) throw UsageError("no pattern given (cudamatch search --help shows the usage)");
    add(load_pattern(PatternKind::literal, files.front()));
    files.erase(files.begin());
  }
  return patterns;
}

// grep's colours (GREP_COLORS' defaults): file names magenta, separators cyan, byte offsets green,
// matched text bold red; each followed by "erase to end of line", as grep does.
struct Colors {
  bool on = false;
  void add(std::string& out, const char* sgr, const char* text, std::size_t n) const {
    if (on) {
      out += "\33[";
      out += sgr;
      out += "m\33[K";
    }
    out.append(text, n);
    if (on) out += "\33[m\33[K";
  }
  void add(std::string& out, const char* sgr, const std::string& text) const {
    add(out, sgr, text.data(), text.size());
  }
};
constexpr const char* kFileColor = "35";
constexpr const char* kSeparatorColor = "36";
constexpr const char* kOffsetColor = "32";
constexpr const char* kMatchColor = "01;31";
constexpr std::size_t kFlushBytes = std::size_t{1} << 20;  // output is written in blocks of about this size

std::string digits(std::uint64_t number) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, number).ptr;
  return std::string(buffer, end);
}

// --color's WHEN; a bare --color gives "true" (CLI11's flag value), which is grep's auto.
bool color_wanted(const std::string& when) {
  if (when.empty() || when == "never") return false;
  if (when == "true") return color_wanted("auto");
  if (when == "always") return true;
  if (when != "auto") throw UsageError("--color: '" + when + "' is not one of auto, always, never");
  const char* term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) == 1 && term != nullptr && std::string(term) != "dumb";
}

// Thrown to stop reading a file (-m reached) or the whole search (-q found a match).
struct StopFile {};
struct StopSearch {};

// A match kept past its piece, with the bytes of the text there (for -o).
struct HeldMatch {
  Hit hit;
  std::string text;
};

// Formats the matches of one file in offset order, applying --no-overlap, -m and -q.
class Printer {
 public:
  Printer(const SearchOptions& o, const std::vector<SearchPattern>& patterns, const Colors& colors, std::string prefix)
      : o_(o),
        patterns_(patterns),
        colors_(colors),
        prefix_(std::move(prefix)),
        labelled_(patterns.size() > 1 || o.pattern_index),
        per_pattern_(o.per_pattern ? patterns.size() : 0) {}

  // Takes the next match (offsets increase; at one offset, longer patterns first).
  void take(std::uint64_t offset, std::size_t pattern, const std::uint8_t* text) {
    if (o_.list_files != ListFiles::none) {  // -l, -L: one match decides the file
      ++count_;
      if (o_.quiet) throw StopSearch{};
      throw StopFile{};
    }
    const std::size_t length = patterns_[pattern].bytes.size();
    if (o_.no_overlap) {
      if (offset < next_free_) return;
      next_free_ = offset + length;
    }
    ++count_;
    if (!per_pattern_.empty()) ++per_pattern_[pattern];
    if (o_.quiet) throw StopSearch{};
    if (!o_.count_only) {
      out_ += prefix_;
      if (!o_.only_matching || o_.byte_offset) {
        colors_.add(out_, kOffsetColor, digits(offset));
        if (o_.only_matching || labelled_) colors_.add(out_, kSeparatorColor, ":");
      }
      if (o_.only_matching) {
        colors_.add(out_, kMatchColor, reinterpret_cast<const char*>(text), length);
      } else if (labelled_) {
        colors_.add(out_, kMatchColor, patterns_[pattern].label);
      }
      out_ += '\n';
      if (out_.size() >= kFlushBytes) flush();
    }
    if (o_.max_count >= 0 && count_ >= static_cast<std::uint64_t>(o_.max_count)) throw StopFile{};
  }

  // Adds the matches of a piece counted without listing them (indexed like the patterns).
  void add_count(const PatternCounts& counts) {
    count_ += counts.total;
    for (std::size_t k = 0; k < per_pattern_.size(); ++k) per_pattern_[k] += counts.per_pattern[k];
  }

  // Writes what is formatted so far.
  void flush() {
    std::fwrite(out_.data(), 1, out_.size(), stdout);
    out_.clear();
  }

  // The count line of -c (--per-pattern: a line per pattern, in the order given, LABEL:COUNT), then
  // everything out. Returns the number of matches.
  std::uint64_t finish() {
    const bool counts = !o_.quiet && o_.list_files == ListFiles::none;  // -l and -L print names instead
    if (o_.count_only && counts && per_pattern_.empty()) {
      out_ += prefix_;
      out_ += digits(count_);
      out_ += '\n';
    }
    for (std::size_t k = 0; k < per_pattern_.size() && counts; ++k) {
      out_ += prefix_;
      colors_.add(out_, kMatchColor, patterns_[k].label);
      colors_.add(out_, kSeparatorColor, ":");
      out_ += digits(per_pattern_[k]);
      out_ += '\n';
      if (out_.size() >= kFlushBytes) flush();
    }
    flush();
    return count_;
  }

 private:
  const SearchOptions& o_;
  const std::vector<SearchPattern>& patterns_;
  const Colors& colors_;
  std::string prefix_;
  bool labelled_;  // offset lines end with :LABEL
  std::string out_;
  std::uint64_t count_ = 0;
  std::vector<std::uint64_t> per_pattern_;  // --per-pattern: the count of each pattern; else empty
  std::uint64_t next_free_ = 0;
};

// Whether a progress bar may be drawn on stderr: not when the offsets go to the same terminal.
bool progress_allowed(bool count_only) { return count_only || ::isatty(STDOUT_FILENO) != 1; }

// The searches of a command's files: the plan of each file (the matchers -a names, or the dispatch table's
// for the file's text: the alphabet of its sample and the bytes a search of it gets), said on stderr with
// --verbose, and the pattern set that runs it, built again only when a file's plan differs from the last.
class FileSearches {
 public:
  FileSearches(const SearchOptions& o, Backend backend, const AlgorithmSpec& spec,
               const std::vector<SearchPattern>& patterns)
      : o_(o), backend_(backend), spec_(spec) {
    for (const SearchPattern& p : patterns) {
      bytes_.emplace_back(p.bytes);
      lengths_.push_back(p.bytes.size());
    }
  }

  // The plan for `file` ("-": standard input), whose text has `text`'s traits.
  SearchPlan plan(const std::string& file, const TextTraits& text) const {
    SearchPlan plan = plan_search(backend_, spec_, lengths_, text);
    if (o_.verbose) std::cerr << "cudamatch: " << (file == "-" ? "(standard input)" : file) << ": " << plan.why << '\n';
    return plan;
  }

  // The pattern set for `file`, whose first piece is `first_piece` (searched as it is: lowered for -i)
  // and whose searches get up to `search_bytes` each (the dispatch table's text size).
  PatternSet& for_file(const std::string& file, ByteView first_piece, std::size_t search_bytes) {
    SearchPlan next = plan(file, TextTraits{classify_alphabet(first_piece), search_bytes});
    if (!set_ || !next.runs_as(plan_)) {
      set_ = make_pattern_set(backend_, next, bytes_);
      plan_ = std::move(next);
    }
    return *set_;
  }

 private:
  const SearchOptions& o_;
  Backend backend_;
  AlgorithmSpec spec_;
  std::vector<ByteView> bytes_;
  std::vector<std::size_t> lengths_;
  SearchPlan plan_;
  std::unique_ptr<PatternSet> set_;
};

// Searches one file for every pattern in pieces (scan_file), handing `printer` the matches in offset
// order; the file's first piece decides its pattern set (FileSearches). Pieces overlap by the longest pattern's length
// - 1, so a match of a shorter pattern near a piece's end is found twice: matches that start where the longest pattern
// would not fit in the piece wait for the next piece (which finds them again, in order with the others) or the file's
// end. Counted without the printer, a piece counts the matches that end in the bytes it does not share with the
// previous piece.
void scan_patterns(const SearchOptions& o, const std::string& file, const std::vector<SearchPattern>& patterns,
                   FileSearches& searches, Printer& printer) {
  std::vector<std::size_t> lengths;
  for (const SearchPattern& p : patterns) lengths.push_back(p.bytes.size());
  const std::size_t longest = *std::max_element(lengths.begin(), lengths.end());
  const bool count_alone =
      o.count_only && !o.no_overlap && o.max_count < 0 && !o.quiet && o.list_files == ListFiles::none;
  // A search that may stop at its first matches (-l, -L, -q, -m) starts with a small piece.
  const bool may_stop = o.list_files != ListFiles::none || o.quiet || o.max_count >= 0;
  std::vector<std::uint8_t> lowered;
  std::vector<Hit> found;
  std::vector<HeldMatch> pending;
  std::uint64_t seen_end = 0;  // where the previous piece ended
  PatternSet* search = nullptr;
  const std::uint64_t chunk = o.chunk_bytes != 0 ? o.chunk_bytes : kPieceBytes;
  struct stat info {};
  const std::uint64_t file_bytes = file != "-" && ::stat(file.c_str(), &info) == 0 && S_ISREG(info.st_mode)
                                       ? static_cast<std::uint64_t>(info.st_size)
                                       : 0;
  scan_file(
      file, longest - 1, chunk,
      [&](ByteView piece, std::uint64_t base) {
        ByteView text = piece;
        if (o.ignore_case) {
          lowered.resize(piece.size);
          ascii_lower(piece.data, piece.size, lowered.data());
          text = ByteView(lowered.data(), lowered.size());
        }
        if (search == nullptr) {  // a small first piece (-l, -q, -m) plans for the pieces after it
          search = &searches.for_file(file, text, std::max<std::uint64_t>(piece.size, std::min(file_bytes, chunk)));
        }
        const std::size_t seen = seen_end - base;
        seen_end = base + piece.size;
        if (count_alone) {
          if (const std::optional<PatternCounts> counts = search->count(text, seen)) {
            printer.add_count(*counts);
            return;
          }
        }
        pending.clear();  // this piece finds them again
        const std::uint64_t cutoff = base + piece.size - std::min<std::size_t>(piece.size, longest - 1);
        found.clear();
        search->find(text, base, found);
        check_matches(found, base, piece.size, lengths);
        for (const Hit& hit : found) {
          const std::uint8_t* at = piece.data + (hit.offset - base);
          if (hit.offset < cutoff) {
            printer.take(hit.offset, hit.pattern, at);
          } else {
            pending.push_back(
                {hit, std::string(reinterpret_cast<const char*>(at), patterns[hit.pattern].bytes.size())});
          }
        }
        printer.flush();
      },
      o.chunk_bytes != 0 || !may_stop ? 0 : kFirstPieceBytes);
  for (const HeldMatch& m : pending) {
    printer.take(m.hit.offset, m.hit.pattern, reinterpret_cast<const std::uint8_t*>(m.text.data()));
  }
}

// Whether `path` ("-": standard input) is the regular file that standard output writes to
// (`cudamatch search -r x . > out`, `cudamatch search x < out >> out`).
bool is_the_output(const std::string& path) {
  struct stat output {};
  struct stat input {};
  if (::fstat(STDOUT_FILENO, &output) != 0 || !S_ISREG(output.st_mode)) return false;
  const int found = path == "-" ? ::fstat(STDIN_FILENO, &input) : ::stat(path.c_str(), &input);
  return found == 0 && input.st_dev == output.st_dev && input.st_ino == output.st_ino;
}

// A file's error line with the name the file is shown under ("b: ..." for the walked "./b", as grep).
std::string named_as(const std::string& error, const WalkedFile& file) {
  if (file.path != file.shown && error.compare(0, file.path.size() + 1, file.path + ":") == 0) {
    return file.shown + error.substr(file.path.size());
  }
  return error;
}

int run_search(const SearchOptions& o) {
  std::vector<std::string> operands = o.args;
  std::vector<SearchPattern> patterns = gather_patterns(o, operands);
  if (operands.empty() && !o.recursive) throw UsageError("no file given (use - for standard input)");
  Colors colors;
  colors.on = color_wanted(o.color);
  const AlgorithmSpec spec = parse_algorithm_spec(o.algorithm);
  const Backend backend = o.backend.empty() ? default_backend(spec.algorithm, std::cerr) : parse_backend(o.backend);
  require_runnable(backend, spec);
  FileSearches searches(o, backend, spec, patterns);
  // Lesson 17's stream takes one pattern, searched as given, and every match.
  const bool streamable = backend == Backend::cuda && patterns.size() == 1 && !o.ignore_case && !o.no_overlap &&
                          o.max_count < 0 && !o.quiet && o.list_files == ListFiles::none;
  std::unique_ptr<StreamedSearch> streamed;  // made for the first input that is streamed, again for another matcher
  const GpuVersion* streamed_version = nullptr;
  // A file is refused as its own output where its match lines would be read back (grep's rule: -m 0 and
  // -m 1 stop too soon for that).
  const bool prints_matches =
      !o.quiet && !o.count_only && o.list_files == ListFiles::none && (o.max_count < 0 || o.max_count > 1);
  // grep -m 0 reads nothing: no match, no file opened, unless -L lists the files (those it can open).
  const bool lists_unread = o.list_files == ListFiles::without_match && !o.quiet;
  if (o.max_count == 0 && !lists_unread) return kExitNoMatch;

  const bool with_names = o.with_names >= 0 ? o.with_names == 1
                          : o.recursive     ? walk_names_several(operands)
                                            : operands.size() > 1;
  bool any_match = false, any_error = false, stopped = false;
  const auto report = [&](const std::string& error) {
    std::fflush(stdout);
    if (!o.no_messages) std::cerr << "cudamatch: " << error << '\n';
    any_error = true;
  };
  // Searches one file; false stops the search (-q found a match).
  const auto search_file = [&](const WalkedFile& file) {
    if (prints_matches && is_the_output(file.path)) {  // it would read what it writes, as grep refuses to
      report(file.shown + ": input file is also the output");
      return true;
    }
    const auto list_name = [&] {  // -l, -L: the file's name, once
      std::string line;
      colors.add(line, kFileColor, file.shown);
      line += o.null_after_name ? '\0' : '\n';
      std::fwrite(line.data(), 1, line.size(), stdout);
    };
    std::string prefix;
    if (with_names) {
      colors.add(prefix, kFileColor, file.shown);
      if (o.null_after_name) {
        prefix += '\0';
      } else {
        colors.add(prefix, kSeparatorColor, ":");
      }
    }
    Printer printer(o, patterns, colors, prefix);
    // The file searched: -c's count, -l or -L's name (-L: a file without a match).
    const auto finish_file = [&] {
      const bool found = printer.finish() > 0;
      any_match = found || any_match;  // -L too: the exit status says whether anything matched (grep >= 3.5)
      if (o.list_files != ListFiles::none && !o.quiet && found == (o.list_files == ListFiles::with_matches)) {
        list_name();
      }
      return true;
    };
    if (file.folder) {  // not read; grep (3.8) then takes it as a file without a match (-c: 0, -L: listed)
      report(file.shown + ": Is a directory");
      return finish_file();
    }
    if (o.max_count == 0) {  // -L -m 0: every file that opens is listed, unread
      try {
        scan_file(
            file.path, 0, 1, [](ByteView, std::uint64_t) { throw StopFile{}; }, 1);
      } catch (const StopFile&) {
      } catch (const FileError& e) {
        report(named_as(e.what(), file));
        return true;
      }
      list_name();
      return true;
    }
    try {
      if (streamable && wants_stream(file.path, o.stream_above)) {
        // A search gets one chunk; standard input cannot be sampled before it is read.
        const TextTraits traits{file.path == "-" ? AlphabetSample{} : classify_file(file.path),
                                o.chunk_bytes != 0 ? o.chunk_bytes : StreamOptions{}.chunk_bytes};
        const SearchPlan plan = searches.plan(file.path, traits);
        const GpuVersion& version = chosen_gpu_version(*plan.matchers[0].algorithm, plan.matchers[0].version);
        if (streamed_version != &version) {
          streamed = std::make_unique<StreamedSearch>(version, patterns[0].bytes, o.chunk_bytes);
          streamed_version = &version;
        }
        const std::uint8_t* text = patterns[0].bytes.data();  // the match is the pattern
        const PositionsSink sink = [&](const std::vector<std::uint64_t>& found) {
          for (std::uint64_t offset : found) printer.take(offset, 0, text);
          printer.flush();
        };
        const std::uint64_t count =
            streamed->search(file.path, o.count_only ? PositionsSink{} : sink, progress_allowed(o.count_only));
        if (o.count_only) printer.add_count(PatternCounts{count, {count}});
      } else {
        scan_patterns(o, file.path, patterns, searches, printer);
      }
    } catch (const StopFile&) {
      // -m NUM reached, or -l's first match: on to the next file
    } catch (const StopSearch&) {
      stopped = true;  // -q: a match is all it takes
      return false;
    } catch (const FileError& e) {
      printer.flush();
      report(named_as(e.what(), file));
      return true;
    }
    return finish_file();
  };
  walk_operands(operands, o.recursive, o.filters, search_file, report);
  std::fflush(stdout);
  if (stopped) return kExitOk;
  if (any_error) return kExitTrouble;
  return any_match ? kExitOk : kExitNoMatch;
}

// What the GPU does with several patterns, for --help.
std::string multi_pattern_gpu_path() {
  const GpuMultiAlgorithm* table = gpu_multi_table();
  if (table == nullptr) return "one pass each (this build has no multi-pattern GPU search, lesson 18)";
  return "2 or more in one pass (multi-pattern " + std::string(table->best().name) + ", lesson 18)";
}

}  // namespace

void add_search_command(CLI::App& app, std::function<int()>& run) {
  auto* search = app.add_subcommand(
      "search",
      "Print the byte offset of every occurrence of PATTERN in each FILE (grep -F -b -o over raw bytes, overlapping\n"
      "matches included). Exit status: 0 matches found, 1 none, 2 trouble.");
  search->set_help_flag("--help", "Print this help message and exit");  // -h is grep's --no-filename
  search->footer(
      "Several patterns (-e, -f) are listed in offset order (at one offset the longer pattern first), each offset\n"
      "line ending with :PATTERN (--pattern-index: :INDEX); -c counts them together (--per-pattern: a PATTERN:COUNT\n"
      "line each). The CPU searches " +
      std::to_string(kOnePassForAllFrom) + " or more in one pass (Aho-Corasick), fewer one pass each;\nthe GPU " +
      multi_pattern_gpu_path() +
      ".\n-a ALGO keeps one pass per pattern. -i folds ASCII letters only.\n"
      "-c, -m and --no-overlap count matches, not lines as grep does (the same where no line holds two).\n"
      "On the GPU, standard input and files over 64 MiB are streamed through pinned buffers (lesson 17), with a\n"
      "progress bar on a terminal (one pattern, without -i, -m, -q, -l, -L or --no-overlap; otherwise 64 MiB pieces,\n"
      "the first 1 MiB and growing fourfold where -l, -L, -q or -m may stop at a first match).\n"
      "Default backend: cuda when there is a GPU and the algorithm has a CUDA version, else cpu. Without -a, the\n"
      "matcher (algorithm and version) is the fastest `cudamatch bench` measured for the backend, the pattern length\n"
      "(beyond the longest measured, that length's) and the text: its alphabet (small like DNA, text, or wide, from\n"
      "a sample) and its size; --verbose says which and why, one line per file on stderr (dispatch table:\n"
      "tools/cudamatch/dispatch.json), and how several patterns are searched. grep's -v (--invert-match) has no\n"
      "meaning for matches and is refused, as are -E, -G, -P (patterns are fixed strings; -F is accepted), -w and -x.\n"
      "\n"
      "Examples:\n"
      "  cudamatch search needle a.txt b.txt        every offset, overlapping ones too (a.txt:17)\n"
      "  cudamatch search -o -b --no-overlap ab f   what grep -F -o -b prints (OFFSET:ab)\n"
      "  cudamatch search -e cat -e dog -c f        several patterns, counted together\n"
      "  cudamatch search -f words.txt f            one pattern per line of words.txt\n"
      "  cudamatch search -f words.txt -c --per-pattern --pattern-index f   INDEX:COUNT for each line of words.txt\n"
      "  cudamatch search -i -q error log || echo clean   exit status only, ASCII case folded\n"
      "  cudamatch search --hex 00ff0a f.bin        any bytes: hex digits or --raw-pattern-file FILE\n"
      "  cat f | cudamatch search -m 3 ab -         the first 3 matches in standard input\n"
      "  cudamatch search -r -l needle logs/        the files below logs/ that hold needle");
  auto o = std::make_shared<SearchOptions>();
  search->add_option("-a,--algorithm", o->algorithm, "bf, kmp, bm, sunday, epsm or ssef, optionally :vN for a version");
  search->add_option("--backend", o->backend, "cuda or cpu (default: cuda when a GPU and a CUDA version exist)");
  search->add_option("-e,--regexp", o->expressions, "a pattern (repeatable; a newline separates patterns, as in grep)")
      ->allow_extra_args(false)
      ->take_all()
      ->option_text("PATTERN");
  search
      ->add_option("-f,--file", o->pattern_files,
                   "read patterns from FILE, one per line (grep's -f; repeatable; - is standard input)")
      ->allow_extra_args(false)
      ->take_all()
      ->option_text("FILE");
  auto* raw =
      search
          ->add_option("--raw-pattern-file", o->raw_pattern_file, "one pattern: every byte of FILE, newlines included")
          ->option_text("FILE");
  auto* hex = search->add_option("--hex", o->hex, "one pattern as hex digits, e.g. 00ff0a")->option_text("HEX");
  search->add_flag("-i,--ignore-case", o->ignore_case, "ASCII case-insensitive (A-Z match a-z; other bytes exactly)");
  auto* count = search->add_flag("-c,--count", o->count_only, "print only the number of matches (per file)");
  search->add_flag("--per-pattern", o->per_pattern, "with -c: one PATTERN:COUNT line per pattern, in the order given")
      ->needs(count);
  auto* only_matching = search->add_flag("-o,--only-matching", o->only_matching,
                                         "print the matched bytes (with -b: OFFSET:MATCH, as grep)");
  search
      ->add_flag("--pattern-index", o->pattern_index,
                 "end offset lines with :INDEX (one pattern too), the pattern's 0-based place among those given "
                 "(-f FILE: line - 1), instead of :PATTERN; with --per-pattern, INDEX:COUNT")
      ->excludes(only_matching);
  search->add_flag("-b,--byte-offset", o->byte_offset,
                   "print byte offsets (with -o: OFFSET:MATCH; offsets are printed anyway)");
  search->add_flag("--no-overlap", o->no_overlap,
                   "report non-overlapping matches, leftmost first (longest at one offset), as grep does");
  search->add_flag("-q,--quiet,--silent", o->quiet, "print nothing; exit 0 at the first match");
  search
      ->add_flag_callback(
          "-l,--files-with-matches", [o] { o->list_files = ListFiles::with_matches; },
          "print only the names of the files with a match, each once (reading a file stops at its first match)")
      ->trigger_on_parse();  // of -l and -L the last one given counts, as in grep
  search
      ->add_flag_callback(
          "-L,--files-without-match", [o] { o->list_files = ListFiles::without_match; },
          "print only the names of the files without a match")
      ->trigger_on_parse();
  search->add_flag("-r,--recursive", o->recursive,
                   "search the files below each FILE that is a folder (links inside not followed; no FILE: the "
                   "current folder); file names are printed unless the only FILE is a file");
  search->add_flag("-s,--no-messages", o->no_messages,
                   "no line for a file that cannot be read (the exit status is 2 all the same)");
  search->add_flag("-F,--fixed-strings", o->fixed_strings, "patterns are fixed strings: always so, -F is accepted");
  // --include, --exclude, --exclude-dir: repeatable, one GLOB each (the operands after them stay operands).
  // Their globs go to o->filters in the order given (the callback below), read from the options' results.
  const auto add_glob = [&](const char* name, FileFilters::Kind kind, const char* help) {
    return std::make_pair(
        search->add_option(name)->description(help)->allow_extra_args(false)->take_all()->option_text("GLOB"), kind);
  };
  const std::array<std::pair<CLI::Option*, FileFilters::Kind>, 3> globs = {
      add_glob("--include", FileFilters::Kind::include,
               "read only files whose name matches GLOB (the last matching --include or --exclude decides)"),
      add_glob("--exclude", FileFilters::Kind::exclude,
               "skip files whose name matches GLOB (a folder's entries by name, operands also by their ends)"),
      add_glob("--exclude-dir", FileFilters::Kind::exclude_dir,
               "skip folders whose name matches GLOB (walked or given)")};
  search->add_flag("-Z,--null", o->null_after_name, "a NUL byte after each file name instead of ':' or a newline");
  search->add_flag("-E,--extended-regexp,-G,--basic-regexp,-P,--perl-regexp", o->regexp, "grep's, refused")->group("");
  search->add_flag("-w,--word-regexp,-x,--line-regexp", o->word_or_line, "grep's, refused")->group("");
  search->add_flag("--verbose", o->verbose,
                   "say on stderr, one line per file, which matcher searches it and why (the dispatch table's entry; "
                   "several patterns: one pass each, or one pass for all)");
  search->add_flag("-v,--invert-match", o->invert, "grep's, refused")->group("");
  auto* max_count =
      search->add_option("-m,--max-count", o->max_count, "stop reading a file after NUM matches (grep counts lines)")
          ->option_text("NUM");
  search
      ->add_flag_callback(
          "-H,--with-filename", [o] { o->with_names = 1; }, "print the file name with each line")
      ->trigger_on_parse();
  search
      ->add_flag_callback(
          "-h,--no-filename", [o] { o->with_names = 0; }, "never print file names")
      ->trigger_on_parse();
  search->add_flag("--color,--colour", o->color,
                   "--color[=WHEN]: colour matches, file names and offsets as grep does; WHEN: auto (a terminal "
                   "only; bare --color), always, never (the default)");
  search->add_option("--chunk-bytes", o->chunk_bytes, "bytes read per piece of a file (streamed: per chunk)")
      ->group("")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 34));
  search->add_option("--stream-above", o->stream_above, "stream (CUDA backend) regular files longer than this")
      ->group("");
  search->add_option(
      "args", o->args,
      "[PATTERN] FILE... (- is standard input; no PATTERN with -e, -f, --hex; no FILE with -r: the current folder)");
  search->callback([&run, o, raw, hex, max_count, search, globs] {
    if (o->invert) {
      throw CLI::ValidationError("-v",
                                 "grep's --invert-match selects lines without a match, and cudamatch prints "
                                 "matches, not lines; --verbose (long only) says which matcher runs");
    }
    if (o->regexp) {
      throw CLI::ValidationError("-E/-G/-P",
                                 "regular expressions are not supported: patterns are fixed strings, as with grep -F");
    }
    if (o->word_or_line) {
      throw CLI::ValidationError("-w/-x", "a match is its bytes anywhere in the text, not whole words or lines");
    }
    if (max_count->count() > 0 && o->max_count < 0) {
      throw CLI::ValidationError("--max-count", "NUM must be 0 or more, not " + std::to_string(o->max_count));
    }
    // --include, --exclude and --exclude-dir in the order given (grep's last matching one decides): the
    // parse order names an option once per occurrence, its results hold its globs in order.
    std::array<std::size_t, 3> taken{};
    for (const CLI::Option* given : search->parse_order()) {
      for (std::size_t k = 0; k < globs.size(); ++k) {
        const std::vector<std::string>& given_globs = globs[k].first->results();
        if (given == globs[k].first && taken[k] < given_globs.size()) {
          o->filters.add(globs[k].second, given_globs[taken[k]++]);
        }
      }
    }
    o->raw_given = raw->count() > 0;
    o->hex_given = hex->count() > 0;
    run = [o] { return run_search(*o); };
  });
}

}  // namespace cudamatch::cli
