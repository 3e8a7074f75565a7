#include "common/generators.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "common/random.hpp"

namespace cudamatch {

namespace {

// Draws an index with the given (unnormalized) weights by inverting the cumulative distribution.
class WeightedChoice {
 public:
  template <class Weights>
  explicit WeightedChoice(const Weights& weights) {
    double total = 0.0;
    for (double w : weights) cumulative_.push_back(total += w);
  }
  std::size_t draw(Rng& rng) const {
    const double x = rng.unit() * cumulative_.back();
    const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), x);
    return std::min<std::size_t>(static_cast<std::size_t>(it - cumulative_.begin()), cumulative_.size() - 1);
  }

 private:
  std::vector<double> cumulative_;
};

// Letter frequencies of English text (percent), a..z.
constexpr std::array<double, 26> kLetterFrequency = {8.2,  1.5,  2.8, 4.3,  12.7, 2.2,  2.0, 6.1,   7.0,
                                                     0.15, 0.77, 4.0, 2.4,  6.7,  7.5,  1.9, 0.095, 6.0,
                                                     6.3,  9.1,  2.8, 0.98, 2.4,  0.15, 2.0, 0.074};

// Word lengths 1..15 as counted in bible.txt (thousands of words).
constexpr std::array<double, 15> kWordLength = {19.5, 126.7, 214.4, 170.4, 93.1, 51.1, 38.2, 24.1,
                                                16.2, 7.4,   3.8,   1.7,   0.9,  0.3,  0.1};

std::vector<std::string> make_vocabulary(std::size_t size, Rng& rng) {
  const WeightedChoice letter(kLetterFrequency);
  const WeightedChoice length(kWordLength);
  std::vector<std::string> words(size);
  for (auto& word : words) {
    const std::size_t len = length.draw(rng) + 1;
    for (std::size_t i = 0; i < len; ++i) word.push_back(static_cast<char>('a' + letter.draw(rng)));
  }
  return words;
}

}  // namespace

std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned alphabet_size, std::uint64_t seed) {
  if (alphabet_size < 1 || alphabet_size > 256) throw std::invalid_argument("alphabet size must be 1..256");
  Rng rng(seed);
  std::vector<std::uint8_t> bytes(n);
  for (auto& b : bytes) b = static_cast<std::uint8_t>('a' + rng.below(alphabet_size));
  return bytes;
}

std::vector<std::uint8_t> random_dna(std::size_t n, std::uint64_t seed) {
  static constexpr std::array<double, 4> kComposition = {24.62, 25.42, 25.36, 24.59};
  static constexpr char kBases[] = "acgt";
  const WeightedChoice base(kComposition);
  Rng rng(seed);
  std::vector<std::uint8_t> bytes(n);
  for (auto& b : bytes) b = static_cast<std::uint8_t>(kBases[base.draw(rng)]);
  return bytes;
}

std::vector<std::uint8_t> random_english(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  constexpr std::size_t kVocabulary = 4096;
  const std::vector<std::string> words = make_vocabulary(kVocabulary, rng);
  std::vector<double> zipf(kVocabulary);
  for (std::size_t r = 0; r < kVocabulary; ++r) zipf[r] = 1.0 / static_cast<double>(r + 1);
  const WeightedChoice word(zipf);

  std::string text;
  text.reserve(n + 32);
  std::size_t line_start = 0;
  bool sentence_start = true;
  while (text.size() < n) {
    std::string w = words[word.draw(rng)];
    if (sentence_start) w[0] = static_cast<char>(w[0] - 'a' + 'A');
    text += w;
    sentence_start = false;
    const double p = rng.unit();
    if (p < 0.06) {
      text += '.';
      sentence_start = true;
    } else if (p < 0.12) {
      text += ',';
    } else if (p < 0.13) {
      text += ';';
    }
    if (text.size() - line_start > 70) {
      text += '\n';
      line_start = text.size();
    } else {
      text += ' ';
    }
  }
  text.resize(n);
  return std::vector<std::uint8_t>(text.begin(), text.end());
}

std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo, float hi) {
  Rng rng(seed);
  std::vector<float> values(n);
  const double span = static_cast<double>(hi) - lo;
  for (auto& v : values) v = static_cast<float>(lo + span * rng.unit());
  return values;
}

}  // namespace cudamatch
