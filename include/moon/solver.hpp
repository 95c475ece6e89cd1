// The exact solver: proves win, draw or loss for the side to move, and the distance to the end.
//
// Distances are exact game-theoretic values, in plies:
// - win:  the fewest plies in which the side to move can force the end of the game with its win;
// - loss: the most plies the side to move can hold out before the game ends with its loss;
// - draw: the fewest plies in which the game ends drawn when both sides only ever play moves
//         that keep the draw (a drawn game ends by the clock with equal counts, or at the last
//         placement of a custom setup that leaves both sides one counter or none).
// A position that is already over has distance 0 (like every distance, -1 when distances are not
// asked for: SolveOptions::distance) and no best move.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "moon/expected.hpp"
#include "moon/memory.hpp"
#include "moon/move.hpp"
#include "moon/position.hpp"
#include "moon/solve_bounds.hpp"

namespace moon {

enum class Outcome { win, draw, loss };  // for the side to move

// The same result seen by the other side (a win for one is a loss for the other).
constexpr Outcome opposite(Outcome outcome) {
  return outcome == Outcome::win ? Outcome::loss : outcome == Outcome::loss ? Outcome::win : Outcome::draw;
}

// The outcome a proven value (a SolveValue, solve_value.hpp) means for the side to move: its sign.
constexpr Outcome outcome_of(int value) {
  return value > 0 ? Outcome::win : value < 0 ? Outcome::loss : Outcome::draw;
}

std::string_view to_string(Outcome outcome);  // "win", "draw", "loss"

struct SolveResult {
  Outcome outcome = Outcome::draw;
  int plies = 0;              // the distance defined above (-1 when SolveOptions::distance is off)
  Move best;                  // a move keeping the outcome and the distance; null when the position is over
  std::uint64_t nodes = 0;    // positions visited, all threads
  std::int64_t time_ms = 0;
};

// What a solve answers for a game that is over, from the rules alone (more counters wins):
// distance 0 (-1 without distances), no move, no nodes. The solver answers it so without a
// search, and its frontends without making a solver and its table for nothing.
inline SolveResult over_game_result(const Position& pos, bool distance = true) {
  return {outcome_of(terminal_value(pos)), distance ? 0 : -1, Move(), 0, 0};
}

// The proven value of one move: the outcome and distance for the side that plays it, from the
// position before the move (a move into a lost position for the opponent is a win, one ply more).
struct MoveValue {
  Move move;
  Outcome outcome = Outcome::draw;
  int plies = 0;            // as in SolveResult, counting the move itself (-1 without distances)
  std::uint64_t nodes = 0;  // the nodes its proof took
  std::int64_t time_ms = 0;  // and its time
};

// The result of a position from the values of its moves (analyze()): the best move's value, and
// the nodes and time of all their proofs. An error for no values (analyze() of a game that is
// over gives none: solve() gives its value).
Expected<SolveResult> result_of(const std::vector<MoveValue>& values);

inline constexpr std::size_t max_solve_hash_mb = 65536;
inline constexpr int max_solve_threads = 256;
// The stack of each thread a solve runs on. The search recurses one call per ply, a few KiB
// each, and a line can be thousands of plies long with a long clock limit; a search that would
// need more than its stack (less a margin for the progress callback) stops with an error instead
// of overflowing it. It is only reserved: the pages are used as the stack grows into them. Where
// the system will not give that much to every thread (a limit on the process's address space),
// they all get half as much, and so on down to the least.
inline constexpr std::size_t solve_thread_stack_bytes = std::size_t{256} << 20;
inline constexpr std::size_t solve_least_thread_stack_bytes = std::size_t{16} << 20;
inline constexpr std::size_t solve_callback_stack_bytes = std::size_t{8} << 20;
// Every page of a solver's table is written when it is made, so that memory the machine lacks
// fails then, not in the middle of a solve: about 2 s a GiB on the machines of docs/SOLVER.md.
// From this size on, Solver::create() can say so while it is made (`moon solve`, `go solve`):
// the size from which every table is announced (memory.hpp).
inline constexpr std::size_t announced_solve_table_mb = announced_table_mb;

inline constexpr std::size_t default_solve_hash_mb = 64;

// Between the question and the counts in a progress line while solving.
inline constexpr std::string_view solve_progress_separator = " | ";

struct SolveOptions {
  // Transposition table size in MiB, 0 (no table) to max_solve_hash_mb, and at most the
  // machine's physical memory and the memory available when it is made (memory.hpp).
  std::size_t hash_mb = default_solve_hash_mb;
  int threads = 1;           // 1 to max_solve_threads (lazy SMP on one shared table)
  bool distance = true;      // false: prove only win/draw/loss (plies = -1, best keeps the outcome)
  // Called with one line of progress text (no newline) now and then (while solving: the question
  // being asked, solve_progress_separator, then the counts). While solving, from the first of
  // the solver's threads (not the thread that called solve()), with
  // solve_callback_stack_bytes of stack to use; while Solver::create() makes a large table, from
  // the thread that called it. An exception from it ends the solve (or analysis, or the making)
  // and is rethrown to the caller of solve(), analyze() or create(); the solver stays usable.
  std::function<void(const std::string&)> progress{};
};

// One solver owns its table and threads; several may live in one process. solve() blocks the
// calling thread while the solver's own threads (options.threads of them, each with a stack of
// solve_thread_stack_bytes) search; stop() may be called from any other thread.
class Solver {
 public:
  explicit Solver(SolveOptions options = {});
  // A solver with exactly these options, or the error set_options() gives for them (a size
  // above the machine's memory, or one that cannot be had, included), where the constructor
  // would clamp them and go without the table. With `announce_table`, a table of
  // announced_solve_table_mb or more gets two progress lines, "making the N MiB table" before
  // and "table made in S s" after (options out of range and a size above the machine's memory
  // are refused before either; a size the allocation refuses, or threads the system will not
  // make, after the first). A stop requested on `stop` while the table is made ends it with an error, as
  // set_options() says.
  static Expected<std::unique_ptr<Solver>> create(SolveOptions options, bool announce_table = false,
                                                  const std::stop_token& stop = {});
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // Validates (hash 0..max_solve_hash_mb and at most the machine's physical and available
  // memory, threads 1..max_solve_threads); not while solving. On an error nothing changes (the table stays; but
  // where a new size was made and then the threads could not be, the table is made again at
  // its old size, empty). The table is made before the threads, whose stacks take what address
  // space is left (ThreadPool halves them to fit), so that a limit on it refuses no table that
  // a smaller limit would have given.
  // The constructor clamps invalid options into range instead, and solves without a table when
  // the hash size cannot be had; call this to get the error. A stop requested on `stop` while a
  // new table's pages are written (seconds a GiB) ends it with the error "stopped while making
  // the N MiB table", the solver as it was.
  Expected<bool> set_options(SolveOptions options, const std::stop_token& stop = {});
  // Forgets the table (results stay exact either way: the table only speeds up): true; false,
  // and nothing done, while a solve runs (as Searcher::clear()).
  bool clear();

