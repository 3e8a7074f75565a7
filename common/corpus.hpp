// The benchmark corpora (the Canterbury large corpus), loaded from the datasets cache, or, when a
// file is absent, a deterministic synthetic stand-in of the same size, announced on stderr.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace cudamatch {

enum class CorpusKind { english, dna };

struct CorpusSpec {
  std::string name;  // file name in the cache: bible.txt, E.coli, world192.txt
  std::size_t size;  // bytes of the published file
  CorpusKind kind;   // what the synthetic stand-in imitates
};

// The three corpora, in the order the benchmark reports them.
const std::vector<CorpusSpec>& corpus_specs();

// The spec named `name`, or nullptr when it is none of corpus_specs().
const CorpusSpec* find_corpus_spec(const std::string& name);

// What to say of a name that is none of them: "unknown corpus 'NAME' (bible.txt, E.coli, world192.txt)".
std::string unknown_corpus_text(const std::string& name);

struct Corpus {
  std::string name;
  std::vector<std::uint8_t> bytes;
  bool synthetic = false;
  std::string source;  // the file read, or a description of the stand-in
};

// $CUDAMATCH_DATA when set, else the repository's datasets/cache (where datasets/fetch.py stores).
std::string default_data_dir();

// Loads corpus `name` from `data_dir`. A missing file or one of the wrong size is replaced by a
// synthetic stand-in, and one line saying so goes to `notes` (when not null). Throws
// std::invalid_argument for a name that is not one of corpus_specs().
Corpus load_corpus(const std::string& name, const std::string& data_dir = default_data_dir(),
                   std::ostream* notes = nullptr);

// `corpus` repeated (the last copy cut short) until it fills `bytes`: the large device-resident texts
// of the throughput experiments, whose statistics are the corpus's.
std::vector<std::uint8_t> repeat_to(const std::vector<std::uint8_t>& corpus, std::size_t bytes);

// The stand-in alone (what load_corpus falls back to).
std::vector<std::uint8_t> synthetic_corpus(const CorpusSpec& spec);

}  // namespace cudamatch
