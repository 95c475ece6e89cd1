// Checks on a search's principal variation, shared by the search tests.
#pragma once

#include <doctest/doctest.h>

#include <vector>

#include "moon/movegen.hpp"
#include "moon/position.hpp"

namespace moon::test {

inline bool pv_is_legal(const Position& root, const std::vector<Move>& pv) {
  Position pos = root;
  for (Move m : pv) {
    if (!legal_moves(pos).contains(m)) return false;
    pos.play(m);
  }
  return true;
}

// A line scored a win (or loss) in `plies` for the root's side to move is legal and, played out,
// ends the game after exactly that many plies with that outcome.
inline void check_line_ends_game(const Position& root, const std::vector<Move>& pv, int plies, bool root_wins) {
  REQUIRE(pv_is_legal(root, pv));
  CHECK(int(pv.size()) == plies);
  Position end = root;
  for (Move m : pv) end.play(m);
  REQUIRE(end.is_over());
  // The exact result: a drawn end is neither side's win.
  const bool x_should_win = (root.side_to_move() == x) == root_wins;
  CHECK(end.result() == (x_should_win ? Result::x_wins : Result::o_wins));
}

}  // namespace moon::test
