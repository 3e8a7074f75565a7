// A plain-text table for the drivers' results: a header row, aligned columns, numbers right-aligned.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace cudamatch {

class Table {
 public:
  explicit Table(std::vector<std::string> headers);
  void add_row(std::vector<std::string> cells);
  void print(std::ostream& out) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<std::string>> rows_;
};

// `value` with `decimals` digits after the point.
std::string fixed(double value, int decimals);

}  // namespace cudamatch
