// The exact solver's table keys: a position's exact key, its board's (the clock left out) and
// a board's clock range for the whole-game questions, each of the canonical image of the boards
// under the board's eight symmetries, told apart by their top bits.
#pragma once

#include <cstdint>

#include "moon/bitboard.hpp"
#include "moon/position.hpp"
#include "moon/symmetry.hpp"

namespace moon {

// The key of a movement-phase board and side to move, clock left out; bit 63 keeps it apart
// from every exact key (Position::key() uses 63 bits).
constexpr std::uint64_t board_key(const Position& pos) {
  return std::uint64_t(pos.pieces(x)) | std::uint64_t(pos.pieces(o)) << 25 |
         std::uint64_t(pos.side_to_move()) << 50 | std::uint64_t{1} << 63;
}

// The key of what is known about a whole-game question, "won?" (any beta > 0 with no horizon)
// or "not lost?" (beta <= 0), for a board at every clock. Legality does not depend on the
// clock, and a capture resets it, so the same board at two clocks differs only in when a
// capture-free line is cut off by the clock, which ends the game with the counts as they are. Hence, if that ending answers the question
// yes, a yes with r plies of clock left holds with fewer left (the same strategy: lines cut off
// sooner end in a yes, the others go as before), and if it answers no, a yes holds with more
// left (a winning strategy's lines all capture before the clock, and go the same way). Tagged by
// bits 62 and 61 apart from board keys (bit 63, nothing above bit 50) and exact keys (no bit 63).
constexpr std::uint64_t clock_range_key(std::uint64_t board_key, bool won) {
  return board_key | std::uint64_t{1} << 62 | std::uint64_t(won) << 61;
}

// The keys of pos in the table: the exact position's, and the board's (clock left out). Both
// are taken of the canonical image of the boards under the board's eight symmetries, since
// images of each other have the same value; `symmetry` maps pos onto that image, and the
// table holds moves in the image's frame.
struct TableKeys {
  std::uint64_t exact, board;
  int symmetry;
};
// The keys of pos given the canonical image `c` of its boards: the image's boards, and pos's
// other fields.
inline constexpr std::uint64_t boards_mask = (std::uint64_t{1} << 50) - 1;
inline TableKeys keys_of_image(const Position& pos, const CanonicalBoards& c) {
  return {c.boards | (pos.key() & ~boards_mask), c.boards | (board_key(pos) & ~boards_mask), c.symmetry};
}
inline TableKeys table_keys(const Position& pos) {
#ifdef MOON_SOLVER_NO_SYMMETRY  // for measuring what the symmetric keys gain (docs/SOLVER.md)
  return keys_of_image(pos, {pos.key() & boards_mask, 0});
#else
  return keys_of_image(pos, canonical_boards(pos.pieces(x), pos.pieces(o)));
#endif
}
// The same for `child`, a position after one move of `parent`, whose images are
// `parent_images` (board_images()): the squares that changed are flipped in them.
inline TableKeys child_table_keys(const BoardImages& parent_images, const Position& parent, const Position& child) {
#ifdef MOON_SOLVER_NO_SYMMETRY
  (void)parent_images, (void)parent;
  return table_keys(child);
#else
  return keys_of_image(child, canonical_boards_after(parent_images, parent.pieces(x) ^ child.pieces(x),
                                                     parent.pieces(o) ^ child.pieces(o)));
#endif
}

}  // namespace moon
