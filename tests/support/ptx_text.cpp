#include "ptx_text.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace cudamatch::testing {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string ptx_entry(const std::string& ptx, const std::vector<std::string>& name_parts) {
  constexpr auto npos = std::string::npos;
  for (std::size_t at = ptx.find(".entry "); at != npos; at = ptx.find(".entry ", at + 1)) {
    const std::size_t params = ptx.find('(', at);
    if (params == npos) return "";
    const std::string name = ptx.substr(at, params - at);
    bool all = true;
    for (const auto& part : name_parts) all = all && name.find(part) != npos;
    if (!all) continue;
    // The body: from the first brace after the parameter list to the one that balances it (the body
    // nests blocks of its own; comments are skipped in case one holds a brace).
    const std::size_t params_end = ptx.find(')', params);
    int depth = 0;
    for (std::size_t i = params_end == npos ? npos : ptx.find('{', params_end); i < ptx.size(); ++i) {
      if (ptx.compare(i, 2, "//") == 0) {
        i = ptx.find('\n', i);
        if (i == npos) break;
      } else if (ptx[i] == '{') {
        ++depth;
      } else if (ptx[i] == '}' && --depth == 0) {
        return ptx.substr(at, i + 1 - at);
      }
    }
    return "";
  }
  return "";
}

std::string compiled_kernel(const std::string& path, const std::vector<std::string>& name_parts) {
  const std::string ptx = read_text(path);
  if (ptx.find(".entry") == std::string::npos) throw std::runtime_error(path + ": no PTX kernel (was it compiled?)");
  std::string entry = ptx_entry(ptx, name_parts);
  if (entry.empty()) {
    std::string name;
    for (const auto& part : name_parts) name += (name.empty() ? "" : ", ") + part;
    throw std::runtime_error(path + ": no kernel whose name contains " + name);
  }
  return entry;
}

}  // namespace cudamatch::testing
