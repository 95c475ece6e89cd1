// The exact solver's search: fail-soft null-window probes on proven values, and the solve
// procedure built on them ("decided within d plies?" for growing d, and whole-game probes for
// win/draw/loss, then the best move, or the shortest drawing line). One SolveSearch is one
// thread's worth of search; threads share the SolveTable. Solver (solver.hpp) runs these on its
// threads; tests use them directly. docs/SOLVER.md explains the design and its measurements.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "moon/movegen.hpp"
#include "moon/position.hpp"
#include "moon/solve_bounds.hpp"
#include "moon/solve_keys.hpp"
#include "moon/solve_ordering.hpp"
#include "moon/solve_table.hpp"
#include "moon/solve_value.hpp"
#include "moon/solver.hpp"
#include "moon/symmetry.hpp"

namespace moon {

// The address of the calling function's stack frame. The solver's recursion goes one call deeper
// per ply, and a game can last thousands of plies (solve_max_plies), each taking a few KiB of
// stack, so SolveSearch watches how far its stack has grown (stacks grow downwards on the
// machines this library targets).
[[gnu::always_inline]] inline std::uintptr_t stack_address() {
  return reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
}

// How a search takes part in a solve: alone (all kinds of probes), or one of several sharing
// the work: deepening ("decided within d plies?" for growing d) or whole-game probes.
enum class SolveRole { alone, deepening, whole_game };

// The root's proven bounds, shared by the searches of one solve: each publishes what it proves.
struct SharedBounds {
  std::atomic<SolveValue> lower{-solve_win}, upper{solve_win};

  void publish(SolveValue new_lower, SolveValue new_upper) {
    for (SolveValue v = lower.load(std::memory_order_relaxed); v < new_lower;)
      if (lower.compare_exchange_weak(v, new_lower, std::memory_order_relaxed)) break;
    for (SolveValue v = upper.load(std::memory_order_relaxed); v > new_upper;)
      if (upper.compare_exchange_weak(v, new_upper, std::memory_order_relaxed)) break;
  }
  // True if the bounds already answer "value >= beta?".
  bool answers(SolveValue beta) const {
    return lower.load(std::memory_order_relaxed) >= beta || upper.load(std::memory_order_relaxed) < beta;
  }
};

template <class V>
class SolveSearch {
 public:
  // `stop` ends the search promptly when set; `variation` != 0 perturbs the move order (lazy
  // SMP helpers); `tick` is called every tick_interval nodes (progress, time checks).
  // `stack_bytes`: how much stack the search may use below the frame that calls solve() or
  // answer(); a search that would need more stops (too_deep()) instead of overflowing it.
  // Solver runs its searches on threads with stacks made for this (solve_thread_stack_bytes).
  // The table's entries hold under the rules they were proven under (its keys do not hold the
  // rules): clear it before it serves positions under other rules, as Solver does.
  SolveSearch(SolveTable& table, const std::atomic<bool>& stop, unsigned variation = 0,
              std::function<void()> tick = {}, std::size_t stack_bytes = default_stack_bytes)
      : table_(table), stop_(stop), variation_(variation), tick_(std::move(tick)), stack_bytes_(stack_bytes) {}

  static constexpr std::uint64_t tick_interval = std::uint64_t{1} << 20;
  // For a search on a thread the library did not make: half the usual 8 MiB of a main thread.
  static constexpr std::size_t default_stack_bytes = std::size_t{4} << 20;

  std::uint64_t nodes() const { return nodes_; }
  // True if the last solve() or answer() stopped because it would have needed more stack than
  // it was given: the lines it had to follow were too long (a long clock limit and many
  // counters). Its result is then not a proof.
  bool too_deep() const { return too_deep_; }

  // The answer to one null-window question "value >= beta?" about pos, as the search asks it of
  // its nodes: a value >= beta (a lower bound) for yes, < beta (an upper bound) for no. For tests.
  SolveValue answer(const Position& pos, SolveValue beta) {
    set_stack_floor();
    return search(pos, beta);
  }

