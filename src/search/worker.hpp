// One search thread: iterative deepening over a principal variation search, sharing the
// transposition table and the stop flag with the other threads of its Searcher (Lazy SMP).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "moon/move.hpp"
#include "moon/position.hpp"
#include "moon/score.hpp"
#include "moon/search.hpp"
#include "moon/transposition_table.hpp"

namespace moon::search {

using Clock = std::chrono::steady_clock;

// The score of a game-over position, ply plies from the root, for its side to move.
inline Score terminal_score(const Position& pos, int ply) {
  const Result r = pos.result();
  if (r == Result::draw) return 0;
  const bool side_won = (r == Result::x_wins) == (pos.side_to_move() == x);
  return side_won ? win_in(ply) : loss_in(ply);
}

// Deepest ply a search reaches: the iteration depth plus the captures of quiescence.
inline constexpr int max_ply = max_search_depth + 28;

// How often (in a thread's own nodes; a power of two, 1 to 1024) each thread compares the sum of
// all threads' nodes with a node limit. Every 1024 nodes costs nothing measurable, but n threads
// may then overshoot by up to 1024 n nodes: 256 threads searched 24 116 nodes for a limit of 1000.
// So the interval shrinks until the threads together can overshoot by an eighth of the limit at
// most (a sum reads every thread's count: with many threads on a small limit, dear, but short).
constexpr std::uint64_t node_check_interval(std::uint64_t node_limit, std::size_t threads) {
  std::uint64_t interval = 1024;
  if (node_limit == 0 || threads <= 1) return interval;
  while (interval > 1 && interval * threads * 8 > node_limit) interval /= 2;
  return interval;
}

// What the threads of one Searcher share during a search.
struct SharedState {
  TranspositionTable table;
  SearchFeatures features;
  EvalWeights weights;
  std::atomic<bool> abort{false};           // every thread stops at once
  std::atomic<int> main_depth{0};           // the depth the main thread is searching
  int multipv = 1;                          // lines each iteration finds exactly (SearchLimits)
  std::uint64_t node_limit = 0;             // 0: none
  std::uint64_t node_check_interval = 1024;  // a power of two: node_check_interval() above
  std::int64_t hard_limit_ms = 0;           // 0: none; checked by every thread
  Clock::time_point start;
  std::function<std::uint64_t()> total_nodes;  // all threads' nodes, for the node limit

  std::int64_t elapsed_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  }
  std::int64_t elapsed_us() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
  }
};

// One line of an iteration: a root move (pv's first), its exact score at the iteration's depth,
// and whether that score is proven.
struct Line {
  Score score = 0;
  bool proven = false;
  std::vector<Move> pv;
};

// A completed iteration of one thread.
struct Iteration {
  int depth = 0;
  Score score = 0;
  bool proven = false;  // the score is the game's value, not a heuristic estimate
  std::vector<Move> pv;
  // The best SharedState::multipv moves (or every legal move if fewer), best first; the first
  // is the best move's line, with `score` and `pv`. `proven` above says more: that every move's
  // score was proven, so the best is the game's value; a line's own flag is that (with one line
  // asked for) or its move's alone (with more).
  std::vector<Line> lines;
};

class Worker {
 public:
  Worker(int id, SharedState& shared) : id_(id), shared_(shared) {}

  // Forgets history and killers (a new game).
  void clear();
  // Iterative deepening from depth 1 (helpers: a schedule of their own) to max_depth or until
  // aborted. After each completed iteration the main thread calls on_iteration, which says
  // whether to go on. Returns the deepest completed iteration (depth 0 if none).
  Iteration run(const Position& root, int max_depth, const std::function<bool(const Iteration&)>& on_iteration);

  std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  // Called for every worker before a search starts any thread: the main thread sums all counts
  // from its first node on, and a helper not yet running would still hold the last search's.
  void reset_nodes() { nodes_.store(0, std::memory_order_relaxed); }
  // The legal root moves in the order the last iteration left them (best first).
  Move first_root_move() const { return root_moves_.empty() ? Move() : root_moves_.front().move; }

  template <class V>
  Iteration run_variant(const Position& root, int max_depth, const std::function<bool(const Iteration&)>& on_iteration);

 private:
  struct RootMove {
    Move move;
    Score score;
    bool exact = false;    // this iteration: score is the move's value, not only a bound on it
    bool proven = false;   // ... and proven (exact only)
    std::vector<Move> pv;  // ... its line (exact only)
  };

  template <class V>
  bool search_root(const Position& root, int depth, Iteration& out);
  template <class V>
  Score search(const Position& pos, int depth, int ply, Score alpha, Score beta, bool pv_node, bool& proven);
  template <class V>
  Score quiescence(const Position& pos, int ply, Score alpha, Score beta, bool& proven);
  template <class V>
  void order_root_moves(const Position& root);

  bool count_node_and_check();
  bool aborted() const { return shared_.abort.load(std::memory_order_relaxed); }
  void update_quiet_stats(const Position& pos, Move best, int depth, int ply, const Move* tried, int tried_count);
  void copy_pv(int ply, Move m);
  std::vector<Move> extend_pv_from_table(const Position& root, std::vector<Move> pv, int max_length) const;
  template <class V>
  void complete_decisive_line(const Position& root, std::vector<Move>& pv, Score score);

  int id_;
  SharedState& shared_;
  std::atomic<std::uint64_t> nodes_{0};
  std::vector<RootMove> root_moves_;
  std::array<std::array<Move, 2>, max_ply + 1> killers_{};
  std::array<std::array<int, 4096>, 2> history_{};  // [colour][Move::raw()]
  std::array<std::array<Move, max_ply + 1>, max_ply + 1> pv_{};
  std::array<int, max_ply + 1> pv_length_{};
};

}  // namespace moon::search
