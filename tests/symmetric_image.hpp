// The image of a position under one of the board's eight symmetries, built through a position
// string with the tests' own square map (not the engine's), so that the engine's symmetry code
// is checked against an independent statement of the same convention.
#pragma once

#include <utility>

#include "moon/notation.hpp"
#include "moon/position.hpp"
#include "random_positions.hpp"

namespace moon::test {

// Symmetry t: swap file and rank if t & 4, then mirror the file if t & 1, then the rank if t & 2.
inline int image_square(int t, int square) {
  int file = square % 5, rank = square / 5;
  if (t & 4) std::swap(file, rank);
  if (t & 1) file = 4 - file;
  if (t & 2) rank = 4 - rank;
  return rank * 5 + file;
}

inline Position symmetric_image(const Position& pos, int t) {
  Setup s;
  s.board.fill('.');
  for (int i = 0; i < 25; ++i) {
    const char c = (pos.pieces(x) >> i & 1) ? 'x' : (pos.pieces(o) >> i & 1) ? 'o' : '.';
    s.board[std::size_t(image_square(t, i))] = c;
  }
  s.side = pos.side_to_move() == x ? 'x' : 'o';
  s.x_hand = pos.in_hand(x);
  s.o_hand = pos.in_hand(o);
  s.clock = pos.clock();
  s.fullmove = pos.fullmove();
  return *parse_position(s.text(), pos.rules());
}

}  // namespace moon::test