  // The exact outcome (and, if asked, distance and a best move) of pos. False if aborted.
  //
  // The value is narrowed by null-window probes of two kinds: "won within d plies?" and "lost
  // within d plies?" for d = 1, 2, 3, ... (cheap while d is small; the first yes gives the
  // exact distance, as d - 1 was refuted), and "won?" / "not lost?" over the whole game. Alone,
  // a search interleaves them, giving the whole-game probes as many nodes as the deepening has
  // used so far (twice as many the next time; what a probe cut short had finished stays in the
  // table); where the counts differ they wait longer, until the deepening reaches the clock.
  // With `shared` bounds, several searches split the work by role and publish what they prove;
  // a probe that another search has made moot is cut short.
  bool solve(const Position& pos, bool distance, SolveResult& out,
             const std::function<void(const std::string&)>& note = {}, SolveRole role = SolveRole::alone,
             SharedBounds* shared = nullptr) {
    out = SolveResult{};
    set_stack_floor();
    if (pos.is_over()) {
      out = over_game_result(pos, distance);
      return true;
    }
    const auto say = [&](const std::string& text) {
      if (note) note(text);
    };
    const int fewest_plies_to_win = min_plies_to_decide(pos);
    SolveValue lower = solve_loss_in(fewest_plies_to_win), upper = solve_win_in(fewest_plies_to_win);
    const auto sync = [&] {
      if (!shared) return;
      shared->publish(lower, upper);
      lower = std::max(lower, shared->lower.load(std::memory_order_relaxed));
      upper = std::min(upper, shared->upper.load(std::memory_order_relaxed));
    };
    // One probe, with at most `budget` nodes (0: no limit); false if cut short or stopped.
    const auto narrow = [&](SolveValue beta, std::uint64_t budget = 0) {
      limit_ = budget ? nodes_ + budget : no_limit;
      shared_ = shared, probe_beta_ = beta;
      const SolveValue v = search(pos, beta);
      limit_ = no_limit;
      shared_ = nullptr;
      if (aborted_) {
        if (out_of_budget_) aborted_ = out_of_budget_ = false;
        sync();
        return false;
      }
      // A bound in the gap around the draw is read as the draw's: "won within 20 plies?"
      // answered "no, at most 16" says "not won" at all, and the outcome may then be known.
      if (v >= beta) lower = std::max(lower, tight_lower(v));
      else upper = std::min(upper, tight_upper(v));
      sync();
      return true;
    };
    const auto outcome_known = [&] { return lower > 0 || upper < 0 || (lower >= 0 && upper <= 0); };
    const auto finished = [&] { return distance ? lower >= upper : outcome_known(); };
    if (role == SolveRole::whole_game) {
      // Whole-game probes; once the outcome is known, "decided within one ply less than the
      // best found so far?" until the answer is no.
      while (!finished()) {
        if (!outcome_known()) {
          const bool won_question = lower <= 0 && upper > 0;
          say(whole_game_question(won_question ? 1 : 0) + describe_bounds(lower, upper));
          narrow(won_question ? 1 : 0);
        } else {
          const bool win = lower > 0;
          // A fail-soft "won?" answers with a bound in the gap around the draw (say 17): no
          // distance, and every question between it and solve_min_win is "won?" again. Each was
          // answered from the table in one node, and so the loop went some 18 000 times, one ply
          // at a time. The bound every win meets is where the distance questions start.
          const int most = plies_of(win ? std::max(lower, solve_min_win) : std::min(upper, -solve_min_win));
          say(std::string(win ? "won" : "not lost") + within(most - 1) + describe_bounds(lower, upper));
          narrow(win ? solve_win_in(most - 1) : solve_loss_in(most));
        }
        if (aborted_) return false;
      }
    } else {
      std::uint64_t deepening_nodes = 0, whole_game_budget = 4096;
      for (int d = 1; !finished(); ++d) {
        const std::uint64_t before = nodes_;
        if (d <= solve_max_plies) {
          // The progress line names the question being asked, with what is known before it.
          const bool asks_win = upper >= solve_win_in(d) && lower < solve_win_in(d);
          const bool asks_loss = lower <= solve_loss_in(d) && upper > solve_loss_in(d);
          if (asks_win || asks_loss) say("decided" + within(d) + describe_bounds(lower, upper));
          if (asks_win) narrow(solve_win_in(d));  // won within d?
          if (aborted_) return false;
          // Asked afresh: the answer to "won within d?" may have settled this one.
          if (lower <= solve_loss_in(d) && upper > solve_loss_in(d)) narrow(solve_loss_in(d + 1));  // not lost within d?
          if (aborted_) return false;
        }
        deepening_nodes += nodes_ - before;
        sync();
        // No game lasts longer than solve_max_plies: then the whole game, with no budget.
        const bool last = d >= solve_max_plies;
        // With unequal counts the clock, should it end the game, gives it to the side ahead: the
        // likely outcome is a win or a loss at the clock, whose distance only the deepening
        // proves, so until the deepening reaches the clock the whole-game probes wait for
        // uneven_whole_game_wait times the nodes they would otherwise wait for. With equal counts
        // (likely a draw, which only they settle) and in placement they go as before.
        const bool clock_likely_decides =
            !pos.in_placement() && pos.count(x) != pos.count(o) && d < pos.clock_left();
        const std::uint64_t wait = clock_likely_decides ? uneven_whole_game_wait : 1;
        if (role == SolveRole::alone && !outcome_known() && (deepening_nodes >= wait * whole_game_budget || last)) {
          const std::uint64_t budget = last ? 0 : whole_game_budget;
          bool done = true;
          if (lower <= 0 && upper > 0) {  // won?
            say(whole_game_question(1) + describe_bounds(lower, upper));
            done = narrow(1, budget);
          }
          if (done && upper <= 0 && lower < 0) {  // not lost?
            say(whole_game_question(0) + describe_bounds(lower, upper));
            done = narrow(0, budget);
          }
          if (aborted_) return false;
          if (!done) whole_game_budget *= 2;
        }
      }
    }
    say(describe_bounds(lower, upper));  // proven: what is left is finding the move (and a draw's line)
    out.outcome = lower > 0 ? Outcome::win : upper < 0 ? Outcome::loss : Outcome::draw;
    if (!distance) {
      out.plies = -1;
      // A move keeping the outcome (for a loss any move does). A win is sought at the bound that
      // proved it: a win within d plies, if the deepening found it, whose children's entries
      // answer at once, where "won?" over the whole game (beta 1) has to be proven afresh for
      // every child tried (16 k nodes instead of 4 for a win in 1, 6.9 M instead of 0.56 M for
      // a win in 15).
      out.best = find_move(pos, out.outcome == Outcome::win ? lower : out.outcome == Outcome::draw ? 0 : -solve_win);
      return !aborted_;
    }
    if (out.outcome == Outcome::draw) {
      for (int budget = min_plies_to_draw(pos);; ++budget) {
        say("draw: is there a drawing line of " + std::to_string(budget) + " plies?");
        Move first;
        const bool found = draw_line(pos, budget, &first);
        if (aborted_) return false;
        if (found) {
          out.plies = budget;
          out.best = first;
          no_draw_line_.fill({});
          return true;
        }
      }
    }
    out.plies = plies_of(lower);
    out.best = find_move(pos, lower);
    return !aborted_;
  }

 private:
  // The progress line's words: " within 1 ply? ", " within 13 plies? ".
  static std::string within(int plies) {
    return " within " + std::to_string(plies) + (plies == 1 ? " ply? " : " plies? ");
  }
  // The progress line's words for a whole-game probe: beta 1 asks "won?", beta 0 "not lost?".
  static std::string whole_game_question(SolveValue beta) {
    return beta > 0 ? "the whole game: won? " : "the whole game: not lost? ";
  }

