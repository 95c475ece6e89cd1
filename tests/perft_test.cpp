#include <doctest/doctest.h>

#include "moon/notation.hpp"
#include "moon/perft.hpp"
#include "perft_data.hpp"

using namespace moon;

TEST_CASE("perft from the start is 24!/(24-n)! for depths 1 to 6") {
  const Position start = Position::start();
  Count expected = 1;
  for (int depth = 1; depth <= 6; ++depth) {
    expected *= Count(25 - depth);
    CHECK(perft_count(start, depth) == expected);
  }
}

TEST_CASE("every count of the independent reference file") {
  for (const auto& c : test::read_perft_file(MOON_TEST_DATA "/perft-reference.txt")) {
    const auto pos = parse_position(c.position, c.rules);
    REQUIRE_MESSAGE(pos.has_value(), c.position);
    for (std::size_t i = 0; i < c.counts.size(); ++i) {
      INFO("line ", c.line, ": ", c.flags, "|", c.position, " depth ", i + 1);
      CHECK(perft_count(*pos, int(i) + 1) == c.counts[i]);
    }
  }
}
