// The exact solver's move-ordering helpers beyond the history: the placements on c3's lines,
// the take-backs of the mover's own last moves, and the killers.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "moon/bitboard.hpp"
#include "moon/move.hpp"

namespace moon {

// c3's rank and file but c3: the squares a counter moving into c3, the one square empty after
// the placements, comes from and captures along (search_placement()'s order at short clocks).
inline constexpr Bitboard centre_lines = ((rank_1 << 10) | (file_a << 2)) & ~square_bb(centre);

// The quiet moves that take back one of the mover's own last three moves, and their ordering bonus:
// (1 << 20) >> k for taking back the k-th last, 0 for any other move. `line` holds the moves (raw)
// from the root down to the mover's position, the last one the opponent's, so the mover's own are
// line[size - 2], line[size - 4], ... The bonus is added to the history score (at most about
// 1 << 18) and the killer bonus (Killers, at most 1 << 16), so the latest take-back comes before
// every quiet move that takes nothing back, and no quiet move reaches the captures (1 << 20 and
// more). A side that only has to hold out, as the defender of "won within d?" does at most nodes of
// a proof, then steps back and forth, and its refutations lead to few boards, most of them already
// in the table. Measured (docs/SOLVER.md, "Ordering"): a third fewer nodes on random endgames. Read
// off the line once per node, then compared with each quiet move: decoding the three moves again
// for every quiet move took 6.7% of the solver's instructions.
class TakeBacks {
 public:
  constexpr explicit TakeBacks(std::span<const std::uint16_t> line) {
    for (std::size_t back = 1; back <= 3 && 2 * back <= line.size(); ++back) {
      const Move own = Move::from_raw(line[line.size() - 2 * back]);
      if (own.kind() == MoveKind::movement) raw_[back - 1] = Move::movement(own.to(), own.from()).raw();
    }
  }
  constexpr int bonus(Move m) const {
    return m.raw() == raw_[0] ? 1 << 19 : m.raw() == raw_[1] ? 1 << 18 : m.raw() == raw_[2] ? 1 << 17 : 0;
  }

 private:
  static constexpr std::uint16_t no_move = 0xffff;  // the raw bits of no move (kinds are 0-3)
  std::array<std::uint16_t, 3> raw_{no_move, no_move, no_move};
};

// The last two quiet moves that answered yes at one ply of the line (counted from the root of the
// question) in the movement phase, and their ordering bonus: 1 << 16 for the latest, 1 << 15 for
// the one before, 0 for any other move, added to the history score and the take-back bonus
// (TakeBacks). Like the history, the table move is not counted (nor a capture), and the killers are
// kept from one question to the next. Nodes at one ply of neighbouring subtrees differ in a few
// counters, and a move that answered one often answers the next: ahead of most history scores,
// behind the take-backs. Measured (docs/SOLVER.md, "Ordering"): 15% fewer nodes and 13% less time
// on 74 random endgames, 1% fewer nodes and the same time on another 60, 3% more nodes on the
// smallest of those; with a bonus as large as a take-back's, more endgames dearer.
class Killers {
 public:
  constexpr void add(Move m) {
    if (raw_[0] != m.raw()) raw_[1] = raw_[0], raw_[0] = m.raw();
  }
  constexpr int bonus(Move m) const { return m.raw() == raw_[0] ? 1 << 16 : m.raw() == raw_[1] ? 1 << 15 : 0; }

 private:
  static constexpr std::uint16_t no_move = 0xffff;  // the raw bits of no move (kinds are 0-3)
  std::array<std::uint16_t, 2> raw_{no_move, no_move};
};

}  // namespace moon