  // Raw move bits rather than a Move, so that the type is trivial and a node's array of them
  // is left uninitialised: filling it with null moves (128 a node, the capacity then) took a
  // tenth of the solver's time.
  struct Scored {
    std::uint16_t raw;
    int score;
    Move move() const { return Move::from_raw(raw); }
    // Ordered by history (with the take-back and killer bonuses), the quiet moves, below
    // ruled_score: only they gain or lose history and become killers.
    bool by_history() const { return score < ruled_score; }
  };
  // The scores of the moves ordered by rule rather than by history: the table move first, then,
  // from ruled_score up, captures (by the counters they take) and, in placement at clock limits
  // 1 and 2, the placements on c3's lines.
  static constexpr int table_move_score = 1 << 30, ruled_score = 1 << 20;

  // What each destination of the side to move would capture (movement phase). search_movement()
  // finds them all at once, before listing the moves; the children are then made without
  // finding them again (Position::after_movement()).
  struct DestinationCaptures {
    Bitboard capturing = 0;                        // the destinations that capture
    std::array<Bitboard, square_count> captured;  // set for the squares of `capturing` only
    Bitboard at(Square to) const { return capturing & square_bb(to) ? captured[std::size_t(to)] : 0; }
  };
  // The child of pos after the legal move m; `captures`: pos's, in the movement phase, else null.
  static Position child_after(const Position& pos, Move m, const DestinationCaptures* captures) {
    if (captures && m.kind() == MoveKind::movement) return pos.after_movement(m, captures->at(m.to()));
    return pos.after<V>(m);
  }

  static constexpr std::uint64_t no_limit = ~std::uint64_t{0};
  // Nodes whose question looks at least this many plies ahead try enhanced transposition
  // cutoffs (search_moves()). Measured on 60 random endgames (docs/SOLVER.md): 3 and 4 halve the
  // nodes and save 15-20% of the time; 5 saves less; nearer the horizon the probes of every
  // child cost more than the small subtrees they save.
  static constexpr int transposition_cutoff_horizon = 4;
  // The same in the placement phase, where a node has up to 24 children to probe: from 10 on,
  // solves with 20 and 18 counters to place took 0.6 and 0.75 times the time with half and two
  // thirds of the nodes; from 8 on, fewer nodes, the same time there and more on a smaller
  // solve; from 4 on, fewer nodes still and less gain (docs/SOLVER.md, "Enhanced transposition
  // cutoffs").
  static constexpr int placement_cutoff_horizon = 10;
  // How much longer whole-game probes wait where the clock likely decides (solve()): 16 took
  // 11-18% fewer nodes than 1 on three sets of random endgames; waiting for the clock whatever
  // the counts made tiny draws 1.2-1.8 times dearer (docs/SOLVER.md).
  static constexpr std::uint64_t uneven_whole_game_wait = 16;

  void set_stack_floor() {
    const std::uintptr_t here = stack_address();
    stack_floor_ = here > stack_bytes_ ? here - stack_bytes_ : 0;
    too_deep_ = false;
  }

  void count_node() {
    if ((++nodes_ & (tick_interval - 1)) == 0 && tick_) tick_();
    if ((nodes_ & 1023) == 0) {
      if (stop_.load(std::memory_order_relaxed)) aborted_ = true;
      else if (shared_ && shared_->answers(probe_beta_)) aborted_ = out_of_budget_ = true;
    }
    if (nodes_ >= limit_ && !aborted_) aborted_ = out_of_budget_ = true;
  }

  // A question that looks less far ahead than the clock goes is asked of the board (any
  // clock): its entry serves the same board at every clock where the question fits.
  static bool asks_board(const Position& pos, SolveValue beta) {
    return !pos.in_placement() && asks_board(pos.clock_left(), beta);
  }
  // The same for a movement-phase position with `remaining` plies of clock left.
  static bool asks_board(int remaining, SolveValue beta) { return horizon(beta) < remaining; }
  // The hashes of the table entries a node reads: the one its question is asked of (the
  // board's if asks_board(), else the exact position's), and the board's (the exact position's
  // again in the placement phase, which has no board entries).
  struct EntryHashes {
    std::uint64_t asked, board;
  };
  static EntryHashes entry_hashes(const Position& pos, SolveValue beta, const TableKeys& keys) {
    if (pos.in_placement()) return {solve_hash(keys.exact), solve_hash(keys.exact)};
    if (asks_board(pos, beta)) return {solve_hash(keys.board), solve_hash(keys.board)};
    return {solve_hash(keys.exact), solve_hash(keys.board)};
  }
  void prefetch(const EntryHashes& hashes) const {
    table_.prefetch(hashes.asked);
    if (hashes.board != hashes.asked) table_.prefetch(hashes.board);
  }

  // A move of pos whose value is at least `value` (the value of pos, proven). The moves the
  // table holds for pos come first, the exact entry's before the board entry's: the last one
  // stored proved a bound, often `value` itself, and the others would each need a search of
  // their own.
  Move find_move(const Position& pos, SolveValue value) {
    MoveList list;
    generate_moves<V>(pos, list);
    const TableKeys keys = table_keys(pos);
    std::array<Move, 2> stored{};
    for (std::size_t i = 0; i < 2; ++i) {
      const std::uint64_t key = i == 0 ? keys.exact : keys.board;
      SolveBounds known;
      if (table_.probe(key, solve_hash(key), known))
        stored[i] = apply_symmetry(inverse_symmetry(keys.symmetry), known.move);
    }
    for (const Move m : {stored[1], stored[0]}) {
      const auto found = std::find(list.begin(), list.end(), m);
      if (found != list.end()) std::rotate(list.begin(), found, found + 1);
    }
    for (Move m : list) {
      const Position child = pos.after<V>(m);
      const SolveValue cb = child_beta(value);
      const SolveValue v = child.is_over() ? terminal_value(child) : search(child, cb);
      if (aborted_) return Move{};
      if (v < cb) return m;
    }
    return Move{};  // not reached when `value` is proven
  }

