#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "common/corpus.hpp"
#include "common/file_io.hpp"
#include "common/generators.hpp"
#include "temp_files.hpp"

using namespace cudamatch;
using cudamatch::testing::make_temp_dir;

TEST_CASE("read_file is binary-safe", "[files]") {
  const std::string dir = make_temp_dir();
  const auto data = random_bytes(300001, 256, 3);  // NUL, 0xFF, odd size, several read buffers
  write_file(dir + "/blob", data);
  CHECK(read_file(dir + "/blob") == data);
  write_file(dir + "/empty", {});
  CHECK(read_file(dir + "/empty").empty());
}

TEST_CASE("read_file errors name the file and the reason", "[files]") {
  const std::string dir = make_temp_dir();
  CHECK_THROWS_WITH(read_file(dir + "/missing"), Catch::Contains("missing") && Catch::Contains("No such file"));
  CHECK_THROWS_WITH(read_file(dir), Catch::Contains("is a directory"));
  if (::geteuid() != 0) {  // root reads anything
    write_file(dir + "/secret", {1, 2, 3});
    ::chmod((dir + "/secret").c_str(), 0);
    CHECK_THROWS_WITH(read_file(dir + "/secret"), Catch::Contains("Permission denied"));
  }
}

TEST_CASE("corpora fall back to same-size synthetic stand-ins and say so", "[corpus]") {
  const std::string empty_dir = make_temp_dir();
  for (const auto& spec : corpus_specs()) {
    std::ostringstream notes;
    const Corpus corpus = load_corpus(spec.name, empty_dir, &notes);
    CHECK(corpus.synthetic);
    CHECK(corpus.bytes.size() == spec.size);
    CHECK(corpus.bytes == synthetic_corpus(spec));
    CHECK_THAT(notes.str(), Catch::Contains(spec.name) && Catch::Contains("synthetic"));
  }
  const auto ecoli = load_corpus("E.coli", empty_dir).bytes;
  CHECK(std::all_of(ecoli.begin(), ecoli.end(),
                    [](std::uint8_t b) { return b == 'a' || b == 'c' || b == 'g' || b == 't'; }));
  CHECK(load_corpus("bible.txt", empty_dir).bytes != load_corpus("world192.txt", empty_dir).bytes);
  CHECK_THROWS_AS(load_corpus("nonsense.txt", empty_dir), std::invalid_argument);
}

TEST_CASE("a corpus file of the wrong size is not used", "[corpus]") {
  const std::string dir = make_temp_dir();
  write_file(dir + "/E.coli", {'a', 'c'});
  std::ostringstream notes;
  const Corpus corpus = load_corpus("E.coli", dir, &notes);
  CHECK(corpus.synthetic);
  CHECK_THAT(notes.str(), Catch::Contains("has 2 bytes"));
}

TEST_CASE("the real corpora load when the datasets cache has them", "[corpus]") {
  const std::string dir = default_data_dir();
  for (const auto& spec : corpus_specs()) {
    struct stat info {};
    if (::stat((dir + "/" + spec.name).c_str(), &info) != 0) {
      WARN(spec.name << " is not in " << dir << " (python3 datasets/fetch.py): only the fallback was tested");
      continue;
    }
    const Corpus corpus = load_corpus(spec.name, dir);
    CHECK_FALSE(corpus.synthetic);
    CHECK(corpus.bytes.size() == spec.size);
  }
}
