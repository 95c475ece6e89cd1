#include <doctest/doctest.h>

#include "moon/notation.hpp"

using namespace moon;

TEST_CASE("the start position string round-trips") {
  const auto pos = parse_position(start_position_string);
  REQUIRE(pos.has_value());
  CHECK(*pos == Position::start());
  CHECK(to_string(*pos) == start_position_string);
}