  // True if `child`, a child of a proven draw, is a draw too. Its side to move cannot lose
  // (the parent would then win by moving there), so only "is it won?" needs a proof.
  bool child_of_draw_is_draw(const Position& child) {
    if (child.is_over()) return terminal_value(child) == 0;
    return search(child, 1) < 1;
  }

  // True if pos (a draw) can end drawn within `budget` plies with both sides playing only
  // moves that keep the draw; *first is then the first move of such a line.
  bool draw_line(const Position& pos, int budget, Move* first) {
    if (pos.is_over()) return true;
    if (budget < min_plies_to_draw(pos)) return false;
    NoDrawLine& known = no_draw_line_[solve_hash(pos.key()) % no_draw_line_.size()];
    if (known.key == pos.key() && known.budget >= budget) return false;
    MoveList list, known_drawn, others;
    generate_moves<V>(pos, list);
    // Children the table already knows to be draws (not won: see child_of_draw_is_draw()) first:
    // they cost no search.
    for (Move m : list) (child_known_drawn(pos, m) ? known_drawn : others).push(m);
    for (const MoveList* moves : {&known_drawn, &others})
      for (Move m : *moves) {
        const Position child = pos.after<V>(m);
        if (!child.is_over() && budget - 1 < min_plies_to_draw(child)) continue;
        if (!child_of_draw_is_draw(child) || aborted_) {
          if (aborted_) return false;
          continue;
        }
        if (draw_line(child, budget - 1, nullptr)) {
          if (first) *first = m;
          return true;
        }
        if (aborted_) return false;
      }
    known = {pos.key(), budget};
    return false;
  }
  bool child_known_drawn(const Position& pos, Move m) const {
    const Position child = pos.after<V>(m);
    if (child.is_over()) return terminal_value(child) == 0;
    const std::uint64_t key = table_keys(child).exact;
    SolveBounds child_bounds;
    return table_.probe(key, solve_hash(key), child_bounds) && child_bounds.upper <= 0;
  }

  // `known_keys`: table_keys(pos) if the caller has them already.
  SolveValue search(const Position& pos, SolveValue beta, const TableKeys* known_keys = nullptr) {
    count_node();
    if (!aborted_ && stack_address() < stack_floor_) aborted_ = too_deep_ = true;
    if (aborted_) return 0;
    if (pos.is_over()) return terminal_value(pos);
    if (pos.in_placement()) return search_placement(pos, beta, known_keys ? *known_keys : table_keys(pos));
    // In the movement phase a game not over lasts at least one more ply.
    if (beta > solve_win_in(1)) return solve_win_in(1);
    if (beta <= solve_loss_in(1)) return solve_loss_in(1);
    const SolveValue asked = question_asked(pos, beta);
    return answer_to(beta, asked, search_movement(pos, asked, known_keys));
  }

  // Within a horizon shorter than the clock the game can only end by a capture, so the side to
  // move can only win on its own moves (an odd number of plies from here) and only lose on the
  // opponent's (an even number). "Won within an even h" is then "won within h - 1", and "not
  // lost within an odd h" is "not lost within h - 1": asked that way, the answer is shared with
  // the question one ply shorter (the deepening asks both in turn). Returns the beta to ask of
  // pos (movement phase, not over) for the question "value >= beta?".
  static SolveValue question_asked(const Position& pos, SolveValue beta) {
    return pos.in_placement() ? beta : question_asked(pos.clock_left(), beta);
  }
  // The same for a movement-phase position with `remaining` plies of clock left (0 for a
  // placement-phase one: its question is asked as it is).
  static SolveValue question_asked(int remaining, SolveValue beta) {
    const int h = horizon(beta);
    if (h >= remaining) return beta;  // !asks_board(remaining, beta), h computed once
    if (beta > 0 && h % 2 == 0) return solve_win_in(h - 1);
    if (beta < 0 && h % 2 == 1) return solve_loss_in(h);
    return beta;
  }
  // The answer to "value >= beta?" from v, the answer to the equivalent question `asked`.
  static SolveValue answer_to(SolveValue beta, SolveValue asked, SolveValue v) {
    if (asked == beta) return v;
    if (beta > 0) return v >= asked ? v : std::min(v, beta - 1);
    return v >= asked ? std::max(v, beta) : v;
  }

