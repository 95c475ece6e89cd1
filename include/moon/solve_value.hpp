// Proven game values on one integer scale, as the exact solver and its tests use them.
//
// The value of a position is from the side to move's view and relative to that position
// (no ply-from-root adjustment, so a value stored in the table holds wherever it is read):
//   win in p plies  ->  solve_win - p      (bigger is better: faster wins)
//   draw            ->  0
//   loss in p plies ->  -(solve_win - p)   (bigger is better: slower losses)
// No game lasts anywhere near solve_win plies, so win values are > solve_win / 2, loss values
// < -solve_win / 2, and the scale has a wide empty gap on either side of the draw.
#pragma once

#include <cstdint>

namespace moon {

using SolveValue = int;

inline constexpr SolveValue solve_win = 30000;
// A game of the longest clock limit (255) lasts fewer plies than this (24 placements, then at
// most 23 capture-free stretches of at most 2 * 255 plies, a pass between every two moves).
inline constexpr int solve_max_plies = 12000;
inline constexpr SolveValue solve_min_win = solve_win - solve_max_plies;  // every win is >= this

constexpr SolveValue win_in(int plies) { return solve_win - plies; }
constexpr SolveValue loss_in(int plies) { return -(solve_win - plies); }
constexpr bool is_win(SolveValue v) { return v > 0; }
constexpr bool is_loss(SolveValue v) { return v < 0; }
// Plies to the end of the game of a win or loss value; 0 for a draw.
constexpr int plies_of(SolveValue v) { return v > 0 ? solve_win - v : v < 0 ? solve_win + v : 0; }

// The value a move has for the mover when the position it leads to has value `child`: the
// view flips and a decided game is one ply further away. Strictly decreasing in `child`.
constexpr SolveValue from_child(SolveValue child) {
  return child > 0 ? -child + 1 : child < 0 ? -child - 1 : 0;
}

// The null-window threshold for a child: from_child(child) >= beta exactly when the child's
// value is < child_beta(beta). Holds for every beta the parent can ask about (beta in
// [-solve_win + 1, solve_win]), thanks to the gap around the draw.
constexpr SolveValue child_beta(SolveValue beta) { return beta > 0 ? -beta : 2 - beta; }

// How many plies ahead the null-window question "value >= beta" looks: "won within d plies?"
// looks d ahead, "not lost within d plies?" d ahead; "won?", "not lost?" need the whole game.
// A question that looks fewer plies ahead than the clock has left is settled the same way at
// any clock with that many plies left (no game can end by the clock within the horizon, and a
// capture resets the clock anyway), so its answer holds for the board at all those clocks.
inline constexpr int no_horizon = 1 << 20;
constexpr int horizon(SolveValue beta) {
  if (beta >= solve_min_win) return solve_win - beta;
  if (beta <= -solve_min_win) return beta + solve_win - 1;  // beta = loss_in(q): not lost within q - 1
  return no_horizon;
}

}  // namespace moon
