// The score scale of the search: heuristic scores and proven results on one int scale.
//
// Scores are from the side to move's view. A game-over position the side to move has won
// scores score_win, one it has lost -score_win, a drawn one 0. A win in N plies from the
// current position is score_win - N, a loss in N plies -(score_win - N): faster wins and
// slower losses are preferred. Heuristic scores are kept strictly inside
// (-score_proven_min, score_proven_min), so a heuristic score is never mistaken for a proven
// one. A proven draw is also 0 on this scale; ScoreInfo (from the search) says whether a 0 is
// a proven draw or a heuristic balance.
#pragma once

#include <cstdlib>
#include <string>

namespace moon {

using Score = int;                         // from the side to move's view
inline constexpr Score score_win = 30000;  // a won game-over position is score_win; win in N plies = score_win - N
inline constexpr Score score_infinite = 32000;
// Scores with |s| >= score_proven_min are proven wins/losses; heuristic scores stay strictly inside.
inline constexpr Score score_proven_min = score_win - 1000;
// The largest heuristic score the evaluation may return (clamped there).
inline constexpr Score score_heuristic_max = score_proven_min - 1;

enum class ScoreKind { heuristic, win, loss, draw };
struct ScoreInfo {
  ScoreKind kind;
  int value;  // heuristic: centi-counters; win/loss: plies to the end; draw: 0
  friend constexpr bool operator==(const ScoreInfo&, const ScoreInfo&) = default;
};

constexpr Score win_in(int plies) { return score_win - plies; }
constexpr Score loss_in(int plies) { return -(score_win - plies); }
constexpr bool is_proven_win(Score s) { return s >= score_proven_min; }
constexpr bool is_proven_loss(Score s) { return s <= -score_proven_min; }
constexpr bool is_proven_decisive(Score s) { return is_proven_win(s) || is_proven_loss(s); }

// Describes a score; `proven_draw` says a score of 0 is an exact draw, not a heuristic balance.
constexpr ScoreInfo score_info(Score s, bool proven_draw = false) {
  if (is_proven_win(s)) return {ScoreKind::win, score_win - s};
  if (is_proven_loss(s)) return {ScoreKind::loss, score_win + s};
  if (proven_draw && s == 0) return {ScoreKind::draw, 0};
  return {ScoreKind::heuristic, s};
}

// A win or loss the game ends in within `depth` plies, found by a search of that depth: the
// fastest win or the longest defence, which deeper iterations cannot change.
constexpr bool is_settled_within(const ScoreInfo& info, int depth) {
  return (info.kind == ScoreKind::win || info.kind == ScoreKind::loss) && info.value <= depth;
}

// Proven scores are stored in a transposition table relative to the node that stores them
// ("win in N plies from here"), and converted back relative to the root when read at `ply`.
constexpr Score score_to_table(Score s, int ply) {
  return is_proven_win(s) ? s + ply : is_proven_loss(s) ? s - ply : s;
}
constexpr Score score_from_table(Score s, int ply) {
  return is_proven_win(s) ? s - ply : is_proven_loss(s) ? s + ply : s;
}

// "win 7", "loss 12", "draw", "cp 150" (the form the moon program prints).
std::string to_string(ScoreInfo info);

}  // namespace moon
