// The eight symmetries of the square board (rotations and reflections). Every rule of the game
// and of its variants is the same under each of them, so positions that are images of each other
// have the same value; the exact solver keys its table on one canonical image per class.
#pragma once

#include <array>
#include <cstdint>

#include "moon/bitboard.hpp"
#include "moon/move.hpp"

namespace moon {

inline constexpr int symmetry_count = 8;

// Symmetry t maps (file, rank): first swap file and rank if t & 4, then mirror the file if
// t & 1, then mirror the rank if t & 2. t = 0 is the identity.
constexpr Square apply_symmetry(int t, Square s) {
  int file = s % board_size, rank = s / board_size;
  if (t & 4) {
    const int f = file;
    file = rank;
    rank = f;
  }
  if (t & 1) file = board_size - 1 - file;
  if (t & 2) rank = board_size - 1 - rank;
  return make_square(file, rank);
}

namespace detail {
// inverse_symmetry_table[t]: the symmetry that undoes t.
inline constexpr std::array<int, symmetry_count> inverse_symmetry_table = [] {
  std::array<int, symmetry_count> inverse{};
  for (int t = 0; t < symmetry_count; ++t)
    for (int u = 0; u < symmetry_count; ++u) {
      bool undoes = true;
      for (Square s = 0; s < square_count; ++s) undoes = undoes && apply_symmetry(u, apply_symmetry(t, s)) == s;
      if (undoes) inverse[t] = u;
    }
  return inverse;
}();

// row_image[t][r][bits]: the image under t of the squares of rank r given by five file bits, so
// that a whole board is mapped with five lookups.
inline constexpr auto row_image = [] {
  std::array<std::array<std::array<Bitboard, 32>, board_size>, symmetry_count> table{};
  for (int t = 0; t < symmetry_count; ++t)
    for (int r = 0; r < board_size; ++r)
      for (unsigned bits = 0; bits < 32; ++bits)
        for (int f = 0; f < board_size; ++f)
          if (bits >> f & 1) table[t][r][bits] |= square_bb(apply_symmetry(t, make_square(f, r)));
  return table;
}();
}  // namespace detail

constexpr int inverse_symmetry(int t) { return detail::inverse_symmetry_table[t]; }

constexpr Bitboard apply_symmetry(int t, Bitboard b) {
  const auto& rows = detail::row_image[t];
  return rows[0][b & 31] | rows[1][b >> 5 & 31] | rows[2][b >> 10 & 31] | rows[3][b >> 15 & 31] | rows[4][b >> 20 & 31];
}

constexpr Move apply_symmetry(int t, Move m) {
  switch (m.kind()) {
    case MoveKind::placement: return Move::placement(apply_symmetry(t, m.to()));
    case MoveKind::movement: return Move::movement(apply_symmetry(t, m.from()), apply_symmetry(t, m.to()));
    default: return m;  // pass and the null move have no squares
  }
}

// One image chosen for the class of the pair of boards (x's, o's): the one whose 50-bit
// combination x | o << 25 is least, and the symmetry that maps the given boards onto it.
struct CanonicalBoards {
  std::uint64_t boards;  // x | o << 25 of the chosen image
  int symmetry;
};

constexpr CanonicalBoards canonical_boards(Bitboard xs, Bitboard os) {
  // o's boards are the more significant half, so x's image is only needed on a tie.
  Bitboard best_o = os, best_x = xs;
  int best = 0;
  bool best_x_known = true;
  for (int t = 1; t < symmetry_count; ++t) {
    const Bitboard image_o = apply_symmetry(t, os);
    if (image_o < best_o) {
      best_o = image_o, best = t, best_x_known = false;
    } else if (image_o == best_o) {
      if (!best_x_known) best_x = apply_symmetry(best, xs), best_x_known = true;
      const Bitboard image_x = apply_symmetry(t, xs);
      if (image_x < best_x) best_x = image_x, best = t;
    }
  }
  if (!best_x_known) best_x = apply_symmetry(best, xs);
  return {std::uint64_t(best_x) | std::uint64_t(best_o) << 25, best};
}

}  // namespace moon
