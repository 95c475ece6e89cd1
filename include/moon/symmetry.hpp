// The eight symmetries of the square board (rotations and reflections). Every rule of the game
// and of its variants is the same under each of them, so positions that are images of each other
// have the same value; the exact solver keys its table on one canonical image per class.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "moon/bitboard.hpp"
#include "moon/move.hpp"

namespace moon {

inline constexpr int symmetry_count = 8;

namespace detail {
// Symmetry t maps (file, rank): first swap file and rank if t & 4, then mirror the file if
// t & 1, then mirror the rank if t & 2. t = 0 is the identity.
constexpr Square square_image(int t, Square s) {
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
// The same as a table: the solver maps a stored move at every table read.
inline constexpr auto square_image_table = [] {
  std::array<std::array<Square, square_count>, symmetry_count> table{};
  for (int t = 0; t < symmetry_count; ++t)
    for (Square s = 0; s < square_count; ++s) table[std::size_t(t)][std::size_t(s)] = square_image(t, s);
  return table;
}();
}  // namespace detail

constexpr Square apply_symmetry(int t, Square s) { return detail::square_image_table[std::size_t(t)][std::size_t(s)]; }

namespace detail {
// inverse_symmetry_table[t]: the symmetry that undoes t.
inline constexpr std::array<int, symmetry_count> inverse_symmetry_table = [] {
  std::array<int, symmetry_count> inverse{};
  for (int t = 0; t < symmetry_count; ++t)
    for (int u = 0; u < symmetry_count; ++u) {
      bool undoes = true;
      for (Square s = 0; s < square_count; ++s) undoes = undoes && apply_symmetry(u, apply_symmetry(t, s)) == s;
      if (undoes) inverse[std::size_t(t)] = u;
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
          if (bits >> f & 1)
            table[std::size_t(t)][std::size_t(r)][bits] |= square_bb(apply_symmetry(t, make_square(f, r)));
  return table;
}();
}  // namespace detail

constexpr int inverse_symmetry(int t) { return detail::inverse_symmetry_table[std::size_t(t)]; }

constexpr Bitboard apply_symmetry(int t, Bitboard b) {
  const auto& rows = detail::row_image[std::size_t(t)];
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
  friend constexpr bool operator==(const CanonicalBoards&, const CanonicalBoards&) = default;
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

// The eight images of a pair of boards, each as the number canonical_boards() compares (x's image
// | o's image << 25), shifted left by three with the symmetry in the low bits: the least of them
// names the canonical image and its symmetry, ties going to the lower symmetry as there. Kept for
// a position, they give a child's canonical image by flipping the few squares the move changed,
// eight exclusive-ors a square, instead of seven images made afresh.
struct BoardImages {
  std::array<std::uint64_t, symmetry_count> ranked;
};

namespace detail {
// square_in_images[side][s][t]: the bit that a counter of x (side 0) or o (side 1) on square s
// sets in BoardImages::ranked[t].
inline constexpr auto square_in_images = [] {
  std::array<std::array<std::array<std::uint64_t, symmetry_count>, square_count>, 2> table{};
  for (int side = 0; side < 2; ++side)
    for (Square s = 0; s < square_count; ++s)
      for (int t = 0; t < symmetry_count; ++t)
        table[std::size_t(side)][std::size_t(s)][std::size_t(t)] =
            std::uint64_t{1} << (3 + 25 * side + apply_symmetry(t, s));
  return table;
}();
}  // namespace detail

// Flips the counters of x on `changed_xs` and of o on `changed_os` in every image.
MOON_FORCE_INLINE constexpr void flip_squares(BoardImages& images, Bitboard changed_xs, Bitboard changed_os) {
  for (Square s : squares(changed_xs))
    for (std::size_t t = 0; t < symmetry_count; ++t) images.ranked[t] ^= detail::square_in_images[0][std::size_t(s)][t];
  for (Square s : squares(changed_os))
    for (std::size_t t = 0; t < symmetry_count; ++t) images.ranked[t] ^= detail::square_in_images[1][std::size_t(s)][t];
}

constexpr BoardImages board_images(Bitboard xs, Bitboard os) {
  BoardImages images{};
  for (std::size_t t = 0; t < symmetry_count; ++t) images.ranked[t] = std::uint64_t(t);
  flip_squares(images, xs, os);
  return images;
}

// canonical_boards() of the boards these are the images of.
MOON_FORCE_INLINE constexpr CanonicalBoards canonical_boards(const BoardImages& images) {
  std::uint64_t least = images.ranked[0];
  for (std::size_t t = 1; t < symmetry_count; ++t) least = std::min(least, images.ranked[t]);
  return {least >> 3, int(least & 7)};
}

// canonical_boards() of the boards whose images are `images` with the counters of x on
// `changed_xs` and of o on `changed_os` flipped: a child's, from its parent's images and the
// squares the move changed.
MOON_FORCE_INLINE constexpr CanonicalBoards canonical_boards_after(BoardImages images, Bitboard changed_xs,
                                                                   Bitboard changed_os) {
  flip_squares(images, changed_xs, changed_os);
  return canonical_boards(images);
}

}  // namespace moon
