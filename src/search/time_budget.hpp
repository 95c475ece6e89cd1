// Time management: how long a search may take under the limits it was given.
#pragma once

#include <algorithm>
#include <cstdint>

#include "moon/search.hpp"

namespace moon::search {

struct TimeBudget {
  std::int64_t soft_ms = 0;  // no new iteration is started after half of it; 0: none
  std::int64_t hard_ms = 0;  // the search is stopped at it; 0: none
};

// A fixed move time is spent whole. With a clock, the move gets a share of the time left
// (as if 25 more moves were to come) plus most of the increment, at most a third of what is
// left; the search may overrun that up to four times while an iteration runs, never past half
// of the time left, and a margin is kept for the frontend's own delays.
inline TimeBudget plan_time(const SearchLimits& limits) {
  if (limits.infinite) return {};
  if (limits.movetime_ms > 0) return {limits.movetime_ms, limits.movetime_ms};
  if (limits.time_left_ms <= 0) return {};
  const std::int64_t margin = std::min<std::int64_t>(50, limits.time_left_ms / 10);
  const std::int64_t available = std::max<std::int64_t>(1, limits.time_left_ms - margin);
  const std::int64_t soft =
      std::max<std::int64_t>(1, std::min(available / 25 + limits.increment_ms * 3 / 4, available / 3));
  const std::int64_t hard = std::max<std::int64_t>(1, std::min(available / 2, soft * 4));
  return {soft, std::max(soft, hard)};
}

}  // namespace moon::search
