// Legal move generation and bulk move counting, for every phase and variant.
#pragma once

#include <algorithm>
#include <type_traits>

#include "moon/bitboard.hpp"
#include "moon/move.hpp"
#include "moon/position.hpp"

namespace moon {

namespace detail {
// Squares that may receive a placement: every empty square but the centre.
constexpr Bitboard placement_targets(const Position& pos) { return pos.empty() & ~square_bb(centre); }

// Destinations reached in direction d by moves of exactly `distance` squares grow one step at
// a time through empty squares: step movement stops after the first. An on_targets that returns
// bool ends the walk when it returns true (and the walk then returns true); one that returns
// nothing sees every layer, with no test for it.
template <class V, class OnTargets>
MOON_FORCE_INLINE constexpr bool for_each_movement_layer(Bitboard mover, Bitboard empty, OnTargets&& on_targets) {
  constexpr bool can_stop = std::is_same_v<decltype(on_targets(Direction{}, 1, Bitboard{})), bool>;
#pragma GCC unroll 4
  for (int d = 0; d < orthogonal_directions; ++d) {
    const Direction dir = Direction(d);
    int distance = 1;
    for (Bitboard targets = shift(mover, dir) & empty; targets; targets = shift(targets, dir) & empty) {
      if constexpr (can_stop) {
        if (on_targets(dir, distance++, targets)) return true;
      } else {
        on_targets(dir, distance++, targets);
      }
      if constexpr (!V::slide) break;
    }
  }
  return false;
}

template <class V, class OnTargets>
constexpr bool for_each_movement_layer(const Position& pos, OnTargets&& on_targets) {
  return for_each_movement_layer<V>(pos.pieces(pos.side_to_move()), pos.empty(), on_targets);
}

// The number of movements of the counters `mover` over the `empty` squares (0 when blocked).
// Sliding: a square is reached along a direction from one counter only, the nearest behind
// it, so the squares reached at every distance (at most four) are counted together.
template <class V>
MOON_FORCE_INLINE constexpr int movement_count(Bitboard mover, Bitboard empty) {
  int n = 0;
  if constexpr (V::slide) {
#pragma GCC unroll 4
    for (int d = 0; d < orthogonal_directions; ++d) {
      const Direction dir = Direction(d);
      Bitboard reached = shift(mover, dir) & empty;
      reached |= shift(reached, dir) & empty;
      reached |= shift(reached, dir) & empty;
      reached |= shift(reached, dir) & empty;
      n += popcount(reached);
    }
  } else {
    for_each_movement_layer<V>(mover, empty, [&](Direction, int, Bitboard targets) { n += popcount(targets); });
  }
  return n;
}

// The square `distance` steps back from `to` against direction d.
constexpr Square origin(Square to, Direction d, int distance) {
  constexpr int delta[] = {5, -5, 1, -1};
  return to - delta[d] * distance;
}
}  // namespace detail

// The empty squares the counters `mover` can move to, from wherever (the movement phase's
// destinations of one side, all at once).
template <class V>
MOON_FORCE_INLINE constexpr Bitboard movement_destinations(Bitboard mover, Bitboard empty) {
  Bitboard reached = 0;
  detail::for_each_movement_layer<V>(mover, empty, [&](Direction, int, Bitboard targets) { reached |= targets; });
  return reached;
}

// The most legal moves any position can have. Placement: one per empty square but the centre,
// at most 24. Movement, game not over: the mover has k counters and the opponent at least two
// (one or none ends the game), so at most 23 - k squares are empty. A counter has at most 8
// moves (4 along its rank, 4 along its file, sliding), and an empty square is the destination of
// at most 4 (one per direction: from the nearest counter behind it, with only empty squares
// between): at most min(8k, 4(23 - k)), 60 at k = 8. The densest positions found by a search
// have 36 moves (step) and 44 (slide); tests/rules_test.cpp checks them.
constexpr int max_legal_moves() {
  int most = square_count - 1;
  for (int k = 2; k <= counters_per_side; ++k) most = std::max(most, std::min(8 * k, 4 * (square_count - 2 - k)));
  return most;
}
static_assert(max_legal_moves() <= int(MoveList::capacity), "a MoveList must hold every legal move");

// Fills list with every legal move of pos (whatever it held before is dropped).
template <class V>
constexpr void generate_moves(const Position& pos, MoveList& list) {
  list.clear();
  if (pos.in_placement()) {
    for (Square s : squares(detail::placement_targets(pos))) list.push(Move::placement(s));
    return;
  }
  if (pos.is_over()) return;
  detail::for_each_movement_layer<V>(pos, [&](Direction d, int distance, Bitboard targets) {
    for (Square to : squares(targets)) list.push(Move::movement(detail::origin(to, d, distance), to));
  });
  if (list.empty()) list.push(Move::pass());
}

// Whether pred(m) holds for some legal move m of pos (movement phase, not over), the moves tried
// in generate_moves()'s order without listing them, stopping at the first that holds: the exact
// solver's two-ply answers are settled by the first move nine times in ten.
template <class V, class Pred>
MOON_FORCE_INLINE constexpr bool any_movement(const Position& pos, Pred&& pred) {
  bool blocked = true;
  const bool found = detail::for_each_movement_layer<V>(pos, [&](Direction d, int distance, Bitboard targets) {
    blocked = false;
    for (Square to : squares(targets))
      if (pred(Move::movement(detail::origin(to, d, distance), to))) return true;
    return false;
  });
  return found || (blocked && pred(Move::pass()));
}

// The number of legal moves of pos, without listing them (perft's bulk count at the last ply).
template <class V>
constexpr int count_moves(const Position& pos) {
  if (pos.in_placement()) return popcount(detail::placement_targets(pos));
  if (pos.is_over()) return 0;
  const int n = detail::movement_count<V>(pos.pieces(pos.side_to_move()), pos.empty());
  return n ? n : 1;  // a blocked side's only move is the pass
}

inline MoveList legal_moves(const Position& pos) {
  MoveList list;
  with_variant(pos.rules(), [&](auto v) { generate_moves<decltype(v)>(pos, list); });
  return list;
}

inline int count_moves(const Position& pos) {
  return with_variant(pos.rules(), [&](auto v) { return count_moves<decltype(v)>(pos); });
}

}  // namespace moon
