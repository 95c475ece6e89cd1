// The game-tree search for frontends: iterative-deepening principal variation search with a
// shared transposition table, under depth / node / time limits or until stopped.
//
// Threads: one Searcher owns its transposition table, history and helper threads. Several
// Searchers may live in one process and search at the same time; they share nothing. One
// Searcher runs one search at a time: search() blocks the calling thread (helper threads of
// Lazy SMP work inside it); stop() and is_searching() may be called from any other thread
// while it runs. set_options() is refused (an error) and clear() does nothing (returns false)
// while a search of the same Searcher runs.
// A caller that starts a search on another thread and may have to end it before it has begun
// passes a std::stop_token: a stop requested on it at any time ends the search, or makes it
// return at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <vector>

#include "moon/evaluation.hpp"
#include "moon/expected.hpp"
#include "moon/move.hpp"
#include "moon/position.hpp"
#include "moon/score.hpp"
#include "moon/transposition_table.hpp"

namespace moon {

// Iterations stop here. A principal variation may be longer: a heuristic line runs to the
// depth plus the captures resolved after it, a proven win or loss to the game's end, up to 128
// moves in all.
inline constexpr int max_search_depth = 100;

// The most lines (best moves, each with its score and principal variation) a search reports
// per iteration: more than any position has legal moves.
inline constexpr int max_multipv = int(MoveList::capacity);

// The largest node count and time (ms) the moon program and the protocol take as a limit: round
// numbers far beyond any search (10^12 ms is about 31 years). The library takes any.
inline constexpr std::int64_t max_limit_nodes = 1'000'000'000'000'000'000;
inline constexpr std::int64_t max_limit_ms = 1'000'000'000'000;

struct SearchLimits {
  int depth = 0;                   // 0: no depth limit (up to max_search_depth)
  std::uint64_t nodes = 0;         // 0: no node limit (exact with one thread; with n threads up
                                   // to an eighth over, or n nodes if more: each thread sums
                                   // all counts every 1 to 1024 of its nodes)
  std::int64_t movetime_ms = 0;    // 0: no fixed time
  // Clock-based time control for the side to move (protocol's xtime/otime/xinc/oinc): 0 = unused.
  // An increment needs the time left (alone it is refused).
  std::int64_t time_left_ms = 0, increment_ms = 0;
  bool infinite = false;           // search until stop(), even once settled; no other limit with it
  // Not a limit: how many lines each iteration reports (1 to max_multipv), the best moves in
  // order, each with its own score and principal variation ("multi-PV", for analysis). With more
  // than one, the lines after the first cost time: alpha-beta proves less, and an early proven
  // win no longer ends the search while the other lines are heuristic. A position with fewer
  // legal moves reports them all.
  int multipv = 1;
  // Not a limit: what the search is for. A search for a move to play (false) with a time limit
  // (movetime_ms or a clock) stops after depth 1 when the position has a single legal move: there
  // is nothing to choose. An analysis (true) wants the position's value, which the forced move
  // does not give, and searches it like any other position.
  bool analysis = false;
};

struct SearchInfo {                // reported after each completed iteration
  int depth;
  Score score;
  ScoreInfo score_info;
  std::uint64_t nodes;
  std::uint64_t nps;                // nodes per second, timed in microseconds
  std::int64_t time_ms;
  std::vector<Move> pv;
  int hashfull;                    // table fill, per mille
  // Multi-PV (SearchLimits::multipv): the lines asked for; this report's line (1 the best) of the
  // iteration's `lines` (fewer than asked where the position has fewer legal moves), each
  // reported in turn. With more than one asked for, a line's score is its own move's value
  // (proven or not by that move alone), where the single line's is the position's.
  int multipv = 1;
  int line = 1;
  int lines = 1;
};
// "depth D score S nodes N nps R time MS hashfull H pv MOVE ..." (S as to_string(ScoreInfo);
// no "pv" when the line is empty; "multipv K" after the depth, K the line, when more than one
// line was asked for): `moon analyze`'s lines, the protocol's after "info ".
std::string to_string(const SearchInfo& info);

struct SearchResult {
  Move best;                       // the null move when the position is over
  Score score;
  ScoreInfo score_info;
  std::vector<Move> pv;
  int depth;                       // deepest completed iteration
  // The whole search's, the unfinished last iteration included (a report covers only the
  // iterations completed: a timed search spends up to half its time in one it drops).
  std::uint64_t nodes;
  std::int64_t time_ms;
  std::uint64_t nps;               // nodes per second, timed in microseconds
};
// "nodes N nps R time MS": a search's totals, `moon analyze`'s "total ..." line and the
// protocol's "info ..." before its `bestmove`.
std::string totals_text(const SearchResult& result);

// Which parts of the search are on. The defaults are the engine; SearchFeatures::plain() is
// plain fixed-depth negamax (minimax, no table, generation order): the baseline of
// `moon match` and of the tests. Each idea can be switched off alone to measure what it pays.
struct SearchFeatures {
  bool alpha_beta = true;           // prune with alpha-beta (off: full minimax of each iteration)
  bool transposition_table = true;  // probe and store the shared table; its move first
  bool capture_ordering = true;     // captures first, largest first
  bool killers = false;             // two quiet moves per ply that caused cut-offs (measured: no gain)
  bool history = true;              // quiet moves by their past cut-offs
  bool principal_variation = true;  // null-window searches after the first move (PVS)
  bool quiescence = true;           // resolve pending captures at the horizon

