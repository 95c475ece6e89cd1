// Squares and 32-bit bitboards of the 5x5 board.
//
// Square index = (rank - 1) * 5 + file, so a1 = 0, e1 = 4, a2 = 5, c3 = 12, e5 = 24.
// Bit i of a Bitboard is square i; bits 25-31 are always zero.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

// For the small functions of the hot path: inside the large bulk-counting functions the
// compiler's size heuristics otherwise stop inlining and leave some as calls.
#if defined(__GNUC__)
#define MOON_FORCE_INLINE [[gnu::always_inline]] inline
#else
#define MOON_FORCE_INLINE inline
#endif

namespace moon {

using Bitboard = std::uint32_t;
using Square = int;

inline constexpr int board_size = 5;
inline constexpr int square_count = 25;
inline constexpr Square centre = 12;  // c3

inline constexpr Bitboard all_squares = (Bitboard{1} << square_count) - 1;
inline constexpr Bitboard file_a = 0x0108421;  // a1 a2 a3 a4 a5
inline constexpr Bitboard file_e = file_a << 4;
inline constexpr Bitboard rank_1 = 0x1f;

constexpr Bitboard square_bb(Square s) { return Bitboard{1} << s; }
constexpr int file_of(Square s) { return s % board_size; }
constexpr int rank_of(Square s) { return s / board_size; }
constexpr Square make_square(int file, int rank) { return rank * board_size + file; }

namespace detail {
inline constexpr auto popcount_table = [] {
  std::array<std::uint8_t, 1 << 13> table{};
  for (unsigned i = 0; i < table.size(); ++i) table[i] = std::uint8_t(std::popcount(i));
  return table;
}();
}  // namespace detail

// Without a popcount instruction (x86-64 unless built with -march=native or -mpopcnt),
// std::popcount calls a library routine; two lookups in an 8 KiB table, which cover the 25
// bits of a board, are much faster there (docs/PERFORMANCE.md).
MOON_FORCE_INLINE constexpr int popcount(Bitboard b) {
#if defined(__x86_64__) && !defined(__POPCNT__)
  if (b >> 26) return std::popcount(b);  // not a board, yet counted exactly
  return detail::popcount_table[b & 0x1fff] + detail::popcount_table[b >> 13];
#else
  return std::popcount(b);
#endif
}

// popcount(b) <= 1 without counting: a side down to one counter is the common test of the end.
constexpr bool at_most_one(Bitboard b) { return (b & (b - 1)) == 0; }

constexpr Square lowest_square(Bitboard b) { return std::countr_zero(b); }

// The eight directions; the first four are orthogonal (the only ways a counter moves).
enum Direction : int { north, south, east, west, north_east, north_west, south_east, south_west };
inline constexpr int orthogonal_directions = 4;
inline constexpr int all_directions = 8;

// Moves every set bit one step in direction d; bits that would leave the board vanish.
MOON_FORCE_INLINE constexpr Bitboard shift(Bitboard b, Direction d) {
  switch (d) {
    case north: return (b << 5) & all_squares;
    case south: return b >> 5;
    case east: return (b & ~file_e) << 1;
    case west: return (b & ~file_a) >> 1;
    case north_east: return ((b & ~file_e) << 6) & all_squares;
    case north_west: return ((b & ~file_a) << 4) & all_squares;
    case south_east: return (b & ~file_e) >> 4;
    case south_west: return (b & ~file_a) >> 6;
  }
  return 0;
}

constexpr Direction opposite(Direction d) {
  constexpr Direction table[] = {south, north, west, east, south_west, south_east, north_west, north_east};
  return table[d];
}

// Range-for over the squares of a bitboard, lowest first: `for (Square s : squares(b))`.
class squares {
 public:
  constexpr explicit squares(Bitboard b) : bits_(b) {}
  class iterator {
   public:
    constexpr explicit iterator(Bitboard b) : bits_(b) {}
    constexpr Square operator*() const { return lowest_square(bits_); }
    constexpr iterator& operator++() {
      bits_ &= bits_ - 1;
      return *this;
    }
    constexpr bool operator!=(const iterator& other) const { return bits_ != other.bits_; }

   private:
    Bitboard bits_;
  };
  constexpr iterator begin() const { return iterator(bits_); }
  constexpr iterator end() const { return iterator(0); }

 private:
  Bitboard bits_;
};

}  // namespace moon
