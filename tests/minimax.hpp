// The truth about a position, by exhaustive minimax straight from the definitions of
// solver.hpp: no table, no pruning, every line played to the end of the game. The oracle of the
// solver's tests and of its fuzz target.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "moon/movegen.hpp"
#include "moon/position.hpp"
#include "moon/solver.hpp"

namespace moon::test {

struct Truth {
  Outcome outcome;
  int plies;
};

// The result of a game that is over, for the side to move: more counters wins.
inline Outcome terminal_outcome(const Position& pos) {
  const int us = pos.count(pos.side_to_move()), them = pos.count(~pos.side_to_move());
  return us > them ? Outcome::win : us < them ? Outcome::loss : Outcome::draw;
}

// A position's truth from its children's, by the definitions of solver.hpp: the mover wins if
// some move leaves the opponent lost (the fastest such win); else draws if some move leaves a
// draw (the shortest drawing line); else loses (as late as it can).
class FromChildren {
 public:
  void add(const Truth& child) {
    if (child.outcome == Outcome::loss) win_ = true, win_plies_ = std::min(win_plies_, child.plies + 1);
    if (child.outcome == Outcome::draw) draw_ = true, draw_plies_ = std::min(draw_plies_, child.plies + 1);
    if (child.outcome == Outcome::win) loss_plies_ = std::max(loss_plies_, child.plies + 1);
  }
  Truth truth() const {
    if (win_) return {Outcome::win, win_plies_};
    if (draw_) return {Outcome::draw, draw_plies_};
    return {Outcome::loss, loss_plies_};
  }

 private:
  bool win_ = false, draw_ = false;
  int win_plies_ = 1 << 30, draw_plies_ = 1 << 30, loss_plies_ = 0;
};

struct Minimax {
  std::uint64_t nodes = 0;
  std::uint64_t budget = 0;  // give up (exceeded) after this many nodes

  bool exceeded() const { return nodes > budget; }

  Truth operator()(const Position& pos) {
    ++nodes;
    if (pos.is_over()) return {terminal_outcome(pos), 0};
    FromChildren value;
    for (Move m : legal_moves(pos)) {
      value.add((*this)(pos.after(m)));
      if (exceeded()) return {};
    }
    return value.truth();
  }
};

// The truth about pos if exhaustive minimax finishes within `budget` nodes.
inline std::optional<Truth> truth(const Position& pos, std::uint64_t budget) {
  Minimax minimax;
  minimax.budget = budget;
  const Truth t = minimax(pos);
  if (minimax.exceeded()) return std::nullopt;
  return t;
}

}  // namespace moon::test
