// Time management: how long a search may take under the limits it was given.
#pragma once

#include <algorithm>
#include <cstdint>

#include "moon/search.hpp"

namespace moon::search {

struct TimeBudget {
  std::int64_t soft_ms = 0;  // no new iteration is started after half of it; 0: none (a move time alone)
  std::int64_t hard_ms = 0;  // the search is stopped at it; 0: none

  // Whether a clock's search, `elapsed_us` microseconds in, may start another iteration: not
  // once half of soft_ms is spent (counted in microseconds; elapsed_us / 500 >= soft_ms is
  // elapsed_us >= 500 * soft_ms without the product), and never with a share of 1 ms, which is
  // less than 50 ms left: the first iteration's move, played in microseconds, is then the safe
  // one, since the frontend's own delays, below the clock's whole milliseconds, are not known.
  // (Deepening for half a millisecond there lost games on time under `moon match --tc 0.05`.)
  bool starts_next_iteration(std::int64_t elapsed_us) const {
    return soft_ms == 0 || (soft_ms > 1 && elapsed_us / 500 < soft_ms);
  }
};

// With a clock, the move gets a share of the time left (as if 25 more moves were to come) plus
// most of the increment, at most a third of what is left; the search may overrun that up to
// four times while an iteration runs, never past half of the time left, and a margin is kept
// for the frontend's own delays.
inline TimeBudget plan_clock_time(const SearchLimits& limits) {
  const std::int64_t margin = std::min<std::int64_t>(50, limits.time_left_ms / 10);
  const std::int64_t available = std::max<std::int64_t>(1, limits.time_left_ms - margin);
  // Written so that no product overflows, whatever the (non-negative) times a frontend passes.
  const std::int64_t increment = std::min(limits.increment_ms, available);
  const std::int64_t three_quarters = increment / 4 * 3 + increment % 4 * 3 / 4;
  const std::int64_t soft = std::max<std::int64_t>(1, std::min(available / 25 + three_quarters, available / 3));
  const std::int64_t hard = std::max<std::int64_t>(1, soft <= available / 8 ? soft * 4 : available / 2);
  return {soft, std::max(soft, hard)};
}

// A fixed move time alone is spent whole: no soft limit, the search stops at it. With a clock
// as well, the first limit reached ends the search: the clock's plan, stopped at the move time
// if that comes sooner (a move time that ignored the clock lost on time).
inline TimeBudget plan_time(const SearchLimits& limits) {
  if (limits.infinite) return {};
  const TimeBudget clock = limits.time_left_ms > 0 ? plan_clock_time(limits) : TimeBudget{};
  if (limits.movetime_ms <= 0) return clock;
  if (clock.hard_ms == 0) return {0, limits.movetime_ms};
  return {clock.soft_ms, std::min(clock.hard_ms, limits.movetime_ms)};
}

}  // namespace moon::search
