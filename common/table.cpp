#include "common/table.hpp"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace cudamatch {

namespace {
bool looks_numeric(const std::string& cell) {
  return !cell.empty() && (std::isdigit(static_cast<unsigned char>(cell[0])) || cell[0] == '-' || cell[0] == '+');
}
}  // namespace

Table::Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}

void Table::add_row(std::vector<std::string> cells) {
  if (cells.size() != headers_.size()) throw std::invalid_argument("table row has the wrong number of cells");
  rows_.push_back(std::move(cells));
}

void Table::print(std::ostream& out) const {
  // A column is right-aligned when every cell in it is a number (first column: always left).
  std::vector<std::size_t> width(headers_.size());
  std::vector<bool> right(headers_.size(), false);
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    width[c] = headers_[c].size();
    right[c] = c > 0 && !rows_.empty();
    for (const auto& row : rows_) {
      width[c] = std::max(width[c], row[c].size());
      right[c] = right[c] && (row[c].empty() || looks_numeric(row[c]));
    }
  }
  auto print_row = [&](const std::vector<std::string>& cells, bool header) {
    std::ostringstream line;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      line << (c == 0 ? "" : "  ") << (right[c] && !header ? std::right : std::left)
           << std::setw(static_cast<int>(width[c])) << cells[c];
    }
    std::string text = line.str();
    text.erase(text.find_last_not_of(' ') + 1);
    out << text << '\n';
  };
  print_row(headers_, true);
  std::size_t total = 0;
  for (std::size_t w : width) total += w + 2;
  out << std::string(total - 2, '-') << '\n';
  for (const auto& row : rows_) print_row(row, false);
}

std::string fixed(double value, int decimals) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(decimals) << value;
  return s.str();
}

}  // namespace cudamatch
