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
  std::vector<std::size_t> width(headers_.size());
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    width[c] = headers_[c].size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  auto print_row = [&](const std::vector<std::string>& cells, bool header) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const bool right = !header && c > 0 && looks_numeric(cells[c]);
      const bool last = c + 1 == cells.size();
      out << (c == 0 ? "" : "  ") << (right ? std::right : std::left)
          << std::setw(right || !last ? static_cast<int>(width[c]) : 0) << cells[c];
    }
    out << std::left << '\n';
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
