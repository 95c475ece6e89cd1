// The baseline the exact solver is measured against: a textbook alpha-beta solver with a
// transposition table. Negamax, fail-soft, one full-width search over the whole value range
// (which yields the outcome and the win/loss distance at once), a table of exact keys with
// exact/lower/upper bounds and the best move (tried first), the other moves in generation
// order. Values are on the solver's scale (solve_value.hpp). Single-threaded; an optional
// deadline gives up (the benchmarks show what the baseline cannot finish in a minute), and so
// does an optional count of nodes (tests, which must not depend on the machine's speed).
//
// BaselineOrdering::captures_first makes it a stronger baseline: after the table move, the
// captures, most counters taken first, then the other moves in generation order, as any engine
// for a capture game would. The benchmarks measure the solver against both (docs/SOLVER.md).
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <new>
#include <optional>
#include <utility>

#include "moon/memory.hpp"
#include "moon/movegen.hpp"
#include "moon/position.hpp"
#include "moon/solve_value.hpp"

namespace moon::bench {

enum class BaselineOrdering { table_move_only, captures_first };

class BaselineSolver {
 public:
  // A table of 2^table_bits entries of 16 bytes (2^22: 64 MiB), on huge pages as the solver's
  // (memory.hpp): the comparison is of the two searches, not of how their memory is paged.
  explicit BaselineSolver(int table_bits = 22, BaselineOrdering ordering = BaselineOrdering::table_move_only)
      : table_(make_table_array<Entry>(std::size_t{1} << table_bits)),
        mask_((std::size_t{1} << table_bits) - 1),
        ordering_(ordering) {
    if (!table_) throw std::bad_alloc();
  }

  // The exact value of pos; nullopt if the deadline passed first, or if this object's searches
  // have visited `node_limit` nodes in all (both checked every 2^20 nodes).
  std::optional<SolveValue> solve(const Position& pos,
                                  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max(),
                                  std::uint64_t node_limit = ~std::uint64_t{0}) {
    deadline_ = deadline;
    node_limit_ = node_limit;
    timed_out_ = false;
    const SolveValue v = with_variant(pos.rules(), [&](auto variant) { return negamax<decltype(variant)>(pos, -solve_win, solve_win); });
    if (timed_out_) return std::nullopt;
    return v;
  }
  std::uint64_t nodes() const { return nodes_; }

 private:
  enum Bound : std::uint8_t { none, exact, lower, upper };
  struct Entry {
    std::uint64_t key = ~std::uint64_t{0};
    std::int16_t value = 0;
    Bound bound = none;
    Move move;
  };

  template <class V>
  SolveValue negamax(const Position& pos, SolveValue alpha, SolveValue beta) {
    if ((++nodes_ & 0xfffff) == 0 && (nodes_ >= node_limit_ || std::chrono::steady_clock::now() > deadline_))
      timed_out_ = true;
    if (timed_out_) return 0;
    if (pos.is_over()) {
      const int us = pos.count(pos.side_to_move()), them = pos.count(~pos.side_to_move());
      return us > them ? solve_win : us < them ? -solve_win : 0;
    }
    Entry& e = table_[pos.hash() & mask_];
    Move table_move;
    if (e.key == pos.key()) {
      if (e.bound == exact) return e.value;
      if (e.bound == lower && e.value > alpha) alpha = e.value;
      if (e.bound == upper && e.value < beta) beta = e.value;
      if (alpha >= beta) return e.value;
      table_move = e.move;
    }
    const SolveValue original_alpha = alpha;
    MoveList list;
    generate_moves<V>(pos, list);
    if (ordering_ == BaselineOrdering::captures_first) {
      // The table move (scored above any capture), then by counters taken; stable, so that ties
      // stay in generation order.
      std::array<std::pair<int, Move>, MoveList::capacity> scored;
      const std::size_t n = list.size();
      for (std::size_t i = 0; i < n; ++i)
        scored[i] = {list[i] == table_move ? square_count : popcount(pos.captures_of<V>(list[i])), list[i]};
      std::stable_sort(scored.begin(), scored.begin() + std::ptrdiff_t(n),
                       [](const auto& a, const auto& b) { return a.first > b.first; });
      for (std::size_t i = 0; i < n; ++i) list[i] = scored[i].second;
    } else {
      for (Move& m : list)
        if (m == table_move) std::swap(m, list[0]);
    }
    SolveValue best = -solve_win - 1;
    Move best_move;
    for (Move m : list) {
      // The child's window: from_child() is decreasing, so the parent's (alpha, beta) maps to
      // (child_beta(beta) - 1, child_beta(alpha + 1)).
      const SolveValue v = from_child(negamax<V>(pos.after<V>(m), child_beta(beta) - 1, child_beta(alpha + 1)));
      if (v > best) best = v, best_move = m;
      if (v > alpha) alpha = v;
      if (alpha >= beta) break;
    }
    e.key = pos.key();
    e.value = std::int16_t(best);
    e.bound = best <= original_alpha ? upper : best >= beta ? lower : exact;
    e.move = best_move;
    return best;
  }

  TableArray<Entry> table_;
  std::size_t mask_;
  BaselineOrdering ordering_;
  std::uint64_t nodes_ = 0;
  std::chrono::steady_clock::time_point deadline_;
  std::uint64_t node_limit_ = ~std::uint64_t{0};
  bool timed_out_ = false;
};

}  // namespace moon::bench
