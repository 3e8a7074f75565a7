// What every lesson driver does around its experiment: refuse clearly without a GPU (exit 2), turn
// an exception into one line on stderr (exit 1), return the experiment's status otherwise.
#pragma once

#include <functional>

namespace cudamatch {

int run_driver(const char* name, const std::function<int()>& experiment);

}  // namespace cudamatch