  // A movement-phase position not over, asked a question its value may not settle at once.
  SolveValue search_movement(const Position& pos, SolveValue beta, const TableKeys* known_keys) {
    const int remaining = pos.clock_left();
    const bool any_clock = asks_board(pos, beta);
    // A question at the edge of the range of a position not over is answered below before the
    // table is reached: no keys (the canonical image) and no bucket are needed for it.
    const bool two_plies = answered_from_moves(pos, beta);
    const bool at_edge = beta > solve_win_in(2) || beta <= solve_loss_in(2) || two_plies;
    TableKeys keys{};
    EntryHashes hashes{};
    if (!at_edge) {
      keys = known_keys ? *known_keys : table_keys(pos);
      hashes = entry_hashes(pos, beta, keys);
      prefetch(hashes);  // on their way while the moves are looked at
    }
    const Color us = pos.side_to_move();
    const Bitboard ours = pos.pieces(us), theirs = pos.pieces(~us), empty = pos.empty();
    // What a move captures depends only on where it lands (the square it leaves is never part
    // of a flank), so captures are known per destination before any move is listed.
    const Bitboard reachable = movement_destinations<V>(ours, empty);
    const Bitboard capturing = reachable & capturing_squares<V::diagonal>(ours, theirs);
    DestinationCaptures captures;
    captures.capturing = capturing;
    for (Square t : squares(capturing)) {
      const Bitboard captured = captures_at<V::diagonal>(t, ours | square_bb(t), theirs);
      if (at_most_one(theirs & ~captured)) return solve_win_in(1);  // the opponent is down to one counter
      captures.captured[std::size_t(t)] = captured;
    }
    // A move that does not capture at clock limit - 1 ends the game, decided by the counts:
    // all those moves are worth the same, known without searching.
    SolveValue best = -solve_win;
    const bool clock_ends = remaining <= 1;
    const bool has_quiet = (reachable & ~capturing) != 0;
    if (clock_ends && has_quiet) {
      const int n_us = popcount(ours), n_them = popcount(theirs);
      best = n_us > n_them ? solve_win_in(1) : n_us < n_them ? solve_loss_in(1) : 0;
      if (best >= beta) return best;
    }
    if (two_plies) return survives_two_plies(pos, captures);
    // Every other move leads to a position not over, worth solve_loss_in(1)..solve_win_in(1) to the
    // opponent: solve_loss_in(2)..solve_win_in(2) to us. Probes at the edge of that range end here.
    const bool has_searched_moves = capturing || (!clock_ends && has_quiet) || !reachable;
    if (!has_searched_moves) return best;  // exact: only game-ending moves
    if (beta > solve_win_in(2)) return std::max(best, solve_win_in(2));
    if (beta <= solve_loss_in(2)) return std::max(best, solve_loss_in(2));

    Move table_move;
    SolveValue answer;
    if (table_answer(pos, beta, keys, hashes, answer, table_move)) return answer;
    // Every whole-game result is recorded in the board's clock range (see table_answer()).
    const bool whole_game = horizon(beta) == no_horizon;
    const std::uint64_t nodes_before = nodes_;

    MoveList list;
    generate_moves<V>(pos, list);
    const TakeBacks take_backs(line());
    const Killers killers = ply_ < line_capacity ? killers_[std::size_t(ply_)] : Killers{};
    std::array<Scored, MoveList::capacity> moves;
    int n = 0;
    for (Move m : list) {
      int score;
      if (m == table_move) {
        score = table_move_score;
      } else if (m.kind() == MoveKind::movement && (capturing & square_bb(m.to()))) {
        score = ruled_score | popcount(captures.captured[std::size_t(m.to())]) << 16;
      } else if (clock_ends && m.kind() == MoveKind::movement) {
        continue;  // scored above
      } else {
        score = quiet_score(us, m, hashes.asked) + take_backs.bonus(m) + killers.bonus(m);
      }
      moves[std::size_t(n++)] = Scored{m.raw(), score};
    }
    const std::uint64_t key = any_clock ? keys.board : keys.exact;
    const SolveValue v = search_moves(pos, beta, key, hashes.asked, keys.symmetry, any_clock ? remaining : 0, moves, n, best, nodes_before,
                                     &captures);
    if (whole_game && !aborted_) {
      const std::uint64_t range_key = clock_range_key(keys.board, beta > 0);
      if ((v >= beta) == clock_end_answers_yes(pos, beta))
        table_.store(range_key, hashes.board, remaining, solve_win, Move{}, nodes_ - nodes_before);
      else
        table_.store(range_key, hashes.board, -solve_win, remaining, Move{}, nodes_ - nodes_before);
    }
    return v;
  }

  // Whether search_movement() answers the question (as question_asked() gives it) from pos's
  // moves, without keys or table: "not lost within 2 plies?" asked of the board.
  static bool answered_from_moves(const Position& pos, SolveValue asked) {
    return asked == solve_loss_in(3) && asks_board(pos, asked);
  }

  // "Not lost within 2 plies?" (beta = solve_loss_in(3)) asked of the board, so that the clock cannot
  // end the game that soon, in a position where no move of ours wins at once: yes (solve_loss_in(3)) if
  // some move of ours leaves the opponent no capture that takes all our counters but one; else
  // every move loses in 2 (solve_loss_in(2)). A quarter of the solver's nodes ask this question, and
  // a node's own moves answer it faster than a table probe would. Measured (docs/SOLVER.md): 10%
  // less time on 60 random endgames; storing the yes answers as well made it 77% slower (they
  // crowd out dearer entries), and counting the move that answers yes in the history, 15%.
  SolveValue survives_two_plies(const Position& pos, const DestinationCaptures& captures) {
    const Color us = pos.side_to_move();
    int tried = 0;
    const bool survives = any_movement<V>(pos, [&](Move m) {
      ++tried;
      const Position child = child_after(pos, m, &captures);
      const Bitboard mine = child.pieces(us), theirs = child.pieces(~us), empty = child.empty();
      const Bitboard capturing = movement_destinations<V>(theirs, empty) & capturing_squares<V::diagonal>(theirs, mine);
      for (Square t : squares(capturing))
        if (at_most_one(mine & ~captures_at<V::diagonal>(t, theirs | square_bb(t), mine))) return false;
      return true;
    });
    if (survives) return solve_loss_in(3);
    // Rare, and worth telling the searches that look further ahead (a "no" at 2 plies is a no
    // at every horizon): stored for the board, as search_moves() would.
    const TableKeys keys = table_keys(pos);
    table_.store(keys.board, solve_hash(keys.board), -solve_win, solve_loss_in(2), Move{}, std::uint64_t(tried));
    return solve_loss_in(2);
  }

  // Whether the game ending by the clock now (no capture), with the counts as they are, would
  // answer the whole-game question "value >= beta?" ("won?" or "not lost?") with yes.
  static bool clock_end_answers_yes(const Position& pos, SolveValue beta) {
    const int us = pos.count(pos.side_to_move()), them = pos.count(~pos.side_to_move());
    return beta > 0 ? us > them : us >= them;
  }