  // Proves the value of pos. Errors: rules out of range (check_rules()), stopped by stop() or by
  // a stop requested on `stop_token` (before the solve began or while it runs) before the proof
  // completed (the searches look at a stop every 1024 nodes: a proof done before, such as one
  // the table holds, is returned), called while another solve() of this solver is running, a
  // proof whose lines are too long for the threads' stacks (see solve_thread_stack_bytes), or
  // threads the system would not make.
  Expected<SolveResult> solve(const Position& pos, std::stop_token stop_token = {});
  // Proves the value of every legal move of pos, best first (wins fastest first, then draws
  // shortest first, then losses slowest first); empty if pos is over. Each move's position is
  // solved in turn on the same table; progress lines start with the move being proven ("move 3
  // of 11, a3a4: ..."). Same errors as solve(); stop() and `stop_token` end it too.
  Expected<std::vector<MoveValue>> analyze(const Position& pos, std::stop_token stop_token = {});
  // From any thread: a running solve() returns promptly with an error. Without a solve
  // running it does nothing (the next solve() starts afresh): a caller that starts a solve on
  // another thread and may have to end it before it has begun passes a std::stop_token.
  void stop();
  bool is_solving() const;

 private:
  struct Impl;
  class Session;
  // The options clamped, no table and no thread made yet: create() then makes the table
  // before the threads (set_options()).
  struct Unmade {};
  Solver(SolveOptions options, Unmade);
  Expected<SolveResult> prove(const Position& pos);  // solve() within a Session
  std::unique_ptr<Impl> impl_;
};

}  // namespace moon
