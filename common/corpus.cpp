#include "common/corpus.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <ostream>
#include <stdexcept>

#include "common/file_io.hpp"
#include "common/generators.hpp"

namespace cudamatch {

const std::vector<CorpusSpec>& corpus_specs() {
  static const std::vector<CorpusSpec> specs = {
      {"bible.txt", 4047392, CorpusKind::english},
      {"E.coli", 4638690, CorpusKind::dna},
      {"world192.txt", 2473400, CorpusKind::english},
  };
  return specs;
}

std::string default_data_dir() {
  if (const char* dir = std::getenv("CUDAMATCH_DATA"); dir != nullptr && dir[0] != '\0') return dir;
  return CUDAMATCH_DEFAULT_DATA_DIR;
}

std::vector<std::uint8_t> synthetic_corpus(const CorpusSpec& spec) {
  // One fixed seed per corpus, derived from its size, so that the two English stand-ins differ.
  const std::uint64_t seed = 0xC0DA0000ull + spec.size;
  return spec.kind == CorpusKind::dna ? random_dna(spec.size, seed) : random_english(spec.size, seed);
}

const CorpusSpec* find_corpus_spec(const std::string& name) {
  for (const CorpusSpec& spec : corpus_specs()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::string unknown_corpus_text(const std::string& name) {
  std::string names;
  for (const CorpusSpec& spec : corpus_specs()) names += (names.empty() ? "" : ", ") + spec.name;
  return "unknown corpus '" + name + "' (" + names + ")";
}

Corpus load_corpus(const std::string& name, const std::string& data_dir, std::ostream* notes) {
  const CorpusSpec* spec = find_corpus_spec(name);
  if (spec == nullptr) throw std::invalid_argument(unknown_corpus_text(name));

  Corpus corpus;
  corpus.name = name;
  const std::string path = data_dir + "/" + name;
  std::string problem;
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    problem = "not found";
  } else if (static_cast<std::size_t>(info.st_size) != spec->size) {
    problem = "has " + std::to_string(info.st_size) + " bytes, expected " + std::to_string(spec->size);
  } else {
    try {
      corpus.bytes = read_file(path);
      corpus.source = path;
      return corpus;
    } catch (const FileError& e) {
      problem = e.what();
    }
  }
  corpus.bytes = synthetic_corpus(*spec);
  corpus.synthetic = true;
  corpus.source = std::string("synthetic ") + (spec->kind == CorpusKind::dna ? "DNA" : "English-like") +
                  " stand-in of " + std::to_string(spec->size) + " bytes";
  if (notes != nullptr) {
    *notes << "note: " << path << " " << problem << ": using a " << corpus.source
           << " (fetch the corpus with: python3 datasets/fetch.py)\n";
  }
  return corpus;
}

std::vector<std::uint8_t> repeat_to(const std::vector<std::uint8_t>& corpus, std::size_t bytes) {
  std::vector<std::uint8_t> text(bytes);
  if (corpus.empty()) return text;
  for (std::size_t at = 0; at < bytes; at += corpus.size()) {
    std::copy_n(corpus.begin(), std::min(corpus.size(), bytes - at), text.begin() + static_cast<long>(at));
  }
  return text;
}

}  // namespace cudamatch