  // What the entry that "value >= beta?" is asked of knows, for a movement-phase position not
  // over with `remaining` plies of clock left (beta as question_asked() gives it), or for a
  // placement-phase one with `remaining` 0 (its exact entry): true, with the answer in `value`,
  // if that settles the question. `table_move` gets the entry's move, if any.
  // One bucket: the enhanced transposition cutoffs read only this of every child.
  bool asked_entry_answer(int remaining, SolveValue beta, const TableKeys& keys, std::uint64_t hash, SolveValue& value,
                          Move& table_move) const {
    const auto settle = [&](SolveValue answer) {
      value = answer;
      return true;
    };
    const bool any_clock = asks_board(remaining, beta);
    SolveBounds known;
    if (!table_.probe(any_clock ? keys.board : keys.exact, hash, known)) return false;
    if (!any_clock) {
      if (known.lower >= beta) return settle(known.lower);
      if (known.upper < beta) return settle(known.upper);
    } else {
      // A board entry's bound was proven where it looked less far ahead than the clock went
      // there. It holds here if it also looks less far ahead than our clock goes; if not, the
      // weaker answer to our question, looking no further ahead than the bound, still does.
      const int ahead = horizon(beta);
      if (known.lower >= beta) {
        const int h = horizon(known.lower);
        if (h < remaining) return settle(known.lower);
        if (ahead <= h) return settle(beta);
      }
      if (known.upper < beta) {
        const int h = horizon(known.upper + 1);
        if (h < remaining) return settle(known.upper);
        if (ahead <= h) return settle(beta - 1);
      }
    }
    table_move = apply_symmetry(inverse_symmetry(keys.symmetry), known.move);
    return false;
  }

  // What the table knows of "value >= beta?" for pos (movement phase, not over; beta as
  // question_asked() gives it): true, with the answer in `value`, if that settles the question.
  // `table_move` gets the move stored for pos, if any, in pos's frame. The entry the question is
  // asked of is read first (asked_entry_answer()); in the exact regime, the board's entry and
  // clock range then are, in a second bucket.
  bool table_answer(const Position& pos, SolveValue beta, const TableKeys& keys, const EntryHashes& hashes,
                    SolveValue& value, Move& table_move) const {
    const auto settle = [&](SolveValue answer) {
      value = answer;
      return true;
    };
    const int remaining = pos.clock_left();
    if (asked_entry_answer(remaining, beta, keys, hashes.asked, value, table_move)) return true;
    const bool any_clock = asks_board(pos, beta);
    SolveBounds known;
    if (!any_clock) {
      // What the board's entry knows with a horizon short of our clock holds here too.
      if (table_.probe(keys.board, hashes.board, known)) {
        if (known.lower >= beta && horizon(known.lower) < remaining) return settle(known.lower);
        if (known.upper < beta && horizon(known.upper + 1) < remaining) return settle(known.upper);
        if (table_move.is_null()) table_move = apply_symmetry(inverse_symmetry(keys.symmetry), known.move);
      }
    }
    // The whole-game questions ("won?", "not lost?") are monotone in the clock (see
    // clock_range_key): answers for this board at other clocks may settle this one. The entry
    // lives in the board entry's bucket, just read: no further cache miss.
    const bool whole_game = horizon(beta) == no_horizon;
    if (whole_game && table_.probe(clock_range_key(keys.board, beta > 0), hashes.board, known)) {
      // lower: the most plies of clock left at which the answer is known to be the clock end's
      // (so it is at every fewer); upper: the fewest at which it is known to be the other one
      // (so it is at every more).
      const bool clock_end_says_yes = clock_end_answers_yes(pos, beta);
      if (remaining <= known.lower) return settle(clock_end_says_yes ? beta : beta - 1);
      if (remaining >= known.upper) return settle(clock_end_says_yes ? beta - 1 : beta);
    }
    return false;
  }

  // The placement phase: no captures, no clock; every move is searched, but those the table
  // answers where search_moves() asks it about every child first.
  SolveValue search_placement(const Position& pos, SolveValue beta, const TableKeys& keys) {
    const int min_plies = min_plies_to_decide(pos);
    if (beta > solve_win_in(min_plies)) return solve_win_in(min_plies);
    if (beta <= solve_loss_in(min_plies)) return solve_loss_in(min_plies);
    const std::uint64_t key = keys.exact, hash = solve_hash(key);
    SolveBounds known;
    Move table_move;
    if (table_.probe(key, hash, known)) {
      if (known.lower >= beta) return known.lower;
      if (known.upper < beta) return known.upper;
      table_move = apply_symmetry(inverse_symmetry(keys.symmetry), known.move);
    }
    const std::uint64_t nodes_before = nodes_;
    MoveList list;
    generate_moves<V>(pos, list);
    std::array<Scored, MoveList::capacity> moves;
    int n = 0;
    // With a clock limit of 1 or 2 the movement phase is short, and it starts with moves into c3,
    // the one square left empty, which capture along c3's rank and file: placements there come
    // first (their order fixed, and kept out of the history). Measured (docs/SOLVER.md,
    // "Ordering"): at limits 1 and 2 from a sixth fewer nodes (random positions) to 17 times
    // fewer (20 counters to place); at 3 and 4, half as many again on random positions, so not
    // there.
    const bool centre_lines_first = pos.rules().clock_limit <= 2;
    for (Move m : list) {
      const bool first = centre_lines_first && (centre_lines & square_bb(m.to()));
      const int score = m == table_move ? table_move_score : first ? ruled_score : quiet_score(pos.side_to_move(), m, hash);
      moves[std::size_t(n++)] = Scored{m.raw(), score};
    }
    return search_moves(pos, beta, key, hash, keys.symmetry, 0, moves, n, -solve_win, nodes_before, nullptr);
  }

