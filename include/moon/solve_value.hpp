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
#include <string>

namespace moon {

using SolveValue = int;

inline constexpr SolveValue solve_win = 30000;
// A game of the longest clock limit (255) lasts fewer plies than this (24 placements, then at
// most 23 capture-free stretches of at most 2 * 255 plies, a pass between every two moves).
inline constexpr int solve_max_plies = 12000;
inline constexpr SolveValue solve_min_win = solve_win - solve_max_plies;  // every win is >= this

constexpr SolveValue solve_win_in(int plies) { return solve_win - plies; }
constexpr SolveValue solve_loss_in(int plies) { return -(solve_win - plies); }
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
  if (beta <= -solve_min_win) return beta + solve_win - 1;  // beta = solve_loss_in(q): not lost within q - 1
  return no_horizon;
}

// Fail-soft bounds may lie in the empty gap around the draw. No value does: an upper bound in
// (0, solve_min_win) says "not a win", that is at most a draw, and a lower bound in
// (-solve_min_win, 0) "not a loss". These give the bound the draw would.
constexpr SolveValue tight_upper(SolveValue upper) { return upper > 0 && upper < solve_min_win ? 0 : upper; }
constexpr SolveValue tight_lower(SolveValue lower) { return lower < 0 && lower > -solve_min_win ? 0 : lower; }

// What is known so far of a value proven to lie in [lower, upper], for progress lines: "value
// win in 28 plies", "value win in 28 or more plies", "value loss in 12 to 20 plies", "value
// draw", "value between loss in 20 and win in 23". Fail-soft bounds may lie in the empty gap
// around the draw: a lower bound of 17 says "a win" with no distance, an upper bound of 16 says
// "not a win", that is at most a draw. They are read as such, never shown as a distance near
// solve_win.
inline std::string describe_bounds(SolveValue lower, SolveValue upper) {
  upper = tight_upper(upper);
  lower = tight_lower(lower);
  const auto has_distance = [](SolveValue v) { return v >= solve_min_win || v <= -solve_min_win; };
  const auto plies = [](SolveValue v) { return std::to_string(plies_of(v)); };
  if (lower > 0 || upper < 0) {
    // The outcome is known. A win's fewest plies come from its upper bound, a loss's from its
    // lower one (both have a distance: they bound a real win or loss); the other bound gives
    // the most plies, if it has a distance.
    const bool win = lower > 0;
    const SolveValue fewest = win ? upper : lower, most = win ? lower : upper;
    std::string text = std::string("value ") + (win ? "win in " : "loss in ") + plies(fewest);
    if (!has_distance(most)) return text + " or more plies";
    if (plies_of(most) != plies_of(fewest)) text += " to " + plies(most);
    return text + (plies_of(most) == 1 ? " ply" : " plies");
  }
  if (lower == 0 && upper == 0) return "value draw";
  const auto text = [&](SolveValue v) { return v == 0 ? std::string("draw") : (v > 0 ? "win in " : "loss in ") + plies(v); };
  return "value between " + text(lower) + " and " + text(upper);
}

}  // namespace moon
