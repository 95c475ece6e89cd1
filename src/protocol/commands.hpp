// The arguments of `position` and `go`, read into values: every check happens here, before
// the engine changes anything.
#pragma once

#include <array>
#include <cstdint>
#include <optional>

#include "moon/expected.hpp"
#include "moon/position.hpp"
#include "moon/rules.hpp"
#include "moon/search.hpp"
#include "protocol/words.hpp"

namespace moon::protocol {

// `startpos | fen <position string> [moves <m1> <m2> ...]` (the words after `position`):
// the position reached, under the given rules, or what is wrong with the command.
Expected<Position> parse_position_command(Words words, const Rules& rules);

struct GoCommand {
  int depth = 0;                // 0: not given
  std::uint64_t nodes = 0;      // 0: not given
  std::int64_t movetime_ms = 0; // 0: not given
  // Clocks and increments indexed by Color (xtime/otime, xinc/oinc).
  std::array<std::optional<std::int64_t>, 2> time_ms{}, increment_ms{};
  bool infinite = false;
  std::optional<int> perft_depth;  // `go perft D`
  bool solve = false;              // `go solve`
  bool solve_moves = false;        // `go solve moves`: every legal move's value too

  bool uses_clock() const { return time_ms[0] || time_ms[1]; }
  // Time is short, so a forced move should be played at once rather than searched.
  bool timed() const { return uses_clock() || movetime_ms > 0; }
};

// `[depth D] [nodes N] [movetime MS] [xtime MS otime MS xinc MS oinc MS] [infinite]`, `perft D`
// or `solve [moves]` (the words after `go`). Each keyword at most once; `infinite`, `perft` and
// `solve` stand alone (`moves` only with `solve`).
Expected<GoCommand> parse_go(Words words);

// The search limits for the side to move. The move overhead is kept back from its clock, its
// increment and movetime so that the answer arrives in time; a clock for the side to move is
// required once either clock is given.
Expected<SearchLimits> search_limits(const GoCommand& go, Color side, std::int64_t move_overhead_ms);

}  // namespace moon::protocol
