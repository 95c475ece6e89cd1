// The search's time planning (src/search/time_budget.hpp).
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <utility>

#include "moon/search.hpp"
#include "search/time_budget.hpp"

using namespace moon;

TEST_CASE("time planning: a share of the clock, and no overflow whatever the times") {
  SearchLimits clock;
  clock.time_left_ms = 60000;
  clock.increment_ms = 1003;
  // 50 ms kept back; 59950 / 25 + 1003 * 3 / 4 (2398 + 752), at most four times that while an
  // iteration runs, at most half of what is left.
  search::TimeBudget budget = search::plan_time(clock);
  CHECK(budget.soft_ms == 3150);
  CHECK(budget.hard_ms == 12600);
  clock.time_left_ms = 1000;
  clock.increment_ms = 0;
  budget = search::plan_time(clock);
  CHECK(budget.soft_ms == 38);  // (1000 - 50) / 25
  CHECK(budget.hard_ms == 152);
  // A large increment: the share is capped at a third of what is left (950 / 3, not
  // 38 + 950 * 3 / 4), and the stop then at half of it (475, not four times the share).
  clock.time_left_ms = 1000;
  clock.increment_ms = 1000;
  budget = search::plan_time(clock);
  CHECK(budget.soft_ms == 316);
  CHECK(budget.hard_ms == 475);
  // Times a frontend may pass through the C API: the budget stays within the time left (under
  // UndefinedBehaviorSanitizer in CI, an overflowing product would fail this case).
  constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
  const std::pair<std::int64_t, std::int64_t> extremes[] = {{most, most}, {most, most / 3}, {1000, most}};
  for (const auto& [left, increment] : extremes) {
    clock.time_left_ms = left;
    clock.increment_ms = increment;
    budget = search::plan_time(clock);
    CHECK(budget.soft_ms >= 1);
    CHECK(budget.soft_ms <= budget.hard_ms);
    CHECK(budget.hard_ms <= left / 2);
  }
}

TEST_CASE("time planning: iterations start until half the share is spent, none after the first at under 50 ms") {
  SearchLimits clock;
  clock.time_left_ms = 1000;  // a share of 38 ms: iterations start until 19 ms
  CHECK(search::plan_time(clock).starts_next_iteration(0));
  CHECK(search::plan_time(clock).starts_next_iteration(18999));
  CHECK_FALSE(search::plan_time(clock).starts_next_iteration(19000));
  clock.time_left_ms = 60;  // 6 ms kept back; 54 / 25: a share of 2 ms, so until 1 ms
  REQUIRE(search::plan_time(clock).soft_ms == 2);
  CHECK(search::plan_time(clock).starts_next_iteration(999));
  CHECK_FALSE(search::plan_time(clock).starts_next_iteration(1000));
  clock.time_left_ms = 30;  // 3 ms kept back; 27 / 25: a share of 1 ms, the first iteration only
  REQUIRE(search::plan_time(clock).soft_ms == 1);
  CHECK_FALSE(search::plan_time(clock).starts_next_iteration(0));
  // The largest clock's share (about 3.7 * 10^17 ms) is further off than the most microseconds
  // (about 9.2 * 10^18): no product overflows on the way to saying so.
  constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
  clock.time_left_ms = most;
  CHECK(search::plan_time(clock).starts_next_iteration(most));
  // No budget (a depth or node limit, or infinite): always.
  CHECK(search::TimeBudget{}.starts_next_iteration(most));
}

TEST_CASE("time planning: a move time alone is spent whole; with a clock, the first limit reached ends it") {
  SearchLimits fixed;
  fixed.movetime_ms = 3000;
  search::TimeBudget budget = search::plan_time(fixed);
  CHECK(budget.hard_ms == 3000);
  CHECK(budget.soft_ms == 0);  // iterations go on starting until the move time stops the search
  CHECK(budget.starts_next_iteration(2'999'000));

  // 200 ms on the clock: the clock's plan ((200 - 20) / 25 = 7 ms, stopped at four times
  // that, 28 ms), not the 3 s of the move time.
  SearchLimits both = fixed;
  both.time_left_ms = 200;
  SearchLimits clock_alone;
  clock_alone.time_left_ms = 200;
  budget = search::plan_time(both);
  CHECK(budget.soft_ms == search::plan_time(clock_alone).soft_ms);
  CHECK(budget.hard_ms == search::plan_time(clock_alone).hard_ms);
  CHECK(budget.hard_ms == 28);
  CHECK_FALSE(budget.starts_next_iteration(budget.soft_ms * 500));

  // A move time shorter than the clock's plan stops the search sooner.
  both.movetime_ms = 10;
  budget = search::plan_time(both);
  CHECK(budget.hard_ms == 10);
  CHECK(budget.soft_ms == 7);

  // An infinite search has no budget, whatever else was given.
  both.infinite = true;
  CHECK(search::plan_time(both).hard_ms == 0);
}
