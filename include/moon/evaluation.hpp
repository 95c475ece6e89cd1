// The search's static evaluation: a cheap bitboard heuristic in centi-counters, from the side
// to move's view, always strictly inside the heuristic range of score.hpp.
//
// Terms (weights below, named):
// - material: counters on the board and in hand, 100 each. Everything else is a correction.
// - capture threat (movement): the side to move captures first, so the largest capture it
//   has now is worth most of its material.
// - exposure (movement): the counters the opponent could capture with one move after ours;
//   we can answer at most some of them.
// - flank threats: opposing counters in a run with one of our counters at one end and an
//   empty square at the other that we cannot reach at once: a capture one counter away.
// - mobility (movement): legal moves of each side; a side with none must pass.
// - corners: a counter on a corner ends every line through it, so it can never be captured.
// - placement phase: nothing is captured yet. Flank threats on the open squares count for
//   both sides (they may still be filled), and, since c3 stays empty until the movement
//   phase, the capture the first mover would make by moving into c3 counts most.
#pragma once

#include <algorithm>
#include <iterator>
#include <string_view>
#include <utility>

#include "moon/bitboard.hpp"
#include "moon/movegen.hpp"
#include "moon/position.hpp"
#include "moon/score.hpp"
#include "moon/tables.hpp"

namespace moon {

struct EvalWeights {
  int material = 100;            // per counter (board + hand)
  int capture_threat = 70;       // per counter of the side to move's largest capture now
  int exposure = 20;             // per counter of ours the opponent could capture with one move
  int flank_threat = 8;          // per opposing counter one counter-arrival away from capture
  int mobility = 3;              // per legal move more than the opponent
  int corner = 6;                // per counter on a corner
  int placement_threat = 12;     // placement: per counter a counter arriving on an open square would capture
  int first_mover_threat = 40;   // placement: per counter the first move of the movement phase (into c3) captures
  friend constexpr bool operator==(const EvalWeights&, const EvalWeights&) = default;
};

inline constexpr EvalWeights eval_weights{};

// Every weight by name (as `moon match --a-eval` names them), and the range each must be in:
// Searcher::set_options() refuses a weight outside it, and its constructor brings one into it.
// Within it no sum below can overflow (24 counters and a few dozen moves a side, at most).
inline constexpr std::pair<std::string_view, int EvalWeights::*> eval_weight_fields[] = {
    {"material", &EvalWeights::material},
    {"capture_threat", &EvalWeights::capture_threat},
    {"exposure", &EvalWeights::exposure},
    {"flank_threat", &EvalWeights::flank_threat},
    {"mobility", &EvalWeights::mobility},
    {"corner", &EvalWeights::corner},
    {"placement_threat", &EvalWeights::placement_threat},
    {"first_mover_threat", &EvalWeights::first_mover_threat},
};
static_assert(std::size(eval_weight_fields) * sizeof(int) == sizeof(EvalWeights), "every weight is named");
inline constexpr int max_eval_weight = 1000;
inline constexpr Bitboard corner_squares = square_bb(0) | square_bb(4) | square_bb(20) | square_bb(24);

namespace detail {

// What one side could capture: by moving now (`reachable` targets), and later (the others).
struct Threats {
  int largest_now = 0;   // counters of the largest single capture on a reachable square
  Bitboard now = 0;      // everything capturable by one move
  Bitboard later = 0;    // capturable by a counter arriving on an unreachable empty square
};

template <class V>
constexpr Threats threats(Bitboard us, Bitboard them, Bitboard empty, Bitboard reachable) {
  Threats t;
  for (Square s : squares(empty & capturing_squares<V::diagonal>(us, them))) {
    const Bitboard captured = captures_at<V::diagonal>(s, us | square_bb(s), them);
    if (!captured) continue;
    if (reachable & square_bb(s)) {
      t.now |= captured;
      t.largest_now = std::max(t.largest_now, popcount(captured));
    } else {
      t.later |= captured;
    }
  }
  return t;
}

}  // namespace detail

template <class V>
constexpr Score evaluate(const Position& pos, const EvalWeights& w = eval_weights) {
  const Color us = pos.side_to_move(), them = ~us;
  const Bitboard mine = pos.pieces(us), theirs = pos.pieces(them), empty = pos.empty();
  int score = w.material * (pos.counters(us) - pos.counters(them));
  score += w.corner * (popcount(mine & corner_squares) - popcount(theirs & corner_squares));

  if (pos.in_placement()) {
    const Bitboard open = empty & ~square_bb(centre);
    score += w.placement_threat * (popcount(detail::threats<V>(mine, theirs, open, 0).later) -
                                   popcount(detail::threats<V>(theirs, mine, open, 0).later));
    // c3 stays empty through placement, so the first move of the movement phase goes there
    // (placements alternate strictly: with an even number left, we make it).
    const bool we_move_first = pos.placements_left() % 2 == 0;
    const Bitboard first = we_move_first ? mine : theirs, second = we_move_first ? theirs : mine;
    const Bitboard centre_capture =
        (neighbours[centre] & first) ? captures_at<V::diagonal>(centre, first | square_bb(centre), second) : 0;
    score += (we_move_first ? 1 : -1) * w.first_mover_threat * popcount(centre_capture);
    return std::clamp(score, -score_heuristic_max, score_heuristic_max);
  }

  const Bitboard our_reach = movement_destinations<V>(mine, empty);
  const Bitboard their_reach = movement_destinations<V>(theirs, empty);
  const detail::Threats ours = detail::threats<V>(mine, theirs, empty, our_reach);
  const detail::Threats their = detail::threats<V>(theirs, mine, empty, their_reach);
  score += w.capture_threat * ours.largest_now - w.exposure * popcount(their.now);
  score += w.flank_threat * (popcount(ours.later) - popcount(their.later));
  score += w.mobility * (detail::movement_count<V>(mine, empty) - detail::movement_count<V>(theirs, empty));
  return std::clamp(score, -score_heuristic_max, score_heuristic_max);
}

inline Score evaluate(const Position& pos) {
  return with_variant(pos.rules(), [&](auto v) { return evaluate<decltype(v)>(pos); });
}

}  // namespace moon
