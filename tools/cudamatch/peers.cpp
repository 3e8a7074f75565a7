#include "peers.hpp"

#include <algorithm>

#include "pattern_source.hpp"
#include "peer_hyperscan.hpp"

namespace cudamatch::cli {

namespace {

constexpr const char* kHyperscan = "hyperscan";

bool built_in(const std::string& name) { return name != kHyperscan || hyperscan_version().has_value(); }

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string listed(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace

const std::vector<std::string>& peer_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = comparison_names();
    all.emplace_back(kHyperscan);
    return all;
  }();
  return names;
}

std::string hyperscan_status() {
  if (const auto version = hyperscan_version()) return "Hyperscan " + *version + " built in (cudamatch bench --peers)";
  return "Hyperscan not built in (to add it: apt-get install libhyperscan-dev, then configure and build again)";
}

std::vector<std::string> choose_peers(const std::vector<std::string>& requested, std::ostream& notes) {
  std::vector<std::string> chosen;
  for (const std::string& name : requested) {
    if (name.empty() || contains(chosen, name)) continue;
    if (!contains(peer_names(), name)) throw UsageError("unknown peer '" + name + "' (" + listed(peer_names()) + ")");
    if (!built_in(name)) throw UsageError("--peers " + name + ": " + hyperscan_status());
    chosen.push_back(name);
  }
  if (!chosen.empty()) return chosen;
  for (const std::string& name : peer_names()) {
    if (built_in(name)) chosen.push_back(name);
  }
  if (!built_in(kHyperscan)) notes << "cudamatch: no hyperscan row: " << hyperscan_status() << '\n';
  return chosen;
}

std::unique_ptr<CpuMatcher> make_peer_matcher(const std::string& name, ByteView pattern) {
  return name == kHyperscan ? make_hyperscan_matcher(pattern) : make_comparison_matcher(name, pattern);
}

}  // namespace cudamatch::cli
