#include "text.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace cudamatch::grade {

std::string last_lines(std::string_view text, std::size_t max_lines, std::size_t max_chars) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t newline = std::min(text.find('\n', start), text.size());
    lines.push_back(text.substr(start, newline - start));
    start = newline + 1;
  }
  std::size_t first = lines.size();
  std::size_t used = 0;
  while (first > 0 && lines.size() - first < max_lines && used + lines[first - 1].size() + 1 <= max_chars + 1) {
    used += lines[--first].size() + 1;
  }
  if (first == lines.size()) return std::string(text.substr(text.size() - std::min(text.size(), max_chars)));
  std::string out;
  for (std::size_t i = first; i < lines.size(); ++i) {
    if (i > first) out += '\n';
    out.append(lines[i]);
  }
  return out;
}

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = 0;
    unsigned min_code = 0;
    if (byte < 0x80) {
      length = 1;
    } else if ((byte & 0xE0) == 0xC0) {
      length = 2;
      min_code = 0x80;
    } else if ((byte & 0xF0) == 0xE0) {
      length = 3;
      min_code = 0x800;
    } else if ((byte & 0xF8) == 0xF0) {
      length = 4;
      min_code = 0x10000;
    }
    bool ok = length > 0 && i + length <= text.size();
    unsigned code = length == 1 ? byte : (byte & (0x7F >> length));
    for (std::size_t k = 1; ok && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      ok = (next & 0xC0) == 0x80;
      code = (code << 6) | (next & 0x3F);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not valid UTF-8 either.
    ok = ok && code >= min_code && code <= 0x10FFFF && !(code >= 0xD800 && code <= 0xDFFF);
    if (ok) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out += '?';
      ++i;
    }
  }
  return out;
}

std::string format_number(double value, int decimals) {
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  std::string text = buffer;
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  if (text == "-0") text = "0";
  return text;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(first, last - first + 1));
}

std::string elapsed_stamp() {
  static const auto start = std::chrono::steady_clock::now();
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count();
  char stamp[32];
  std::snprintf(stamp, sizeof stamp, "[%4lld s]", static_cast<long long>(seconds));
  return stamp;
}

}  // namespace cudamatch::grade