  // Searches the scored moves best first; `best` is the value already known from moves not
  // listed. `any_clock_remaining` != 0: `key` is the board's, asked with that many plies of
  // clock left, and what is stored is cut back to what holds at any clock with as many left.
  SolveValue search_moves(const Position& pos, SolveValue beta, std::uint64_t key, std::uint64_t hash, int symmetry,
                          int any_clock_remaining, std::array<Scored, MoveList::capacity>& moves, int n,
                          SolveValue best, std::uint64_t nodes_before, const DestinationCaptures* captures) {
    const SolveValue cb = child_beta(beta);
    // Best first (insertion sort: the lists are short), so that the next child is known and its
    // table bucket can be fetched from memory while the current child is searched.
    for (std::size_t i = 1; i < std::size_t(n); ++i) {
      const Scored m = moves[i];
      std::size_t j = i;
      for (; j > 0 && moves[j - 1].score < m.score; --j) moves[j] = moves[j - 1];
      moves[j] = m;
    }
    // Move i answers yes with the value v (searched, or known from the table): the lower bound
    // is stored with the move. A quiet move gains a point of history either way: counting the
    // answers the enhanced transposition cutoffs read off the table as well took 6% fewer nodes
    // on the 60 random endgames and 2% on 74 fresh ones (docs/SOLVER.md, "Ordering").
    const auto cut_off = [&](int index, SolveValue v) {
      const std::size_t i = std::size_t(index);
      const Move m = moves[i].move();
      const bool fits = !any_clock_remaining || horizon(v) < any_clock_remaining;
      table_.store(key, hash, fits ? v : beta, solve_win, apply_symmetry(symmetry, m), nodes_ - nodes_before);
      if (moves[i].by_history()) {
        auto& history = history_[pos.side_to_move()];
        if ((history[m.raw() & 4095] += 1) > (1 << 18)) halve_history();
        // The quiet moves ordered before it, each of which answered no (searched, or settled from
        // the table by the enhanced transposition cutoffs), lose a point each (never going below
        // 0). Measured (docs/SOLVER.md, "Ordering"): 16% fewer nodes on the 60 random endgames,
        // 11.5% on 74 fresh ones; the small ones unchanged.
        for (std::size_t j = 0; j < i; ++j)
          if (moves[j].by_history() && history[moves[j].raw & 4095] > 0) --history[moves[j].raw & 4095];
        // Placement nodes do not read the killers (measured: more nodes on most placement solves).
        if (!pos.in_placement() && ply_ < line_capacity) killers_[std::size_t(ply_)].add(m);
      }
      return v;
    };
    const auto fails_low = [&] {
      const bool fits = !any_clock_remaining || horizon(best + 1) < any_clock_remaining;
      table_.store(key, hash, -solve_win, fits ? best : beta - 1, Move{}, nodes_ - nodes_before);
      return best;
    };
    // A movement-phase child asked a question at the edge of its range answers it before its
    // table probe: its keys (the canonical image) and its buckets would be wasted work.
    const bool children_probe = pos.in_placement() || (cb > solve_loss_in(2) && cb <= solve_win_in(2));
    // The images of pos's boards, made when the first child needs its keys.
    BoardImages images;
    bool images_known = false;

    // Enhanced transposition cutoffs (search_after_table_cutoffs()): far enough from the horizon,
    // the table is asked about every child before any is searched; a child it shows to refute
    // the opponent's question ends the node without a search.
    const int cutoff_horizon = pos.in_placement() ? placement_cutoff_horizon : transposition_cutoff_horizon;
    const ChildResult r = children_probe && n > 1 && horizon(beta) >= cutoff_horizon
                              ? search_after_table_cutoffs(pos, beta, moves, n, captures, best)
                              : search_children(pos, beta, moves, n, captures, best, [&](std::size_t, const Position& child, TableKeys& keys) {
                                  if (!wants_keys(cb, children_probe, child)) return false;
                                  if (!images_known) images = board_images(pos.pieces(x), pos.pieces(o)), images_known = true;
                                  keys = child_table_keys(images, pos, child);
                                  return true;
                                });
    if (aborted_) return 0;
    return r.index >= 0 ? cut_off(r.index, r.value) : fails_low();
  }

  // What search_children() found: the move answering yes (index, and its value, searched or
  // known from the table), or index -1 if every move answered no.
  struct ChildResult {
    int index = -1;
    SolveValue value = 0;
  };

  // Whether a child needs its keys: not if its question is at the edge of its range (see
  // children_probe in search_moves()), nor if it answers from its moves (answered_from_moves():
  // cb is solve_loss_in(3), or solve_loss_in(4) that question_asked() shortens to it).
  static bool wants_keys(SolveValue cb, bool children_probe, const Position& child) {
    const bool maybe_from_moves = cb == solve_loss_in(3) || cb == solve_loss_in(4);
    return children_probe && !(maybe_from_moves && answered_from_moves(child, question_asked(child, cb)));
  }

  // Searches the sorted moves in turn (or, given `order`, the n moves order[0], order[1], ...)
  // until one answers "value >= beta?" with yes; `best` rises with every value found.
  // keys_of(i, child, keys) fills in child i's table keys and returns true, or returns false if
  // the child has no use for them. The next child is made, and its buckets fetched, while the
  // current one is searched.
  template <class KeysOf>
  MOON_FORCE_INLINE ChildResult search_children(const Position& pos, SolveValue beta,
                                                const std::array<Scored, MoveList::capacity>& moves, int n,
                                                const DestinationCaptures* captures, SolveValue& best, KeysOf keys_of,
                                                const std::uint8_t* order = nullptr) {
    if (n == 0) return {};
    const auto index = [&](int k) { return order ? std::size_t(order[k]) : std::size_t(k); };
    const SolveValue cb = child_beta(beta);
    Position child = child_after(pos, moves[index(0)].move(), captures);
    TableKeys child_keys{};
    bool child_has_keys = keys_of(index(0), child, child_keys);
    for (int k = 0; k < n; ++k) {
      const std::size_t i = index(k);
      const Position current = child;
      const TableKeys current_keys = child_keys;
      const bool current_has_keys = child_has_keys;
      if (k + 1 < n) {
        child = child_after(pos, moves[index(k + 1)].move(), captures);
        child_has_keys = keys_of(index(k + 1), child, child_keys);
        if (child_has_keys) {
          // Written out rather than prefetch(entry_hashes(...)): measured, with the helper here a
          // placement-heavy solve took 30% longer for the same nodes (the cause was not found).
          const bool board_entry = asks_board(child, cb);
          table_.prefetch(solve_hash(board_entry ? child_keys.board : child_keys.exact));
          if (!board_entry && !child.in_placement()) table_.prefetch(solve_hash(child_keys.board));
        }
      }
      if (ply_ < line_capacity) line_[std::size_t(ply_)] = moves[i].raw;
      ++ply_;
      const SolveValue v = from_child(search(current, cb, current_has_keys ? &current_keys : nullptr));
      --ply_;
      if (aborted_) return {};
      if (v > best) best = v;
      if (v >= beta) return {int(i), v};
    }
    return {};
  }

