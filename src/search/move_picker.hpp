// Move ordering: the table move, then captures by size, then killers, then history; each
// switched by SearchFeatures. Moves are scored once and picked best first (selection), so a
// cut-off after the first moves costs no full sort.
#pragma once

#include <array>
#include <cstddef>

#include "moon/movegen.hpp"
#include "moon/position.hpp"
#include "moon/search.hpp"

namespace moon::search {

template <class V>
class MovePicker {
 public:
  static constexpr int table_move_score = 1 << 30;
  static constexpr int capture_score = 1 << 28;  // + counters captured << 20
  static constexpr int killer_score = 1 << 27;   // - killer slot

  // All legal moves of pos (a pass if blocked); `captures_only` keeps the capturing moves.
  MovePicker(const Position& pos, const SearchFeatures& f, Move table_move, const std::array<Move, 2>& killers,
             const std::array<int, 4096>& history, bool captures_only = false) {
    MoveList all;
    generate_moves<V>(pos, all);
    const Color us = pos.side_to_move();
    const Bitboard ours = pos.pieces(us), theirs = pos.pieces(~us);
    for (Move m : all) {
      int captured = 0;
      if (m.kind() == MoveKind::movement && (captures_only || f.capture_ordering))
        // The mover's origin is never part of a flank closed at its destination, so the
        // captures depend on the destination only.
        captured = popcount(captures_at<V::diagonal>(m.to(), ours | square_bb(m.to()), theirs));
      if (captures_only && !captured) continue;
      int score = 0;
      if (!table_move.is_null() && m == table_move) score = table_move_score;
      else if (captured && f.capture_ordering) score = capture_score + (captured << 20);
      else if (f.killers && m == killers[0]) score = killer_score;
      else if (f.killers && m == killers[1]) score = killer_score - 1;
      else if (f.history) score = history[m.raw()];
      moves_[size_] = m;
      scores_[size_] = score;
      captures_[size_] = captured;
      ++size_;
    }
  }

  std::size_t size() const { return size_; }
  // The next move, best first; the null move when none is left. Ties keep generation order.
  Move next() {
    if (next_ >= size_) return Move();
    std::size_t best = next_;
    for (std::size_t i = next_ + 1; i < size_; ++i)
      if (scores_[i] > scores_[best]) best = i;
    std::swap(moves_[next_], moves_[best]);
    std::swap(scores_[next_], scores_[best]);
    std::swap(captures_[next_], captures_[best]);
    last_captures_ = captures_[next_];
    return moves_[next_++];
  }
  // Counters the move last returned by next() captures (when captures were computed).
  int last_captures() const { return last_captures_; }

 private:
  std::array<Move, MoveList::capacity> moves_;
  std::array<int, MoveList::capacity> scores_;
  std::array<int, MoveList::capacity> captures_;
  std::size_t size_ = 0, next_ = 0;
  int last_captures_ = 0;
};

}  // namespace moon::search
