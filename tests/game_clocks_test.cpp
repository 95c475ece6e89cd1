// moon match's clocks under --tc: every move charged what it took, to the microsecond.
#include <doctest/doctest.h>

#include <chrono>

#include "cli/external_engine.hpp"

using namespace moon;
using moon::cli::GameClocks;
using std::chrono::microseconds;

TEST_CASE("match clocks: moves quicker than a millisecond are charged, the increment given after") {
  GameClocks clocks{10'000, 10'000, 0};  // 10 ms each, no increment
  // Ninety moves of 100 us: 9 ms gone (counted in whole milliseconds, they had cost nothing).
  for (int i = 0; i < 90; ++i) {
    REQUIRE_FALSE(clocks.late(x, microseconds(100)));
    clocks.charge(x, microseconds(100));
  }
  CHECK(clocks.left_us(x) == 1'000);
  CHECK(clocks.left_us(o) == 10'000);  // the other side's untouched
  CHECK(GameClocks::ms(clocks.left_us(x)) == 1);
  CHECK_FALSE(clocks.late(x, microseconds(1'000)));  // exactly the time left is in time
  CHECK(clocks.late(x, microseconds(1'001)));
  clocks.charge(x, microseconds(999));
  CHECK(clocks.left_us(x) == 1);
  CHECK(GameClocks::ms(clocks.left_us(x)) == 0);  // engines are told whole milliseconds

  GameClocks with_increment{5'000, 5'000, 2'000};
  with_increment.charge(o, microseconds(6'500));  // charged, then given the increment
  CHECK(with_increment.left_us(o) == 500);
  with_increment.charge(o, microseconds(0));
  CHECK(with_increment.left_us(o) == 2'500);

  // The largest --tc (10^9 s and as much a move) for the longest game: the clock stops growing
  // at max_us, far from overflow.
  GameClocks huge{1'000'000'000'000'000, 1'000'000'000'000'000, 1'000'000'000'000'000};
  for (int i = 0; i < 12'000; ++i) huge.charge(x, microseconds(0));
  CHECK(huge.left_us(x) == GameClocks::max_us);
}