  // Enhanced transposition cutoffs, then the search: the children of pos are made and their
  // keys computed, all their buckets prefetched at once, and each child's entry
  // read through asked_entry_answer(), as the child's own node would read it first. A child the
  // table alone shows to answer "value >= beta?" with yes ends the node; else the children it
  // does not settle are searched, with the keys already computed. Not inlined, so that its arrays
  // stay out of the stack frame of the nodes that do not get here.
  [[gnu::noinline]] ChildResult search_after_table_cutoffs(const Position& pos, SolveValue beta,
                                                           const std::array<Scored, MoveList::capacity>& moves,
                                                           int n, const DestinationCaptures* captures, SolveValue& best) {
    const SolveValue cb = child_beta(beta);
    const BoardImages images = board_images(pos.pieces(x), pos.pieces(o));
    std::array<TableKeys, MoveList::capacity> child_keys;
    // The hash of the entry each child's question is asked of: question_asked() only ever
    // shortens a question that asks_board(), so cb's entry is the asked question's.
    std::array<std::uint64_t, MoveList::capacity> asked_hash;
    // And each child's clock left, all that reading its entry needs of it: making every child
    // again to read the entries took 5.7% of the solver's instructions (docs/SOLVER.md, "Speed").
    std::array<std::uint8_t, MoveList::capacity> remaining;
    for (std::size_t i = 0; i < std::size_t(n); ++i) {
      const Position child = child_after(pos, moves[i].move(), captures);
      child_keys[i] = child_table_keys(images, pos, child);
      asked_hash[i] = entry_hashes(child, cb, child_keys[i]).asked;
      table_.prefetch(asked_hash[i]);
      // A child still in placement has only its exact entry and its question as asked: read as
      // with no clock left, which is how asked_entry_answer() and question_asked() take it.
      remaining[i] = child.in_placement() ? 0 : std::uint8_t(child.clock_left());
    }
    // A child whose entry shows that it answers no would be a node answered by that entry (or
    // sooner): the entry's bound counts towards `best` and the child is not searched. Measured
    // (docs/SOLVER.md): a quarter fewer nodes, 0.89-0.93 of the time.
    std::array<std::uint8_t, MoveList::capacity> unsettled;
    int open = 0;
    for (std::size_t i = 0; i < std::size_t(n); ++i) {
      const SolveValue asked = question_asked(remaining[i], cb);
      SolveValue answer;
      Move unused;
      if (asked_entry_answer(remaining[i], asked, child_keys[i], asked_hash[i], answer, unused)) {
        const SolveValue value = from_child(answer_to(cb, asked, answer));
        if (value >= beta) return {int(i), value};
        best = std::max(best, value);
      } else {
        unsettled[std::size_t(open++)] = std::uint8_t(i);
      }
    }
    return search_children(pos, beta, moves, open, captures, best, [&](std::size_t i, const Position&, TableKeys& keys) {
      keys = child_keys[i];
      return true;
    }, unsettled.data());
  }

  // History, and for lazy SMP helpers a little noise so that threads part ways.
  int quiet_score(Color us, Move m, std::uint64_t hash) const {
    int score = history_[us][m.raw() & 4095];
    if (variation_) {
      std::uint64_t h = (hash ^ (std::uint64_t(variation_) << 32) ^ m.raw()) * 0x9e3779b97f4a7c15ULL;
      score += int(h >> 61);
    }
    return score;
  }

  std::span<const std::uint16_t> line() const {
    return ply_ <= line_capacity ? std::span<const std::uint16_t>(line_.data(), std::size_t(ply_))
                                 : std::span<const std::uint16_t>{};
  }

  void halve_history() {
    for (auto& side : history_)
      for (int& h : side) h /= 2;
  }

  SolveTable& table_;
  const std::atomic<bool>& stop_;
  unsigned variation_;
  std::function<void()> tick_;
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
  bool out_of_budget_ = false;  // aborted_ because limit_ was reached or the probe was made moot, not stopped
  std::size_t stack_bytes_;
  std::uintptr_t stack_floor_ = 0;  // the lowest stack address search() may run at
  bool too_deep_ = false;
  SharedBounds* shared_ = nullptr;  // during a root probe: bounds other searches publish
  SolveValue probe_beta_ = 0;
  std::uint64_t limit_ = no_limit;
  std::array<std::array<int, 4096>, 2> history_{};
  // The moves from the root of the current question down to the node searched (ply_ of them;
  // deeper than line_capacity plies the line is not recorded, and line() is empty).
  static constexpr int line_capacity = 1024;
  std::array<std::uint16_t, line_capacity> line_{};
  int ply_ = 0;
  std::array<Killers, line_capacity> killers_{};  // per ply from the root of the current question
  // Positions known to have no drawing line within a budget: the largest such budget. A small
  // direct-mapped memo, made with the search (an entry overwritten only costs that search again):
  // on the draws measured the draw-line search failed at no more than two positions.
  struct NoDrawLine {
    std::uint64_t key = 0;
    int budget = -1;
  };
  std::array<NoDrawLine, 256> no_draw_line_{};
};

}  // namespace moon
