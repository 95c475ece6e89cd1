// Bounds the exact solver knows without searching: the value of a game that is over, and the
// fewest plies in which a game not yet over can end with a win or with a draw.
#pragma once

#include <algorithm>

#include "moon/position.hpp"
#include "moon/solve_value.hpp"
#include "moon/tables.hpp"

namespace moon {

// The value of a position that is over, for the side to move: more counters wins.
constexpr SolveValue terminal_value(const Position& pos) {
  const int us = pos.count(pos.side_to_move()), them = pos.count(~pos.side_to_move());
  return us > them ? solve_win : us < them ? -solve_win : 0;
}

// The fewest plies in which a game not yet over can end with a win (for either side), which
// bounds every value but a draw: all the remaining placements, then the moves to the clock's
// limit (with equal counts a capture first, which sets the clock to 0: a drawn end may come
// sooner), or, if fewer, the moves a side needs to capture all but one of the other's counters
// (at most most_captured_* a move, on every other ply).
constexpr int min_plies_to_decide(const Position& pos) {
  const int placements = pos.placements_left();
  const int most_captured = pos.rules().diagonal() ? most_captured_with_diagonals : most_captured_orthogonally;
  const auto knockout_plies = [&](Color loser) {
    const int to_capture = pos.counters(loser) - 1;
    return 2 * ((to_capture + most_captured - 1) / most_captured) - 1;
  };
  const int clock_plies =
      pos.counters(x) == pos.counters(o) ? 1 + pos.rules().clock_limit : pos.clock_left();
  const int moves = std::min({clock_plies, knockout_plies(x), knockout_plies(o)});
  return placements + std::max(moves, 0);
}

// The fewest plies in which a game not yet over can end drawn. A capture leaves the capturer
// with at least two counters, so it never ends a game drawn: only the clock does, with equal
// counts, or the last placement, leaving both sides one counter or none. Where the counts
// differ a capture must come first, at the earliest on the next ply, and the clock then runs
// its whole course from 0 (a pass does not move it).
constexpr int min_plies_to_draw(const Position& pos) {
  const int limit = pos.rules().clock_limit;
  if (pos.counters(x) != pos.counters(o)) return pos.placements_left() + 1 + limit;
  if (!pos.in_placement()) return pos.clock_left();
  return pos.placements_left() + (pos.counters(x) <= 1 ? 0 : limit);
}

}  // namespace moon
