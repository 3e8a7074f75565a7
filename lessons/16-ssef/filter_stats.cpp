// Lesson 16, side program: what SSEF's filter lets through, counted on the host over the corpora. For
// each pattern length, patterns drawn from the corpus (as the experiment draws them), and two choices of
// fingerprint bits: the published fixed bit 7 (m >= 31 only: the published SSEF has no shorter blocks)
// and the bits chosen from the pattern (ssef_plan.hpp). Per examined block: how often its bucket is not
// empty, how many alignments it proposes (the verifications a kernel starts), and how many of those
// survive the comparison of the block itself with the pattern bytes it faces (v2's first check).
//
//   ./build/default/bin/16-ssef-filter [--lengths 2,4,...] [--patterns 5] [--corpora bible.txt,E.coli]
#include <iostream>
#include <string>
#include <vector>

#include "common/cli_parse.hpp"
#include "common/corpus.hpp"
#include "common/random.hpp"
#include "common/table.hpp"
#include "ssef_plan.hpp"

using namespace cudamatch;
using namespace cudamatch::lesson16;

namespace {

struct Options {
  std::vector<std::size_t> lengths = {2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  std::vector<std::string> corpora = {"E.coli", "bible.txt"};
  std::size_t patterns = 5;
};

struct Sums {
  double hit_percent = 0, proposed = 0, same_block = 0;
  void add(const FilterCounts& c) {
    const double examined = c.examined > 0 ? static_cast<double>(c.examined) : 1.0;
    hit_percent += 100.0 * static_cast<double>(c.hits) / examined;
    proposed += static_cast<double>(c.proposed) / examined;
    same_block += static_cast<double>(c.same_block) / examined;
  }
};

std::string bits_of(const Plan& plan) {
  if (plan.block <= 2) return "bytes";
  std::string s;
  for (unsigned u = 0; u < 16 / plan.block; ++u) s += (u ? "," : "") + std::to_string(plan.bits[u]);
  return s;
}

void run_corpus(const Options& o, const std::string& name) {
  const Corpus corpus = load_corpus(name, default_data_dir(), &std::cerr);
  Table table({"m", "B", "L", "bit 7: hit %", "bit 7: proposed", "chosen bits", "hit %", "proposed", "same block"});
  Rng rng(77);
  for (std::size_t m : o.lengths) {
    Sums fixed7, chosen;
    std::string chosen_bits;
    Plan plan{};
    for (std::size_t p = 0; p < o.patterns; ++p) {
      const ByteView pattern(corpus.bytes.data() + rng.below(corpus.bytes.size() - m + 1), m);
      plan = make_plan(pattern);
      chosen.add(count_filter(plan, pattern, corpus.bytes));
      chosen_bits += (p ? " " : "") + bits_of(plan);
      if (plan.block == 16) fixed7.add(count_filter(make_plan_with_bits(m, {7}), pattern, corpus.bytes));
    }
    const double k = static_cast<double>(o.patterns);
    const bool published = plan.block == 16;
    table.add_row({std::to_string(m), std::to_string(plan.block), std::to_string(plan.stride),
                   published ? fixed(fixed7.hit_percent / k, 2) : "-", published ? fixed(fixed7.proposed / k, 2) : "-",
                   chosen_bits, fixed(chosen.hit_percent / k, 2), fixed(chosen.proposed / k, 4),
                   fixed(chosen.same_block / k, 4)});
  }
  std::cout << "\n"
            << name << (corpus.synthetic ? " (SYNTHETIC stand-in)" : "") << ", " << corpus.bytes.size()
            << " bytes; per examined block, mean over " << o.patterns << " patterns drawn from the text\n";
  table.print(std::cout);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 16: what SSEF's filter lets through with bit 7 and with the chosen bits"};
  Options o;
  add_lengths_option(app, o.lengths, std::size_t{1} << 20);
  add_corpora_options(app, o.corpora, o.patterns, 1000, "");
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  for (const std::string& name : o.corpora) run_corpus(o, name);
  return 0;
}
