// Precomputed, compile-time tables: neighbours, rays and flank-capture masks.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>

#include "moon/bitboard.hpp"

namespace moon {

// Squares orthogonally adjacent to each square.
inline constexpr auto neighbours = [] {
  std::array<Bitboard, square_count> table{};
  for (Square s = 0; s < square_count; ++s)
    for (int d = 0; d < orthogonal_directions; ++d) table[std::size_t(s)] |= shift(square_bb(s), Direction(d));
  return table;
}();

// rays[s][d]: the squares met walking from s in direction d, s itself excluded.
inline constexpr auto rays = [] {
  std::array<std::array<Bitboard, all_directions>, square_count> table{};
  for (Square s = 0; s < square_count; ++s)
    for (int d = 0; d < all_directions; ++d)
      for (Bitboard b = shift(square_bb(s), Direction(d)); b; b = shift(b, Direction(d)))
        table[std::size_t(s)][std::size_t(d)] |= b;
  return table;
}();

// One way a counter arriving on a square can capture: if every square of `run` holds an
// opposing counter and `closer` holds one of the mover's, the run is captured. Runs along one
// line are nested and at most one of them can be closed, so all candidates of a square may be
// tested without branching and their results OR-ed together.
struct Flank {
  Bitboard run;
  Bitboard closer;
};

// All candidate flanks of a destination square, for one set of capture lines.
struct FlankSet {
  static constexpr int capacity = 12;
  std::array<Flank, capacity> flanks{};
  int count = 0;
};

namespace detail {
// Walks from s along direction d, adding a flank for every run length that leaves room for a
// closer before the edge.
constexpr void add_line_flanks(FlankSet& set, Square s, Direction d) {
  Bitboard run = 0;
  for (Bitboard b = shift(square_bb(s), d); b; b = shift(b, d)) {
    const Bitboard next = shift(b, d);
    run |= b;
    if (!next) break;
    set.flanks[std::size_t(set.count++)] = Flank{run, next};
  }
}

constexpr std::array<FlankSet, square_count> make_flank_table(int directions) {
  std::array<FlankSet, square_count> table{};
  for (Square s = 0; s < square_count; ++s)
    for (int d = 0; d < directions; ++d) add_line_flanks(table[std::size_t(s)], s, Direction(d));
  return table;
}
}  // namespace detail

inline constexpr auto orthogonal_flanks = detail::make_flank_table(orthogonal_directions);
inline constexpr auto all_line_flanks = detail::make_flank_table(all_directions);

namespace detail {
constexpr int most_captured_by_one_move(const std::array<FlankSet, square_count>& table) {
  int most = 0;
  for (const FlankSet& set : table) {
    Bitboard runs = 0;
    for (int i = 0; i < set.count; ++i) runs |= set.flanks[std::size_t(i)].run;
    most = std::max(most, popcount(runs));
  }
  return most;
}
}  // namespace detail

// The most counters one move can capture: a corner's lines, each run as long as it can be.
inline constexpr int most_captured_orthogonally = detail::most_captured_by_one_move(orthogonal_flanks);
inline constexpr int most_captured_with_diagonals = detail::most_captured_by_one_move(all_line_flanks);
static_assert(most_captured_orthogonally == 6 && most_captured_with_diagonals == 9);

// Counters of `them` captured when one of `us` (already standing on `to`) has just arrived there.
template <bool Diagonal>
constexpr Bitboard captures_at(Square to, Bitboard us, Bitboard them) {
  const FlankSet& set = (Diagonal ? all_line_flanks : orthogonal_flanks)[std::size_t(to)];
  Bitboard captured = 0;
  for (int i = 0; i < set.count; ++i) {
    const Flank f = set.flanks[std::size_t(i)];
    const bool closed = ((f.run & ~them) == 0) & ((f.closer & us) != 0);
    captured |= f.run & (Bitboard{0} - Bitboard(closed));
  }
  return captured;
}

// Every square on which an arriving counter of `us` would capture: the squares where
// captures_at<Diagonal>(s, us, them) is not empty, for all of them at once. Along each line,
// the opposing counters that begin an unbroken run closed by one of ours are found by growing
// the runs back from our counters (at most three long on a 5x5 board).
template <bool Diagonal>
MOON_FORCE_INLINE constexpr Bitboard capturing_squares(Bitboard us, Bitboard them) {
  constexpr int lines = Diagonal ? all_directions : orthogonal_directions;
  Bitboard result = 0;
#pragma GCC unroll 8
  for (int d = 0; d < lines; ++d) {
    const Direction back = opposite(Direction(d));
    Bitboard runs = shift(us, back) & them;
    runs |= shift(runs, back) & them;
    runs |= shift(runs, back) & them;
    result |= shift(runs, back);
  }
  return result;
}

}  // namespace moon