  static constexpr SearchFeatures plain() { return {false, false, false, false, false, false, false}; }
  friend constexpr bool operator==(const SearchFeatures&, const SearchFeatures&) = default;
};

inline constexpr int max_search_threads = 256;

struct SearchOptions {
  std::size_t hash_mb = 16;  // TranspositionTable::min_mb to max_mb, at most the memory to be had
  int threads = 1;           // 1 to max_search_threads (lazy SMP on one shared table); more
                             // than the machine's cores makes searches shallower: only the
                             // first thread completes iterations, and it then waits for a core
                             // in turn with the others (docs/SEARCH.md, "More threads than cores")
  SearchFeatures features{};
  EvalWeights evaluation{};  // the evaluation's weights (evaluation.hpp), each at most
                             // max_eval_weight either way; the defaults are tuned
};

class Searcher {
 public:
  explicit Searcher(SearchOptions options = {});
  ~Searcher();
  Searcher(const Searcher&) = delete;
  Searcher& operator=(const Searcher&) = delete;

  // Validates (hash TranspositionTable::min_mb..max_mb and at most the machine's physical
  // memory, threads 1..max_search_threads, each evaluation weight -max_eval_weight..
  // max_eval_weight); not while searching. On an error nothing changes.
  // The constructor clamps instead (1 MB when the size cannot be had; std::bad_alloc if not
  // even that can).
  Expected<bool> set_options(SearchOptions options);
  const SearchOptions& options() const;
  // Forgets the table and history (new game); false, and nothing done, while searching. A search
  // under other rules than the last does it itself (what they hold was learnt under those).
  bool clear();
  // Returns an error for invalid limits or rules out of range (check_rules()), while another
  // search runs on this Searcher, or if the system will not make the helper threads (made as
  // the search begins, unless it is one ply deep: limits.depth 1, a single legal move under
  // a time limit without limits.analysis, or a clock with under about 50 ms left, which gets
  // the first iteration only; nothing is then searched or reported); a
  // position that is over gets best = null move (an infinite search of one, too, returns only
  // when stopped).
  // on_iteration is called after each completed iteration, once for each of its lines
  // (limits.multipv), best first. An exception thrown by on_iteration ends the search (helper
  // threads stopped and joined) and leaves search() to the caller. A stop requested on
  // `stop_token`, before the search starts or while it runs, ends it as stop() does (an infinite
  // search included); one requested before it starts makes it return at once, with the
  // best-ordered legal move at depth 0.
  Expected<SearchResult> search(const Position& pos, const SearchLimits& limits,
                                std::function<void(const SearchInfo&)> on_iteration = {},
                                std::stop_token stop_token = {});
  // From any thread: ends the running search within a few milliseconds (search() then returns
  // the best move of the deepest completed iteration). A stop() while no search runs is not
  // remembered: a caller that starts search() on another thread and may stop it at once
  // should pass a std::stop_token to search() instead.
  void stop();
  bool is_searching() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace moon
