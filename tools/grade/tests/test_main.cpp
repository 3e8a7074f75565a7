// The grader's tests are host-only: Catch2's own main (tests/support's main is for GPU tests).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
