// The search: legal results in every phase and variant, proven scores against an exhaustive
// minimax, the table's neutrality on proven results, limits, stop, bench, edge positions.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <future>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "moon/search_bench.hpp"
#include "moon/evaluation.hpp"
#include "moon/memory.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/perft.hpp"
#include "moon/search.hpp"
#include "moon/solve_table.hpp"
#include "moon/solver.hpp"
#include "moon/transposition_table.hpp"
#include "line_checks.hpp"
#include "machine_memory.hpp"
#include "random_positions.hpp"

using namespace moon;
using test::check_line_ends_game;
using test::pv_is_legal;

namespace {

#ifdef MOON_SANITIZE_BUILD
constexpr int scale = 8;  // the sanitizers run about ten times slower: fewer cases
#else
constexpr int scale = 1;
#endif

const Rules all_variants[] = {
    Rules{},
    Rules{Movement::slide, CaptureLines::orthogonal, Rules::default_clock_limit},
    Rules{Movement::step, CaptureLines::orthogonal_and_diagonal, Rules::default_clock_limit},
    Rules{Movement::slide, CaptureLines::orthogonal_and_diagonal, 12},
};

Position parse(std::string_view fen, const Rules& rules = {}) {
  const auto pos = parse_position(fen, rules);
  REQUIRE_MESSAGE(pos.has_value(), std::string(fen));
  return *pos;
}

// The exact value of pos, bracketed: plain exhaustive minimax to `depth` plies, where a
// position left unexplored may still end anywhere from the next ply on. lo == hi when the
// game's value (in the search's scale, `ply` plies from the root) is known.
std::pair<Score, Score> minimax_bounds(const Position& pos, int depth, int ply = 0) {
  if (pos.is_over()) {
    const Result r = pos.result();
    if (r == Result::draw) return {0, 0};
    const bool won = (r == Result::x_wins) == (pos.side_to_move() == x);
    const Score v = won ? win_in(ply) : loss_in(ply);
    return {v, v};
  }
  if (depth == 0) return {loss_in(ply + 1), win_in(ply + 1)};
  Score lo = -score_infinite, hi = -score_infinite;
  for (Move m : legal_moves(pos)) {
    const auto [child_lo, child_hi] = minimax_bounds(pos.after(m), depth - 1, ply + 1);
    lo = std::max(lo, -child_hi);
    hi = std::max(hi, -child_lo);
  }
  return {lo, hi};
}

SearchResult search(const Position& pos, int depth, SearchOptions options = {}) {
  Searcher s(options);
  SearchLimits limits;
  limits.depth = depth;
  auto r = s.search(pos, limits);
  REQUIRE(r.has_value());
  return *r;
}

// A random position of any phase: random legal moves from the start.
Position random_game_position(std::mt19937& rng, const Rules& rules) {
  Position pos = Position::start(rules);
  const int plies = int(rng() % 60);
  for (int i = 0; i < plies && !pos.is_over(); ++i) {
    const MoveList moves = legal_moves(pos);
    pos.play(moves[rng() % moves.size()]);
  }
  return pos;
}

// A random sparse movement-phase position: 2-4 counters a side, any clock.
Position random_endgame(std::mt19937& rng, const Rules& rules) {
  for (;;) {
    std::string cells(25, '.');
    for (char c : {'x', 'o'}) {
      const int n = 2 + int(rng() % 3);
      for (int placed = 0; placed < n;) {
        const std::size_t s = rng() % 25;
        if (cells[s] == '.') cells[s] = c, ++placed;
      }
    }
    std::string board;
    for (int rank = 4; rank >= 0; --rank) {
      int empty = 0;
      for (int file = 0; file < 5; ++file) {
        const char c = cells[std::size_t(rank * 5 + file)];
        if (c == '.') {
          ++empty;
          continue;
        }
        if (empty) board += char('0' + empty), empty = 0;
        board += c;
      }
      if (empty) board += char('0' + empty);
      if (rank) board += '/';
    }
    const int clock = int(rng() % unsigned(rules.clock_limit));
    const std::string fen = board + (rng() % 2 ? " x" : " o") + " 0 0 " + std::to_string(clock) + " 1";
    const auto pos = parse_position(fen, rules);
    if (pos && !pos->is_over()) return *pos;
  }
}

// A search and the lines of its deepest completed iteration, best first (multi-PV).
// The outcome a proven search score claims (a draw for ScoreKind::draw; not for heuristic scores).
Outcome proven_outcome(ScoreKind kind) {
  return kind == ScoreKind::win ? Outcome::win : kind == ScoreKind::loss ? Outcome::loss : Outcome::draw;
}

struct SearchLines {
  SearchResult result;
  std::vector<SearchInfo> lines;
};
SearchLines search_lines(Searcher& searcher, const Position& pos, const SearchLimits& limits) {
  SearchLines out;
  const auto r = searcher.search(pos, limits, [&](const SearchInfo& info) {
    if (info.line == 1) out.lines.clear();
    out.lines.push_back(info);
  });
  REQUIRE(r.has_value());
  out.result = *r;
  return out;
}

}  // namespace

TEST_CASE("score scale: proven scores are distinct from heuristic ones and convert per ply") {
  CHECK(score_info(win_in(7)) == ScoreInfo{ScoreKind::win, 7});
  CHECK(score_info(loss_in(12)) == ScoreInfo{ScoreKind::loss, 12});
  CHECK(score_info(0, true) == ScoreInfo{ScoreKind::draw, 0});
  CHECK(score_info(0) == ScoreInfo{ScoreKind::heuristic, 0});
  CHECK(score_info(score_heuristic_max).kind == ScoreKind::heuristic);
  CHECK(score_info(-score_heuristic_max).kind == ScoreKind::heuristic);
  // Stored at ply 5 as "win in 2 from here", read back at ply 9 as a win in 6 from that root.
  const Score stored = score_to_table(win_in(7), 5);
  CHECK(stored == win_in(2));
  CHECK(score_from_table(stored, 9) == win_in(11));
  CHECK(score_from_table(score_to_table(loss_in(8), 3), 3) == loss_in(8));
  CHECK(score_to_table(123, 40) == 123);
  CHECK(to_string(ScoreInfo{ScoreKind::win, 3}) == "win 3");
  CHECK(to_string(ScoreInfo{ScoreKind::heuristic, -40}) == "cp -40");
  CHECK(to_string(ScoreInfo{ScoreKind::draw, 0}) == "draw");
  CHECK(to_string(ScoreInfo{ScoreKind::loss, 12}) == "loss 12");
}

TEST_CASE("the text of an iteration's report: moon analyze's line, the protocol's after 'info '") {
  SearchInfo info{};
  info.depth = 7;
  info.score_info = ScoreInfo{ScoreKind::loss, 4};
  info.nodes = 12345;
  info.nps = 678000;
  info.time_ms = 18;
  info.hashfull = 3;
  info.pv = {Move::placement(*parse_square("c1")), Move::movement(*parse_square("c1"), *parse_square("c2"))};
  CHECK(to_string(info) == "depth 7 score loss 4 nodes 12345 nps 678000 time 18 hashfull 3 pv c1 c1c2");
  info.pv.clear();
  CHECK(to_string(info) == "depth 7 score loss 4 nodes 12345 nps 678000 time 18 hashfull 3");
  info.multipv = 3;  // multi-PV: the second line of three
  info.line = 2;
  info.lines = 3;
  CHECK(to_string(info) == "depth 7 multipv 2 score loss 4 nodes 12345 nps 678000 time 18 hashfull 3");
}

TEST_CASE("an iteration's nodes per second agree with its nodes and time, even under a millisecond") {
  // The rate is measured in microseconds, and the time printed is the whole milliseconds: a
  // time of t ms means between t and t + 1 ms, and bounds the rate on both sides.
  SearchLimits limits;
  limits.depth = 9;
  int reports = 0;
  const auto r = Searcher().search(parse("x1o2/1ox2/2x1o/o1x2/1o2x x"), limits, [&](const SearchInfo& info) {
    ++reports;
    INFO("depth ", info.depth, " nodes ", info.nodes, " nps ", info.nps, " time ", info.time_ms);
    const std::uint64_t t = std::uint64_t(info.time_ms);
    CHECK(info.nps >= info.nodes * 1000 / (t + 1));
    if (t > 0) CHECK(info.nps <= info.nodes * 1000 / t);
    else CHECK(info.nps > info.nodes * 1000);  // under a millisecond (it read nodes * 1000 then)
  });
  REQUIRE(r.has_value());
  CHECK(reports == 9);
}

TEST_CASE("evaluation stays inside the heuristic range and is symmetric in colour") {
  std::mt19937 rng(7);
  for (const Rules& rules : all_variants)
    for (int i = 0; i < 300 / scale; ++i) {
      const Position pos = random_game_position(rng, rules);
      if (pos.is_over()) continue;
      const Score e = evaluate(pos);
      CHECK(std::abs(e) <= score_heuristic_max);
    }
  // Colour symmetry: swapping the colours of every counter and of the side to move (movement
  // phase) leaves the evaluation unchanged.
  for (const Rules& rules : all_variants)
    for (int i = 0; i < 200 / scale; ++i) {
      const Position pos = random_endgame(rng, rules);
      std::string fen = to_string(pos);
      for (char& c : fen) c = c == 'x' ? 'o' : c == 'o' ? 'x' : c;
      const Position swapped = parse(fen, rules);
      CHECK(evaluate(swapped) == evaluate(pos));
    }
  // Material first: a counter more is worth more than any correction in a quiet position.
  const Position up = parse("o3o/5/2x2/5/x3x x");
  CHECK(evaluate(up) > 50);
  CHECK(evaluate(parse("o3o/5/2x2/5/x3x o")) < -50);
}

TEST_CASE("evaluation: each term alone, on positions counted by hand") {
  // Every weight 0 but one, 1: the evaluation is that term's count, from the side to move's view.
  const auto only = [](int EvalWeights::*term) {
    EvalWeights w;
    for (const auto& field : eval_weight_fields) w.*(field.second) = 0;
    w.*term = 1;
    return w;
  };
  const auto term = [&](std::string_view fen, int EvalWeights::*weight) {
    return evaluate<Variant<false, false>>(parse(fen), only(weight));
  };
  // x: b1, e5; o: a1, c2. o's c2c1 captures b1 (a1 closes the row); x captures nothing.
  constexpr std::string_view x_exposed = "4x/5/5/2o2/ox3 x", o_threatens = "4x/5/5/2o2/ox3 o";
  CHECK(term(x_exposed, &EvalWeights::exposure) == -1);       // one of ours capturable next move
  CHECK(term(x_exposed, &EvalWeights::capture_threat) == 0);  // we capture nothing
  CHECK(term(o_threatens, &EvalWeights::capture_threat) == 1);
  CHECK(term(o_threatens, &EvalWeights::exposure) == 0);
  CHECK(term(x_exposed, &EvalWeights::corner) == 0);  // e5 for x, a1 for o
  CHECK(term(x_exposed, &EvalWeights::material) == 0);
  // Mobility: x b1c1 (b1b2 too), e5d5, e5e4: 4 moves; o a1a2, c2c1, c2b2, c2d2, c2c3: 5.
  CHECK(term(x_exposed, &EvalWeights::mobility) == 4 - 5);

  // Placement, c3 empty with x on c2 and c5, o on c4: whoever moves first in the movement phase
  // goes to c3, and x there captures c4. With 2 placements left (x to move) x moves first: +1;
  // with 1 left (o to move) x still does: -1 from o's view.
  CHECK(term("2x2/2o2/5/2x2/5 x 1 1 0 1", &EvalWeights::first_mover_threat) == 1);
  CHECK(term("2x2/2o2/5/2x2/5 o 0 1 0 1", &EvalWeights::first_mover_threat) == -1);
  // Only c3 would capture anything, and it is not an open square for the placements.
  CHECK(term("2x2/2o2/5/2x2/5 x 1 1 0 1", &EvalWeights::placement_threat) == 0);
  // An open square that closes a run: x placed on c4 captures b4 (a4 closes it); o has none.
  // (With x on c4 and o on d4 instead, o on b4 would capture c4 too: 1 - 1.)
  CHECK(term("5/xo3/5/5/4o x 1 1 0 1", &EvalWeights::placement_threat) == 1);
  CHECK(term("5/2xo1/5/5/o4 x 1 1 0 1", &EvalWeights::placement_threat) == 0);
  // Flank threats in the movement phase: captures a counter-arrival away on squares no counter
  // reaches now. x: a4, e1, e5; o: b4, d1. An x on c4 would capture b4, one on c1 d1, and no x
  // is next to either; o's counters flank nothing (x's are on corners and an edge): 2 - 0.
  CHECK(term("4x/xo3/5/5/3ox x", &EvalWeights::flank_threat) == 2);
  CHECK(term("4x/xo3/5/5/3ox x", &EvalWeights::capture_threat) == 0);  // so none of them now
}

TEST_CASE("transposition table: exact keys, bounds, proven flag, replacement keeps the deep") {
  TranspositionTable table;
  {
    // Never sized: nothing kept, nothing found (an empty array was read, and written, before).
    TableEntry none;
    const Position start = Position::start();
    table.store(start.key(), start.hash(), Move::placement(0), Score(1), 1, Bound::exact, false);
    CHECK_FALSE(table.probe(start.key(), start.hash(), none));
    CHECK(table.hashfull() == 0);
  }
  REQUIRE(table.resize(1));
  CHECK_FALSE(table.resize(0));
  const Position a = parse("5/5/2x2/5/xo1ox x");
  // The same board with another clock is another position: never a hit for it.
  const Position b = parse("5/5/2x2/5/xo1ox x 0 0 3 1");
  table.store(a.key(), a.hash(), Move::movement(12, 7), win_in(3), 5, Bound::exact, true);
  TableEntry e;
  REQUIRE(table.probe(a.key(), a.hash(), e));
  CHECK(e.move == Move::movement(12, 7));
  CHECK(e.score == win_in(3));
  CHECK(e.depth == 5);
  CHECK(e.bound == Bound::exact);
  CHECK(e.proven);
  CHECK_FALSE(table.probe(b.key(), b.hash(), e));
  CHECK_FALSE(table.probe(b.key(), a.hash(), e));  // even when looked for in a's bucket

  // Fill one bucket (same hash, different keys) past its capacity: the deepest survive.
  const std::uint64_t hash = 12345;
  for (std::uint64_t k = 1; k <= 8; ++k) table.store(k, hash, Move(), Score(k), int(k), Bound::lower, false);
  int kept = 0;
  for (std::uint64_t k = 1; k <= 8; ++k) kept += table.probe(k, hash, e);
  CHECK(kept == int(TranspositionTable::entries_per_bucket));
  CHECK(table.probe(8, hash, e));
  CHECK(table.probe(7, hash, e));
  table.clear();
  CHECK_FALSE(table.probe(a.key(), a.hash(), e));
}

TEST_CASE("transposition table: old entries give way to new ones, proven ones outlast deeper guesses") {
  // An entry's worth is its depth, plus a bonus when proven, minus a penalty for each search
  // since it was written; a store for a new key takes the bucket's least worth entry.
  TranspositionTable table;
  REQUIRE(table.resize(1));
  const std::uint64_t hash = 4242;  // every key below in one bucket
  const auto present = [&](std::uint64_t key) {
    TableEntry e;
    return table.probe(key, hash, e);
  };
  SUBCASE("deep entries of searches long past are replaced by shallow ones of this search") {
    for (std::uint64_t k = 1; k <= 4; ++k) table.store(k, hash, Move(), 0, 20, Bound::lower, false);
    for (int i = 0; i < 3; ++i) table.new_search();
    for (std::uint64_t k = 5; k <= 8; ++k) table.store(k, hash, Move(), 0, 1, Bound::lower, false);
    for (std::uint64_t k = 1; k <= 4; ++k) CHECK_FALSE(present(k));
    for (std::uint64_t k = 5; k <= 8; ++k) CHECK(present(k));
  }
  SUBCASE("a shallow proven entry outlasts deeper unproven ones of the same search") {
    table.store(1, hash, Move(), win_in(3), 2, Bound::exact, true);
    for (std::uint64_t k = 2; k <= 4; ++k) table.store(k, hash, Move(), 0, 20, Bound::lower, false);
    table.store(5, hash, Move(), 0, 10, Bound::lower, false);
    CHECK(present(1));
    CHECK(present(5));
    CHECK(int(present(2)) + int(present(3)) + int(present(4)) == 2);
  }
  SUBCASE("the same key: a much shallower guess of this search is dropped, anything else replaces") {
    TableEntry e;
    const Move m = Move::movement(12, 7);
    table.store(9, hash, m, 5, 10, Bound::lower, false);
    table.store(9, hash, Move(), 6, 5, Bound::upper, false);  // dropped: 5 plies shallower, a bound
    REQUIRE(table.probe(9, hash, e));
    CHECK(e.depth == 10);
    CHECK(e.score == 5);
    table.store(9, hash, Move(), 6, 7, Bound::upper, false);  // dropped too: 3 plies shallower
    REQUIRE(table.probe(9, hash, e));
    CHECK(e.depth == 10);
    table.store(9, hash, Move(), 6, 8, Bound::upper, false);  // 2 plies shallower: replaces
    REQUIRE(table.probe(9, hash, e));
    CHECK(e.depth == 8);
    CHECK(e.score == 6);
    table.store(9, hash, m, 5, 10, Bound::lower, false);
    table.store(9, hash, Move(), 7, 5, Bound::exact, false);  // exact: replaces, keeps the move
    REQUIRE(table.probe(9, hash, e));
    CHECK(e.depth == 5);
    CHECK(e.bound == Bound::exact);
    CHECK(e.move == m);
    table.store(9, hash, Move(), 8, 12, Bound::lower, false);
    table.store(9, hash, Move(), win_in(4), 1, Bound::lower, true);  // proven: replaces
    REQUIRE(table.probe(9, hash, e));
    CHECK(e.proven);
    CHECK(e.depth == 1);
    table.store(9, hash, Move(), win_in(4), 12, Bound::lower, true);
    table.store(9, hash, Move(), 11, 2, Bound::upper, false);  // over a proven entry: replaces
    REQUIRE(table.probe(9, hash, e));
    CHECK_FALSE(e.proven);
    CHECK(e.depth == 2);
    table.store(9, hash, Move(), 9, 12, Bound::lower, false);
    table.new_search();
    table.store(9, hash, Move(), 10, 3, Bound::upper, false);  // of a new search: replaces
    REQUIRE(table.probe(9, hash, e));
    CHECK(e.depth == 3);
    CHECK(e.score == 10);
  }
}

TEST_CASE("searches return legal moves and legal principal variations in every phase and variant") {
  // Every rule set of the tests, clock limits 1, 10, 20 and 40 with each movement and capture rule.
  std::mt19937 rng(2024);
  int searched = 0, heuristic = 0, past_depth = 0;
  for (const Rules& rules : test::all_rule_sets()) {
    Searcher s;
    for (int i = 0; i < 24 / scale; ++i) {
      const Position pos = i % 3 == 2 ? random_endgame(rng, rules) : random_game_position(rng, rules);
      if (pos.is_over()) continue;
      SearchLimits limits;
      limits.depth = 1 + int(rng() % 5);
      if (i % 4 == 0) limits.nodes = 1 + rng() % 3000;  // often stopped mid-iteration
      const auto r = s.search(pos, limits);
      REQUIRE(r.has_value());
      INFO(to_string(pos));
      CHECK(legal_moves(pos).contains(r->best));
      CHECK(!r->pv.empty());
      CHECK(r->pv.front() == r->best);
      CHECK(pv_is_legal(pos, r->pv));
      // A heuristic line goes past the depth searched only as the quiescence search went:
      // captures, or any move where one quiet move is left on the clock. The table does not
      // extend it there (it holds only guesses of shallower searches, which would read as the
      // line's continuation).
      if (r->score_info.kind == ScoreKind::heuristic) {
        ++heuristic;
        Position at = pos;
        for (std::size_t k = 0; k < r->pv.size(); ++k) {
          const Move m = r->pv[k];
          if (int(k) >= r->depth) {
            INFO("move " << k + 1 << " of the line, " << to_string(m) << ", past depth " << r->depth);
            CHECK((at.captures_of(m) != 0 || at.clock() + 1 >= at.rules().clock_limit));
            past_depth += 1;
          }
          at.play(m);
        }
      }
      ++searched;
    }
  }
  CHECK(searched > 200 / scale);
  CHECK(heuristic > 100 / scale);
  CHECK(past_depth > 10 / scale);  // the quiescence search's moves were seen
}

TEST_CASE("a heuristic line reaches the depth searched, even when the table already holds its positions") {
  // A second search of the same position, its table full of the first one's entries, still
  // gives a line of the full depth, unless the game ends sooner. Two things see to it, each
  // enough here alone: the table cuts no node on the principal variation short (but with a
  // proven exact value), and a line cut short is completed from the table up to the depth.
  std::mt19937 rng(41);
  int checked = 0;
  for (const Rules& rules : all_variants) {
    Searcher searcher;
    for (int i = 0; i < 16 / scale; ++i) {
      const Position pos = random_game_position(rng, rules);
      if (pos.is_over()) continue;
      INFO(to_string(pos) << ", " << test::rules_name(rules));
      SearchLimits limits;
      limits.depth = 4 + int(rng() % 3);
      REQUIRE(searcher.search(pos, limits).has_value());
      const auto again = searcher.search(pos, limits);
      REQUIRE(again.has_value());
      if (again->score_info.kind != ScoreKind::heuristic) continue;
      Position end = pos;
      for (Move m : again->pv) end.play(m);
      CHECK((int(again->pv.size()) >= again->depth || end.is_over()));
      ++checked;
    }
  }
  CHECK(checked > 30 / scale);
}

TEST_CASE("with one line, the last report's score is the result's: proven only if the position's value is") {
  // One line asked for: its score is the position's, proven only if every move's was, not just
  // the best move's (a move proven a draw beside others only guessed at is not a proven draw).
  // Short clocks, where draws are proven within the horizon.
  std::mt19937 rng(31);
  int compared = 0, proven = 0;
  for (int i = 0; i < 512 / scale; ++i) {
    const Rules rules{i % 2 ? Movement::slide : Movement::step, CaptureLines::orthogonal, 3 + i % 4};
    // The first: at depth 5 its best move is a proven draw, the others are not proven.
    const Position pos = i == 0 ? *parse_position("xoooo/1o1ox/x1xxo/x1xxx/1xooo x 0 0 1 18",
                                                  Rules{Movement::step, CaptureLines::orthogonal, 3})
                                : i % 2 ? random_endgame(rng, rules) : random_game_position(rng, rules);
    if (pos.is_over()) continue;
    INFO(to_string(pos) << ", " << test::rules_name(pos.rules()));
    SearchLimits limits;
    limits.depth = i == 0 ? 5 : 2 + int(rng() % 5);
    std::optional<SearchInfo> last;
    const auto r = Searcher().search(pos, limits, [&](const SearchInfo& info) { last = info; });
    REQUIRE(r.has_value());
    REQUIRE(last.has_value());
    CHECK(last->depth == r->depth);
    CHECK(last->score == r->score);
    CHECK(last->score_info == r->score_info);
    proven += r->score_info.kind != ScoreKind::heuristic;
    ++compared;
  }
  CHECK(compared > 250 / scale);
  CHECK(proven > 12 / scale);
}

TEST_CASE("without the table a fixed-depth search's value does not depend on the order of its moves") {
  // Alpha-beta (and PVS, and the quiescence search) give the minimax value of the tree they
  // search whatever the order: each ordering idea switched off or on alone must leave the root's
  // score at a depth as it was. (A quiescence search that lost its captures with capture
  // ordering off, standing pat at every horizon, fails it.)
  SearchFeatures base = SearchFeatures{};
  base.transposition_table = false;
  base.history = false;
  std::vector<SearchFeatures> others(4, base);
  others[0].capture_ordering = false;
  others[1].history = true;
  others[2].killers = true;
  others[3].principal_variation = false;
  std::mt19937 rng(77);
  int compared = 0;
  for (const Rules& rules : test::all_rule_sets()) {
    for (int i = 0; i < 12 / scale + 1; ++i) {
      const Position pos = i % 2 ? random_endgame(rng, rules) : random_game_position(rng, rules);
      if (pos.is_over()) continue;
      INFO(to_string(pos) << ", " << test::rules_name(rules));
      SearchLimits limits;
      limits.depth = 3 + int(rng() % 2);
      const auto reference = Searcher(SearchOptions{1, 1, base}).search(pos, limits);
      REQUIRE(reference.has_value());
      for (std::size_t k = 0; k < others.size(); ++k) {
        INFO("variant " << k);
        const auto r = Searcher(SearchOptions{1, 1, others[k]}).search(pos, limits);
        REQUIRE(r.has_value());
        CHECK(r->score == reference->score);
      }
      ++compared;
    }
  }
  CHECK(compared > 80 / scale);
}

TEST_CASE("multi-PV: every line's score is its move's value at the iteration's depth") {
  // Asked for every legal move, each line's score must be what a search of the move's child,
  // one ply shallower, gives (seen from the root: negated, and a proven result one ply further
  // away). Both searches are exact at their depth (alpha-beta with a full window), so without a
  // table, whose entries may come from deeper searches, they must agree.
  SearchFeatures no_table;
  no_table.transposition_table = false;
  SearchOptions options;
  options.features = no_table;
  std::mt19937 rng(77);
  int compared = 0;
  for (const Rules& rules : all_variants) {
    for (int i = 0; i < 24 / scale; ++i) {
      const Position pos = i % 2 ? random_endgame(rng, rules) : random_game_position(rng, rules);
      if (pos.is_over()) continue;
      const MoveList legal = legal_moves(pos);
      SearchLimits limits;
      limits.depth = 2 + int(rng() % 2);
      limits.multipv = max_multipv;
      Searcher searcher(options);
      const SearchLines found = search_lines(searcher, pos, limits);
      const SearchResult& r = found.result;
      const std::vector<SearchInfo>& last = found.lines;
      INFO(to_string(pos), " depth ", r.depth);
      REQUIRE(last.size() == legal.size());
      for (const SearchInfo& line : last) {
        REQUIRE(!line.pv.empty());
        INFO("line ", line.line, ": ", to_string(line.pv.front()));
        CHECK(line.lines == int(legal.size()));
        const Position child = pos.after(line.pv.front());
        SearchLimits child_limits;
        child_limits.depth = r.depth - 1;
        const auto c = Searcher(options).search(child, child_limits);
        REQUIRE(c.has_value());
        CHECK(line.score == -score_from_table(c->score, 1));
        ++compared;
      }
      // Asked for three lines, the others are searched against the third best score: the three
      // it reports must still be exact, the three best of all, at every depth (at depth 1 the
      // moves come in the move picker's order, not sorted by an earlier iteration).
      for (int depth = 1; depth <= r.depth; ++depth) {
        CAPTURE(depth);
        const auto lines_at = [&](int multipv) {
          SearchLimits l;
          l.depth = depth;
          l.multipv = multipv;
          Searcher fresh(options);
          return search_lines(fresh, pos, l).lines;
        };
        const auto all = lines_at(max_multipv), three = lines_at(3);
        REQUIRE(three.size() == std::min<std::size_t>(3, legal.size()));
        for (std::size_t k = 0; k < three.size(); ++k) {
          CHECK(three[k].score == all[k].score);
          CHECK(!three[k].pv.empty());  // a move only bounded would have no line of its own
        }
      }
    }
  }
  CHECK(compared > 500 / scale);
}

TEST_CASE("multi-PV: the best moves in order, each once, with legal lines; the first is the result") {
  std::mt19937 rng(78);
  for (const Rules& rules : all_variants) {
    SearchOptions options;
    options.threads = 2;  // the helpers search the same lines
    Searcher searcher(options);
    for (int i = 0; i < 16 / scale; ++i) {
      const Position pos = i % 2 ? random_endgame(rng, rules) : random_game_position(rng, rules);
      if (pos.is_over()) continue;
      SearchLimits limits;
      limits.depth = 2 + int(rng() % 4);
      limits.multipv = 1 + int(rng() % 4);
      std::vector<SearchInfo> last;
      int iterations = 0;
      const auto r = searcher.search(pos, limits, [&](const SearchInfo& info) {
        if (info.line == 1) last.clear(), ++iterations;
        CHECK(info.line == int(last.size()) + 1);  // in order, none left out
        last.push_back(info);
      });
      REQUIRE(r.has_value());
      INFO(to_string(pos), " multipv ", limits.multipv);
      const std::size_t expected = std::min(std::size_t(limits.multipv), legal_moves(pos).size());
      REQUIRE(last.size() == expected);
      CHECK(iterations == r->depth);
      std::vector<Move> firsts;
      for (std::size_t k = 0; k < last.size(); ++k) {
        CHECK(last[k].lines == int(expected));
        CHECK(last[k].depth == r->depth);
        REQUIRE(!last[k].pv.empty());
        CHECK(pv_is_legal(pos, last[k].pv));
        CHECK(std::find(firsts.begin(), firsts.end(), last[k].pv.front()) == firsts.end());
        firsts.push_back(last[k].pv.front());
        if (k > 0) CHECK(last[k].score <= last[k - 1].score);
      }
      CHECK(last.front().pv.front() == r->best);
      CHECK(last.front().score == r->score);
      CHECK(last.front().pv == r->pv);
    }
  }
}

TEST_CASE("multi-PV: out-of-range counts are refused; one line asked for names no line") {
  const Position pos = parse("4x/5/xo2o/3x1/2x2 x");
  SearchLimits limits;
  limits.depth = 4;
  std::vector<std::string> reports;
  REQUIRE(Searcher().search(pos, limits, [&](const SearchInfo& info) { reports.push_back(to_string(info)); }));
  REQUIRE(reports.size() == 4);
  for (const std::string& line : reports) CHECK(line.find("multipv") == std::string::npos);
  Searcher s;
  for (int bad : {0, -1, max_multipv + 1}) {
    limits.multipv = bad;
    const auto r = s.search(pos, limits);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "multipv must be from 1 to 64, not " + std::to_string(bad));
  }
  // Asked for more lines than there are moves (x is blocked: the pass only), the one line still
  // says which it is, as frontends that asked for several expect.
  limits.multipv = 3;
  limits.depth = 2;
  reports.clear();
  REQUIRE(s.search(parse("5/5/5/oo3/xxo2 x"), limits, [&](const SearchInfo& info) {
    CHECK(info.line == 1);
    CHECK(info.lines == 1);
    CHECK(info.multipv == 3);
    reports.push_back(to_string(info));
  }));
  REQUIRE(reports.size() == 2);
  CHECK(reports[0].rfind("depth 1 multipv 1 score ", 0) == 0);
}

TEST_CASE("multi-PV: each line's proof is its own move's; the search ends once every line is settled") {
  // o to move, the clock at 17 of 20: b3b4, c3c2 and c3d3 each lead to a proven draw at depth
  // 2 (the clock runs out) while other moves are only estimated. With three lines each says
  // draw; with one, the position's score is no proven draw, since the estimated moves might
  // prove better.
  const Position drawn = parse("x1o1o/5/1oo2/x3x/x4 o 0 0 17 30");
  SearchLimits limits;
  limits.depth = 2;
  limits.multipv = 3;
  Searcher searcher;
  std::vector<SearchInfo> last = search_lines(searcher, drawn, limits).lines;
  REQUIRE(last.size() == 3);
  for (const SearchInfo& line : last) {
    INFO(to_string(line));
    CHECK(line.score_info.kind == ScoreKind::draw);
    // Its move alone, searched one ply shallower, is a proven draw too.
    SearchLimits one;
    one.depth = 1;
    const auto child = Searcher().search(drawn.after(line.pv.front()), one);
    REQUIRE(child.has_value());
    CHECK(child->score_info.kind == ScoreKind::draw);
  }
  limits.multipv = 1;
  const auto single = Searcher().search(drawn, limits);
  REQUIRE(single.has_value());
  CHECK(single->score_info.kind == ScoreKind::heuristic);

  // 4 v 2: c1c2 and d2e2 win in 13, c1d1 in 17. With three lines the search goes on until the
  // third is settled too (depth 17), then stops, short of the depth asked for.
  const Position won = parse("4x/5/xo2o/3x1/2x2 x");
  limits.depth = 30;
  limits.multipv = 3;
  Searcher other;
  const SearchLines three = search_lines(other, won, limits);
  last = three.lines;
  CHECK(three.result.depth == 17);
  REQUIRE(last.size() == 3);
  CHECK(to_string(last[0].score_info) == "win 13");
  CHECK(to_string(last[1].score_info) == "win 13");
  CHECK(to_string(last[2].score_info) == "win 17");
  limits.multipv = 1;
  const auto alone = Searcher().search(won, limits);
  REQUIRE(alone.has_value());
  CHECK(alone->depth == 13);  // one line: settled as soon as the win in 13 is found
}

TEST_CASE("forced capture wins are found at the distance an exhaustive minimax gives") {
  struct Case {
    const char* fen;
    ScoreInfo expected;  // checked against minimax_bounds below, not taken on trust
    int depth;
  };
  const Case cases[] = {
      {"4o/5/5/2x2/xo3 x", {ScoreKind::win, 1}, 3},   // c2c1 closes b1 between a1 and c1
      {"5/5/5/2x2/xo1ox o", {ScoreKind::loss, 2}, 4},  // o cannot stop c2c1
      {"5/5/2x2/5/xo1ox x", {ScoreKind::win, 3}, 5},   // c3c2 threatens both o counters
      {"5/5/2x2/5/xo1ox o", {ScoreKind::loss, 4}, 6},
      {"5/2x2/5/5/xo1ox x", {ScoreKind::win, 5}, 7},
      {"x4/5/5/o4/xo2x x", {ScoreKind::win, 5}, 7},
  };
  for (const Case& c : cases) {
    INFO(c.fen);
    const Position pos = parse(c.fen);
    const auto [lo, hi] = minimax_bounds(pos, c.depth);
    REQUIRE(lo == hi);
    REQUIRE(score_info(lo, true) == c.expected);
    const SearchResult with_table = search(pos, c.depth);
    CHECK(with_table.score == lo);
    CHECK(with_table.score_info == c.expected);
    SearchOptions no_table;
    no_table.features.transposition_table = false;
    CHECK(search(pos, c.depth, no_table).score == lo);
    SearchOptions plain;
    plain.features = SearchFeatures::plain();
    CHECK(search(pos, c.depth, plain).score == lo);
    // Without a depth limit the search stops by itself once the distance is settled.
    Searcher s;
    const auto unlimited = s.search(pos, SearchLimits{});
    REQUIRE(unlimited.has_value());
    CHECK(unlimited->score == lo);
  }
}

TEST_CASE("proven results agree with and without the table, tiny or big, and with minimax") {
  std::mt19937 rng(99);
  int proven = 0, compared = 0, against_minimax = 0;
  for (const Rules& base : all_variants) {
    Rules rules = base;
    rules.clock_limit = 6;  // short games: many proven results within reach
    for (int i = 0; i < 40 / scale; ++i) {
      const Position pos = random_endgame(rng, rules);
      INFO(to_string(pos));
      const int depth = 6;
      SearchOptions big, tiny, none;
      big.hash_mb = 16;
      tiny.hash_mb = 1;
      none.features.transposition_table = false;
      const SearchResult results[] = {search(pos, depth, big), search(pos, depth, tiny), search(pos, depth, none)};
      const auto [lo, hi] = minimax_bounds(pos, 4);
      for (const SearchResult& a : results) {
        if (a.score_info.kind == ScoreKind::heuristic) continue;
        ++proven;
        if (lo == hi) {
          // Both are the game's value: the kind always agrees, the distance when within depth.
          ++against_minimax;
          const ScoreInfo exact = score_info(lo, true);
          CHECK(a.score_info.kind == exact.kind);
          if (a.score_info.value <= depth) CHECK(a.score == lo);
        }
        for (const SearchResult& b : results) {
          if (b.score_info.kind == ScoreKind::heuristic) continue;
          ++compared;
          CHECK(a.score_info.kind == b.score_info.kind);
          if (a.score_info.value <= depth && b.score_info.value <= depth) CHECK(a.score == b.score);
        }
      }
    }
  }
  CHECK(proven > 40 / scale);
  CHECK(compared > proven);
  CHECK(against_minimax > 0);
}

TEST_CASE("proven results of deeper searches, and their best moves, agree with the exact solver") {
  // minimax_bounds() above reaches 4 plies; the exact solver (checked against exhaustive
  // minimax in solver_test.cpp) settles what an 8-ply search proves: the outcome always, the
  // distance where it is within the depth, and the value of the best move's child, which must
  // be the same one ply on.
  std::mt19937 rng(314);
  const int depth = 8;
  int proven = 0, distances = 0;
  Solver solver(SolveOptions{16, 1, true, {}});
  const auto solve = [&](const Position& pos) {
    const auto r = solver.solve(pos);
    REQUIRE(r.has_value());
    return *r;
  };
  for (const Rules& base : all_variants) {
    for (const int limit : {4, 8, 20}) {
      Rules rules = base;
      rules.clock_limit = limit;
      for (int i = 0; i < 24 / scale; ++i) {
        const Position pos = random_endgame(rng, rules);
        const SearchResult found = search(pos, depth);
        if (found.score_info.kind == ScoreKind::heuristic) continue;
        INFO(to_string(pos), " limit ", limit, " search: ", to_string(found.score_info), ", best ", to_string(found.best));
        ++proven;
        const Outcome outcome = proven_outcome(found.score_info.kind);
        const SolveResult exact = solve(pos);
        CHECK(exact.outcome == outcome);
        const bool distance_known = outcome != Outcome::draw && found.score_info.value <= depth;
        if (distance_known) {
          ++distances;
          CHECK(exact.plies == found.score_info.value);
          // The principal variation is the proof's line: played out, it ends the game after
          // exactly that many plies, with the outcome found.
          check_line_ends_game(pos, found.pv, found.score_info.value, outcome == Outcome::win);
        }
        const SolveResult after_best = solve(pos.after(found.best));
        CHECK(after_best.outcome == opposite(outcome));
        if (distance_known) CHECK(after_best.plies == found.score_info.value - 1);
      }
    }
  }
  MESSAGE(proven, " proven results, ", distances, " with their distance");
  CHECK(proven >= 150 / scale);
  CHECK(distances >= 80 / scale);
}

TEST_CASE("multi-PV: every proven line agrees with the exact solver, not only the best") {
  // The lines after the first are searched against the last line's score, with the table: each
  // one a proven result claims must be its move's value, as the solver finds it one ply on (the
  // outcome always, the distance where it is within the depth). Shallow searches of random
  // endgames in every variant and short clocks, and deep ones (at most a million nodes each,
  // the last completed iteration's lines) whose tables hold proven bounds that are not exact.
  Solver solver(SolveOptions{16, 1, true, {}});
  int checked = 0, distances = 0;
  const auto check_lines = [&](Searcher& searcher, const Position& pos, const SearchLimits& limits) {
    const SearchLines found = search_lines(searcher, pos, limits);
    for (const SearchInfo& line : found.lines) {
      if (line.score_info.kind == ScoreKind::heuristic) continue;
      REQUIRE(!line.pv.empty());
      INFO(to_string(pos), " (clock limit ", pos.rules().clock_limit, ") line ", line.line, ": ",
           to_string(line.pv.front()), " ", to_string(line.score_info), " at depth ", line.depth);
      const auto child = solver.solve(pos.after(line.pv.front()));
      REQUIRE(child.has_value());
      const Outcome claimed = proven_outcome(line.score_info.kind);
      CHECK(child->outcome == opposite(claimed));
      if (claimed != Outcome::draw && line.score_info.value <= line.depth) {
        CHECK(child->plies == line.score_info.value - 1);
        ++distances;
      }
      ++checked;
    }
  };
  std::mt19937 rng(2718);
  for (const Rules& base : all_variants) {
    for (const int limit : {4, 8, 20}) {
      Rules rules = base;
      rules.clock_limit = limit;
      Searcher searcher;  // one table over the positions of a rule set, as a frontend's
      for (int i = 0; i < std::max(1, (limit == 20 ? 4 : 12) / scale); ++i) {
        SearchLimits limits;
        limits.depth = limit == 20 ? 20 : 8;
        limits.nodes = 1'000'000;
        limits.multipv = 3;
        check_lines(searcher, random_endgame(rng, rules), limits);
      }
    }
  }
  // A 4 v 2 whose three lines are wins in 13, 13 and 17, all settled at depth 17.
  SearchLimits deep;
  deep.depth = 30;
  deep.multipv = 3;
  Searcher fresh;
  check_lines(fresh, parse("4x/5/xo2o/3x1/2x2 x"), deep);
  MESSAGE(checked, " proven lines checked, ", distances, " with their distance");
  CHECK(checked >= 150 / scale);
  CHECK(distances >= 60 / scale);
}

TEST_CASE("decisive lines run to the end of the game with a reused table and with several lines") {
  // One Searcher (a 1 MiB table, two threads) searches many endgames in turn, each with one
  // line, three, and one again: every line scored a proven win or loss within the depth, played
  // out, ends the game after exactly its distance with that outcome, whatever entries earlier
  // searches left and the helper overwrote. (Completed from the table alone, a loss in 10 came
  // with 8 moves: the entry for the 9th had been replaced.)
  std::mt19937 rng(2718);
  const int depth = 10;
  int decisive_lines = 0;
  for (const Rules& base : all_variants) {
    Rules rules = base;
    rules.clock_limit = 8;
    Searcher searcher(SearchOptions{1, 2, {}});
    for (int i = 0; i < 40 / scale; ++i) {
      const Position pos = random_endgame(rng, rules);
      for (const int lines : {1, 3, 1}) {
        SearchLimits limits;
        limits.depth = depth;
        limits.multipv = lines;
        std::vector<SearchInfo> last;
        const auto r = searcher.search(pos, limits, [&](const SearchInfo& info) {
          if (info.line == 1) last.clear();
          last.push_back(info);
        });
        REQUIRE(r.has_value());
        for (const SearchInfo& line : last) {
          const ScoreKind kind = line.score_info.kind;
          if ((kind != ScoreKind::win && kind != ScoreKind::loss) || line.score_info.value > line.depth) continue;
          INFO(to_string(pos), " multipv ", lines, ": ", to_string(line));
          ++decisive_lines;
          check_line_ends_game(pos, line.pv, line.score_info.value, kind == ScoreKind::win);
        }
      }
    }
  }
  MESSAGE(decisive_lines, " decisive lines");
  CHECK(decisive_lines >= 40 / scale);
}

TEST_CASE("decisive lines run to the end of the game without the table, and with other features off") {
  // Without the table no walk mends the line afterwards: the search's own line must be whole.
  // (It came one move short where the mate-distance bound made every move of the loser's last
  // turn score exactly alpha: none "raised" it, so none was copied into the line.)
  SearchFeatures no_table;
  no_table.transposition_table = false;
  SearchFeatures no_table_no_quiescence = no_table;
  no_table_no_quiescence.quiescence = false;
  SearchFeatures no_table_no_pvs = no_table;
  no_table_no_pvs.principal_variation = false;
  SearchFeatures minimax = SearchFeatures::plain();
  std::mt19937 rng(1618);
  int decisive_lines = 0;
  for (const auto& setting : {std::pair{no_table, 6}, std::pair{no_table_no_quiescence, 6},
                              std::pair{no_table_no_pvs, 6}, std::pair{minimax, 4}}) {
    const SearchFeatures features = setting.first;
    const int depth = setting.second;
    for (const Rules& base : all_variants) {
      Rules rules = base;
      rules.clock_limit = 3;
      Searcher searcher(SearchOptions{1, 1, features});
      for (int i = 0; i < 30 / scale; ++i) {
        const Position pos = random_endgame(rng, rules);
        SearchLimits limits;
        limits.depth = depth;
        const auto r = searcher.search(pos, limits);
        REQUIRE(r.has_value());
        const ScoreKind kind = r->score_info.kind;
        if ((kind != ScoreKind::win && kind != ScoreKind::loss) || r->score_info.value > depth) continue;
        INFO(to_string(pos), " slide ", rules.slide(), " diagonal ", rules.diagonal(), " quiescence ", features.quiescence,
             " pvs ", features.principal_variation, " depth ", depth, ": ",
             to_string(r->score_info));
        ++decisive_lines;
        check_line_ends_game(pos, r->pv, r->score_info.value, kind == ScoreKind::win);
      }
    }
  }
  MESSAGE(decisive_lines, " decisive lines");
  CHECK(decisive_lines >= 40 / scale);
}

TEST_CASE("positions differing only in clock or hands are never conflated by the table") {
  // The same board and side: at clock 0 x wins by capture in 3 plies, at 18 the clock ends
  // the game (x has more counters) in 2, at 19 in 1. One searcher (one table) searches them
  // in both orders; each result must equal a fresh search and the exhaustive minimax.
  const char* fens[] = {"5/5/2x2/5/xo1ox x 0 0 0 1", "5/5/2x2/5/xo1ox x 0 0 18 1", "5/5/2x2/5/xo1ox x 0 0 19 1"};
  const int expected[] = {3, 2, 1};
  for (bool reverse : {false, true}) {
    Searcher shared_table;
    for (int k = 0; k < 3; ++k) {
      const int i = reverse ? 2 - k : k;
      INFO(fens[i]);
      const Position pos = parse(fens[i]);
      const auto [lo, hi] = minimax_bounds(pos, 5);
      REQUIRE(lo == hi);
      REQUIRE(score_info(lo) == ScoreInfo{ScoreKind::win, expected[i]});
      SearchLimits limits;
      limits.depth = 6;
      const auto r = shared_table.search(pos, limits);
      REQUIRE(r.has_value());
      CHECK(r->score == lo);
      CHECK(search(pos, 6).score == lo);
    }
  }
  // Pairs where a table that ignored the clock would hand the second search a wrong proven
  // result (found by searching with such a broken table).
  const char* pairs[][2] = {
      {"2x1o/5/1xo2/1o3/o4 o 0 0 0 1", "2x1o/5/1xo2/1o3/o4 o 0 0 12 1"},
      {"2o2/5/xo1x1/x4/3ox x 0 0 0 1", "2o2/5/xo1x1/x4/3ox x 0 0 13 1"},
      {"1xo2/4o/4o/2x1x/2x2 o 0 0 0 1", "1xo2/4o/4o/2x1x/2x2 o 0 0 14 1"},
  };
  for (const auto& pair : pairs) {
    INFO(pair[1]);
    Searcher one_table;
    SearchLimits limits;
    limits.depth = 8;
    REQUIRE(one_table.search(parse(pair[0]), limits).has_value());
    const auto second = one_table.search(parse(pair[1]), limits);
    REQUIRE(second.has_value());
    const SearchResult fresh = search(parse(pair[1]), 8);
    REQUIRE(fresh.score_info.kind != ScoreKind::heuristic);
    CHECK(second->score == fresh.score);
  }
  // Placement: the same board with other hands is another game (x's last counter vs not).
  const Position last = parse("xxoo1/ooxx1/xo1ox/xxoo1/ooxx1 x 1 1 0 11");
  const Position earlier = parse("xxoo1/ooxx1/xo1ox/xxoo1/ooxx1 x 2 2 0 11");
  Searcher s;
  SearchLimits limits;
  limits.depth = 8;
  const auto a1 = s.search(last, limits);
  const auto b1 = s.search(earlier, limits);
  const auto a2 = s.search(last, limits);
  REQUIRE((a1 && b1 && a2));
  CHECK(a1->score == a2->score);
  CHECK(a1->score == search(last, 8).score);
  CHECK(b1->score == search(earlier, 8).score);
}

TEST_CASE("after a change of rules or clear(), no entry of before is used: searches equal fresh ones") {
  // Keys do not include the rules, so a Searcher forgets its table and history when they
  // change; and an empty table (just made or cleared) is not written over again. Searching the
  // same board under other rules must give what a fresh Searcher gives, node for node (with the
  // history kept, as it once was, 16 of the 21 compared here differed). Default options: the
  // history is on.
  std::mt19937 rng(2026'12'02);
  for (int i = 0; i < 24 / scale; ++i) {
    const Rules& from = all_variants[std::size_t(i) % 4];
    const Rules& to = all_variants[std::size_t(i + 1 + i / 4 % 3) % 4];  // never the same rules
    const Position first = random_endgame(rng, from);
    const auto second = parse_position(to_string(first), to);
    if (!second || second->is_over()) continue;
    INFO(to_string(first));
    Searcher one_table;
    SearchLimits limits;
    limits.depth = 7;
    REQUIRE(one_table.search(first, limits).has_value());
    const auto again = one_table.search(*second, limits);
    REQUIRE(again.has_value());
    const SearchResult fresh = search(*second, 7);
    CHECK(again->nodes == fresh.nodes);
    CHECK(again->score == fresh.score);
  }
  // clear() forgets everything: the same search again visits the same nodes as a fresh one.
  const Position pos = parse("1x3/2ooo/o2x1/5/1xo2 o");
  const SearchResult fresh = search(pos, 7);
  Searcher s;
  SearchLimits limits;
  limits.depth = 7;
  REQUIRE(s.search(pos, limits).has_value());
  const auto warm = s.search(pos, limits);
  REQUIRE(warm.has_value());
  CHECK(warm->nodes < fresh.nodes);  // the table and history of the first search answered
  s.clear();
  s.clear();  // a second clear() of the empty table changes nothing
  const auto cleared = s.search(pos, limits);
  REQUIRE(cleared.has_value());
  CHECK(cleared->nodes == fresh.nodes);
  CHECK(cleared->score == fresh.score);
  CHECK(cleared->best == fresh.best);
}

TEST_CASE("a proven draw is reported as a draw, a heuristic balance is not") {
  // One move left on the clock, no capture possible, two counters each: every move draws.
  const SearchResult r = search(parse("o4/5/2x2/5/o3x x 0 0 19 1"), 4);
  CHECK(r.score_info == ScoreInfo{ScoreKind::draw, 0});
  // Proven by the first iteration, the game's value: no deeper one is searched, with no limit
  // or a clock (a search that went on ran to depth 100, or to the clock's end).
  Searcher searcher;
  for (const std::int64_t clock_ms : {std::int64_t{0}, std::int64_t{60000}}) {
    SearchLimits limits;
    limits.time_left_ms = clock_ms;
    const auto unlimited = searcher.search(parse("o4/5/2x2/5/o3x x 0 0 19 1"), limits);
    REQUIRE(unlimited.has_value());
    CHECK(unlimited->score_info == ScoreInfo{ScoreKind::draw, 0});
    CHECK(unlimited->depth == 1);
  }
  const SearchResult start = search(Position::start(), 2);
  CHECK(start.score_info.kind == ScoreKind::heuristic);
}

TEST_CASE("over and blocked positions") {
  // Over: o has a single counter. No move, an exact result.
  const Position over = parse("4o/5/5/2x2/x4 o");
  REQUIRE(over.is_over());
  const SearchResult r = search(over, 3);
  CHECK(r.best.is_null());
  CHECK(r.score_info == ScoreInfo{ScoreKind::loss, 0});
  // Blocked: o's counters e5 and a1 are walled in; its only move is the pass.
  const Position blocked = parse("3xo/4x/5/x4/ox3 o");
  REQUIRE(count_moves(blocked) == 1);
  const SearchResult pass = search(blocked, 4);
  CHECK(pass.best == Move::pass());
  Searcher s;
  SearchLimits timed;
  timed.time_left_ms = 1000;
  const auto instant = s.search(blocked, timed);
  REQUIRE(instant.has_value());
  CHECK(instant->best == Move::pass());
  CHECK(instant->depth == 1);  // one legal move under a clock: no thinking
}

TEST_CASE("a position whose rules are out of range is refused by perft, the search and the solver") {
  // Position::start() takes its rules as given; a clock limit past 255 would wrap the 8-bit clock
  // (a game without end), and one of INT_MAX overflowed the solver's bounds.
  Searcher searcher(SearchOptions{1, 1, {}});
  Solver solver(SolveOptions{1, 1});
  SearchLimits depth2;
  depth2.depth = 2;
  for (const int limit : {0, -1, Rules::max_clock_limit + 1, std::numeric_limits<int>::max()}) {
    const Position p = Position::start(Rules{Movement::step, CaptureLines::orthogonal, limit});
    const std::string message = "clock limit " + std::to_string(limit) + " must be from 1 to 255";
    INFO(message);
    const auto counted = perft(p, 2);
    REQUIRE_FALSE(counted.has_value());
    CHECK(counted.error().message == message);
    const auto searched = searcher.search(p, depth2);
    REQUIRE_FALSE(searched.has_value());
    CHECK(searched.error().message == message);
    const auto solved = solver.solve(p);
    REQUIRE_FALSE(solved.has_value());
    CHECK(solved.error().message == message);
    const auto analysed = solver.analyze(p);
    REQUIRE_FALSE(analysed.has_value());
    CHECK(analysed.error().message == message);
  }
  // The limits themselves are in range.
  for (const int limit : {Rules::min_clock_limit, Rules::max_clock_limit}) {
    const Position p = Position::start(Rules{Movement::slide, CaptureLines::orthogonal_and_diagonal, limit});
    CHECK(perft(p, 2).has_value());
    CHECK(searcher.search(p, depth2).has_value());
  }
}

TEST_CASE("limits: depth and nodes are honoured, invalid limits and options are refused") {
  Searcher s;
  const Position pos = Position::start();
  SearchLimits limits;
  limits.depth = 4;
  int deepest = 0, reports = 0;
  const auto r = s.search(pos, limits, [&](const SearchInfo& info) {
    deepest = std::max(deepest, info.depth);
    ++reports;
    CHECK(info.depth == reports);
    CHECK(!info.pv.empty());
  });
  REQUIRE(r.has_value());
  CHECK(r->depth == 4);
  CHECK(deepest == 4);

  for (std::uint64_t nodes : {1ull, 100ull, 5000ull, 60000ull}) {
    SearchLimits n;
    n.nodes = nodes;
    std::uint64_t reported = 0;  // the last completed iteration's
    const auto rn = s.search(pos, n, [&](const SearchInfo& info) { reported = info.nodes; });
    REQUIRE(rn.has_value());
    // One thread stops at the limit exactly; the result counts the whole search, the
    // iteration the limit cut short included, and its rate is that count over its time.
    CHECK(rn->nodes == nodes);
    CHECK(reported < rn->nodes);
    CHECK(rn->nps >= rn->nodes * 1000 / std::uint64_t(rn->time_ms + 1));
    if (rn->time_ms > 0) CHECK(rn->nps <= rn->nodes * 1000 / std::uint64_t(rn->time_ms) + 1);
    CHECK(legal_moves(pos).contains(rn->best));
  }

  // Each refusal says which limit is wrong (the C API and the protocol check theirs first, so
  // this is where a C++ frontend learns it).
  const auto refusal = [&](const SearchLimits& refused_limits) {
    const auto answer = s.search(pos, refused_limits);
    REQUIRE_FALSE(answer.has_value());
    return answer.error().message;
  };
  const std::string depth_range = "depth must be from 1 to " + std::to_string(max_search_depth) + " (0: no limit), not ";
  SearchLimits bad;
  bad.depth = -1;
  CHECK(refusal(bad) == depth_range + "-1");
  bad.depth = max_search_depth + 1;
  CHECK(refusal(bad) == depth_range + std::to_string(max_search_depth + 1));
  SearchLimits negative_time;
  negative_time.movetime_ms = -5;
  CHECK(refusal(negative_time) == "move time must not be negative");
  SearchLimits negative_clock;
  negative_clock.time_left_ms = -5;
  CHECK(refusal(negative_clock) == "time left must not be negative");
  SearchLimits negative_increment;
  negative_increment.time_left_ms = 1000;
  negative_increment.increment_ms = -5;
  CHECK(refusal(negative_increment) == "increment must not be negative");
  SearchLimits increment_alone;  // no clock to add it to: the search would have no limit
  increment_alone.increment_ms = 10;
  const auto refused = s.search(pos, increment_alone);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message == "an increment needs the time left");
  for (const auto& limit : {&SearchLimits::movetime_ms, &SearchLimits::time_left_ms}) {
    SearchLimits infinite_and_timed;  // the time used to be ignored
    infinite_and_timed.infinite = true;
    infinite_and_timed.*limit = 100;
    const auto mixed = s.search(pos, infinite_and_timed);
    REQUIRE_FALSE(mixed.has_value());
    CHECK(mixed.error().message == "an infinite search takes no other limit (it searches until stop())");
  }
  SearchLimits infinite_and_deep;
  infinite_and_deep.infinite = true;
  infinite_and_deep.depth = 3;
  CHECK(refusal(infinite_and_deep) == "an infinite search takes no other limit (it searches until stop())");
  SearchLimits infinite_and_counted;
  infinite_and_counted.infinite = true;
  infinite_and_counted.nodes = 1000;
  CHECK(refusal(infinite_and_counted) == "an infinite search takes no other limit (it searches until stop())");
  CHECK_FALSE(s.set_options(SearchOptions{0, 1, {}}).has_value());
  CHECK_FALSE(s.set_options(SearchOptions{16, 0, {}}).has_value());
  // Evaluation weights out of range (whose products would overflow an int) are refused, by
  // name; the constructor brings them into range instead.
  for (const auto& [name, field] : eval_weight_fields) {
    for (const int weight : {max_eval_weight + 1, -max_eval_weight - 1, std::numeric_limits<int>::max() / 2}) {
      SearchOptions heavy;
      heavy.evaluation.*field = weight;
      const auto refused_weight = s.set_options(heavy);
      REQUIRE_FALSE(refused_weight.has_value());
      CHECK(refused_weight.error().message ==
            "evaluation weight " + std::string(name) + " must be from -1000 to 1000, not " + std::to_string(weight));
    }
    SearchOptions heaviest;
    heaviest.evaluation.*field = max_eval_weight;
    CHECK(s.set_options(heaviest).has_value());
    heaviest.evaluation.*field = std::numeric_limits<int>::max();
    CHECK(Searcher(heaviest).options().evaluation.*field == max_eval_weight);
  }
  CHECK(s.set_options(SearchOptions{}).has_value());
  CHECK(s.set_options(SearchOptions{2, 2, {}}).has_value());
  CHECK(s.options().threads == 2);
}

TEST_CASE("stop() from another thread ends an infinite search, which keeps a legal best move" *
          doctest::test_suite("threads")) {
  for (int threads : {1, 2}) {
    Searcher s(SearchOptions{16, threads, {}});
    const Position pos = Position::start();
    SearchLimits infinite;
    infinite.infinite = true;
    auto future = std::async(std::launch::async, [&] { return s.search(pos, infinite); });
    while (!s.is_searching()) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(s.is_searching());  // still thinking: infinite never ends by itself here
    // Neither clears nor changes anything under the running search.
    CHECK_FALSE(s.clear());
    const auto changed = s.set_options(SearchOptions{32, threads, {}});
    REQUIRE_FALSE(changed.has_value());
    CHECK(changed.error().message == "cannot change options while searching");
    SearchLimits shallow;
    shallow.depth = 1;
    const auto second = s.search(pos, shallow);  // one search at a time on a searcher
    REQUIRE_FALSE(second.has_value());
    CHECK(second.error().message == "a search is already running");
    CHECK(s.is_searching());
    s.stop();
    // Generous: a hung search fails here instead of hanging the suite.
    REQUIRE(future.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
    const auto r = future.get();
    REQUIRE(r.has_value());
    CHECK(legal_moves(pos).contains(r->best));
    CHECK_FALSE(s.is_searching());
    CHECK(s.options().hash_mb == 16);
    CHECK(s.clear());  // idle again
  }
  // A proven position: the infinite search finishes its work but still waits for stop().
  Searcher s;
  SearchLimits infinite;
  infinite.infinite = true;
  const Position won = parse("4o/5/5/2x2/xo3 x");
  std::atomic<bool> proven{false};
  auto future = std::async(std::launch::async, [&] {
    return s.search(won, infinite, [&](const SearchInfo& info) {
      if (info.score_info.kind == ScoreKind::win) proven = true;
    });
  });
  while (!proven) std::this_thread::yield();
  CHECK(future.wait_for(std::chrono::milliseconds(50)) == std::future_status::timeout);
  s.stop();
  REQUIRE(future.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  CHECK(future.get()->score_info == ScoreInfo{ScoreKind::win, 1});

  // A game that is over: nothing to search, and still it waits for stop().
  const Position over = parse("xx3/5/5/5/o4 o");
  REQUIRE(over.is_over());
  auto finished = std::async(std::launch::async, [&] { return s.search(over, infinite); });
  while (!s.is_searching()) std::this_thread::yield();
  CHECK(finished.wait_for(std::chrono::milliseconds(50)) == std::future_status::timeout);
  s.stop();
  REQUIRE(finished.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  CHECK(finished.get()->best.is_null());
}

TEST_CASE("stop() ends the iteration that runs, not after it" * doctest::test_suite("threads")) {
  // Counted in nodes, not time: one thread searches the start to depth d + 1, and once depth d is
  // reported, stop() comes from this thread, while depth d + 1 has just begun. A prompt stop
  // visits a sliver of that iteration; a stop heeded only between iterations (as a search that
  // checked its flag only there would) visits it whole. One thread and a fresh table search the
  // same nodes up to the stop as a run that is not stopped.
  const int d = scale > 1 ? 9 : 10;  // depth 11 from the start: 1.3 M nodes, 10: 0.5 M
  const Position pos = Position::start();
  SearchLimits limits;
  limits.depth = d + 1;
  std::uint64_t nodes_at_d = 0;
  const auto record = [&](const SearchInfo& info) {
    if (info.depth == d) nodes_at_d = info.nodes;
  };
  Searcher whole(SearchOptions{16, 1, {}});
  const auto unstopped = whole.search(pos, limits, record);
  REQUIRE(unstopped.has_value());
  REQUIRE(unstopped->depth == d + 1);
  const std::uint64_t iteration = unstopped->nodes - nodes_at_d;
  MESSAGE("depth ", d + 1, " alone: ", iteration, " nodes");

  Searcher stopped(SearchOptions{16, 1, {}});
  std::atomic<std::uint64_t> reached{0};
  auto future = std::async(std::launch::async, [&] {
    return stopped.search(pos, limits, [&](const SearchInfo& info) {
      if (info.depth == d) reached = info.nodes;
    });
  });
  while (reached == 0 && future.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
    std::this_thread::yield();
  stopped.stop();
  REQUIRE(future.wait_for(std::chrono::seconds(60)) == std::future_status::ready);
  const auto r = future.get();
  REQUIRE(r.has_value());
  CHECK(reached.load() == nodes_at_d);  // the same search up to there
  CHECK(r->depth == d);                 // the stopped iteration is not reported as completed
  CHECK(legal_moves(pos).contains(r->best));
  INFO("nodes after the stop: ", r->nodes - reached.load(), " of the iteration's ", iteration);
  CHECK(r->nodes - reached.load() < iteration / 2);
}

TEST_CASE("a stop requested on the token ends a search, even before it begins" * doctest::test_suite("threads")) {
  const Position pos = Position::start();
  SearchLimits infinite;
  infinite.infinite = true;
  for (int threads : {1, 2}) {
    Searcher s(SearchOptions{16, threads, {}});
    // Requested before search() is called: it returns at once, with a legal move at depth 0.
    std::stop_source early;
    early.request_stop();
    auto future = std::async(std::launch::async, [&] { return s.search(pos, infinite, {}, early.get_token()); });
    const bool returned = future.wait_for(std::chrono::seconds(30)) == std::future_status::ready;
    CHECK(returned);
    if (!returned) s.stop();  // rather than hang the suite
    auto r = future.get();
    REQUIRE(r.has_value());
    CHECK(r->depth == 0);
    CHECK(legal_moves(pos).contains(r->best));
    CHECK_FALSE(s.is_searching());

    // Requested from another thread while it runs: as stop().
    std::stop_source later;
    std::atomic<int> iterations{0};
    future = std::async(std::launch::async, [&] {
      return s.search(pos, infinite, [&](const SearchInfo&) { ++iterations; }, later.get_token());
    });
    while (iterations == 0) std::this_thread::yield();
    later.request_stop();
    REQUIRE(future.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
    r = future.get();
    REQUIRE(r.has_value());
    CHECK(r->depth >= 1);
    CHECK(legal_moves(pos).contains(r->best));

    // A token never requested changes nothing.
    std::stop_source unused;
    SearchLimits depth3;
    depth3.depth = 3;
    r = s.search(pos, depth3, {}, unused.get_token());
    REQUIRE(r.has_value());
    CHECK(r->depth == 3);
  }
}

TEST_CASE("movetime and clock limits end the search with a legal move" * doctest::test_suite("threads")) {
  Searcher s;
  const Position pos = Position::start();
  SearchLimits movetime;
  movetime.movetime_ms = 100;
  const auto start = std::chrono::steady_clock::now();
  const auto r = s.search(pos, movetime);
  const auto took = std::chrono::steady_clock::now() - start;
  REQUIRE(r.has_value());
  CHECK(legal_moves(pos).contains(r->best));
  CHECK(r->depth >= 1);
  // A move time alone is spent whole (the start is far from solved in 100 ms), and the search
  // then stops: the bound is fifty times the move time (sanitizers, a loaded machine), to catch
  // a stop that was never heeded rather than to measure a speed (a search that ignored the move
  // time runs on for minutes from here).
  CHECK(took >= std::chrono::milliseconds(100));
  CHECK(took < std::chrono::seconds(5));
  SearchLimits clock;
  clock.time_left_ms = 200;
  clock.increment_ms = 10;
  const auto rc = s.search(pos, clock);
  REQUIRE(rc.has_value());
  CHECK(legal_moves(pos).contains(rc->best));
}

TEST_CASE("a single legal move: a move to play stops after depth 1 under a time limit, an analysis searches on") {
  // x is blocked (its only move is the pass) and loses in 4: a2a3 then a1a2 and b1a1 follow.
  const Position pos = parse("3ox/4o/5/o4/xo3 x 0 0 0 1");
  REQUIRE(count_moves(pos) == 1);
  for (const bool clock : {false, true}) {
    INFO(std::string(clock ? "a clock" : "a move time"));
    Searcher s;
    SearchLimits limits;
    if (clock) limits.time_left_ms = 60000;
    else limits.movetime_ms = 60000;
    const auto to_play = s.search(pos, limits);
    REQUIRE(to_play.has_value());
    CHECK(to_play->depth == 1);
    CHECK(to_play->best == Move::pass());
    CHECK(to_play->score_info.kind == ScoreKind::heuristic);
    s.clear();
    limits.analysis = true;
    const auto analysed = s.search(pos, limits);  // ends once the loss is proven, long before a minute
    REQUIRE(analysed.has_value());
    CHECK(analysed->best == Move::pass());
    CHECK(analysed->depth >= 4);
    CHECK(to_string(analysed->score_info) == "loss 4");
  }
}

TEST_CASE("a node limit holds with many threads: an eighth over at most, or two nodes a thread" *
          doctest::test_suite("threads")) {
  // More threads than cores: a helper may run long stretches while the main thread waits for a
  // core, so every thread must watch the sum (256 threads once searched 824 k nodes for 100 000),
  // and often enough for a small limit (checking every 1024 nodes, 256 threads once searched
  // 24 116 nodes for a limit of 1000).
  for (const char* fen : {"5/5/5/5/5 x 12 12 0 1", "ox3/ox3/x4/5/5 o"}) {
    const Position pos = parse(fen);
    for (const int threads : {8, 64, 256}) {
      Searcher s(SearchOptions{16, threads, {}});
      for (const std::uint64_t limit : {1000ull, 20000ull, 100000ull}) {
        SearchLimits limits;
        limits.nodes = limit;
        const auto r = s.search(pos, limits);
        REQUIRE(r.has_value());
        INFO(std::string(fen), ": ", threads, " threads, limit ", limit, ": ", r->nodes, " nodes");
        // Once the sum reaches the limit every thread stops at its next check or sooner, each
        // checking often enough that all of them together pass the limit by an eighth at most
        // (or one node each); the sum each took could also be short of the moment by as much.
        CHECK(r->nodes <= limit + std::max(limit / 4, 2 * std::uint64_t(threads)));
        CHECK(legal_moves(pos).contains(r->best));
      }
    }
  }
}

TEST_CASE("with a helper thread, a search counts its own nodes only, from its first iteration on" *
          doctest::test_suite("threads")) {
  // A helper that had not yet begun still held the last search's count, which the main thread
  // summed at once: its first iteration, done before the helper began, reported the last
  // search's nodes too, and a node limit then ended the search at depth 1. (The main thread
  // mostly finishes depth 1 before the helper's thread has started: before the fix, five runs
  // of this test failed 10 or 11 of its checks each.)
  // Two threads, as many as the machine's cores: with more, the helpers may spend the whole
  // limit before the main thread gets a core, and no iteration completes at all.
  const Position pos = parse("5/1xox1/5/5/5 o 10 11 0 2");
  Searcher s(SearchOptions{16, 2, {}});
  for (int run = 0; run < 10; ++run) {
    SearchLimits deep;
    deep.nodes = 200000;
    REQUIRE(s.search(pos, deep).has_value());
    SearchLimits limits;
    limits.nodes = 20000;
    std::vector<std::uint64_t> counts;
    const auto r = s.search(pos, limits, [&](const SearchInfo& info) { counts.push_back(info.nodes); });
    REQUIRE(r.has_value());
    const std::uint64_t most = limits.nodes + 2 * 2 * 1024;
    INFO("run ", run, ": ", r->nodes, " nodes, depth ", r->depth, ", first iteration ",
         counts.empty() ? 0 : counts.front(), " nodes");
    CHECK(r->nodes <= most);
    CHECK(std::all_of(counts.begin(), counts.end(), [&](std::uint64_t n) { return n <= most; }));
    CHECK(std::is_sorted(counts.begin(), counts.end()));
  }
}

TEST_CASE("with far more threads than cores, a timed search still completes its first iteration" *
          doctest::test_suite("threads")) {
  // The helpers start after the main thread's first iteration: started before it, the 127
  // helpers of these 128 threads on 2 cores kept it from completing one in 200 ms, and the move
  // played was unsearched.
  Searcher searcher(SearchOptions{1, 128, {}});
  SearchLimits limits;
  limits.movetime_ms = 200;
  int first_depth = 0;
  const auto r = searcher.search(Position::start(), limits, [&](const SearchInfo& info) {
    if (!first_depth) first_depth = info.depth;
  });
  REQUIRE(r.has_value());
  CHECK(first_depth == 1);
  CHECK(r->depth >= 1);
  CHECK(legal_moves(Position::start()).contains(r->best));
}

TEST_CASE("several searchers in one process, and Lazy SMP threads, give legal moves" * doctest::test_suite("threads")) {
  const Position pos = parse("ooxxx/oo1xx/4x/x1o1x/xoooo x 3 3 0 10");
  std::vector<std::future<Expected<SearchResult>>> runs;
  std::vector<std::unique_ptr<Searcher>> searchers;
  for (int i = 0; i < 3; ++i) searchers.push_back(std::make_unique<Searcher>(SearchOptions{4, 1 + i % 2, {}}));
  for (auto& s : searchers)
    runs.push_back(std::async(std::launch::async, [&s, &pos] {
      SearchLimits limits;
      limits.depth = 8;
      return s->search(pos, limits);
    }));
  for (auto& f : runs) {
    const auto r = f.get();
    REQUIRE(r.has_value());
    CHECK(legal_moves(pos).contains(r->best));
  }
  // Two threads on a proven position agree with one on the proven result.
  const Position win5 = parse("x4/5/5/o4/xo2x x");
  CHECK(search(win5, 9, SearchOptions{16, 2, {}}).score == search(win5, 9).score);
}

TEST_CASE("an exception from the iteration callback ends a search with helper threads" *
          doctest::test_suite("threads")) {
  // The helpers, still searching when the callback throws, are stopped and joined on the way out
  // (destroying them running would end the process), and the Searcher can search again.
  Searcher searcher(SearchOptions{4, 2, {}});
  SearchLimits limits;
  limits.depth = 30;
  const auto throw_at_depth_2 = [](const SearchInfo& info) {
    if (info.depth == 2) throw std::runtime_error("enough");
  };
  CHECK_THROWS_WITH_AS(searcher.search(Position::start(), limits, throw_at_depth_2), "enough", std::runtime_error);
  CHECK_FALSE(searcher.is_searching());
  limits.depth = 3;
  const auto again = searcher.search(Position::start(), limits);
  REQUIRE(again.has_value());
  CHECK(again->depth == 3);
}

#ifndef MOON_SANITIZE_BUILD  // the sanitizers' shadow memory does not fit in the limit
TEST_CASE("a search whose helper threads cannot be made is an error, and the Searcher still works" *
          doctest::test_suite("threads")) {
  Searcher searcher(SearchOptions{1, 200, {}});
  SearchLimits limits;
  limits.depth = 3;
  {
    // 199 helper threads of 8 MiB stacks do not fit in 256 MiB more: some start, then one is
    // refused; those that started must be stopped and joined, not destroyed running.
    // Refused before anything is searched or reported: no iteration's callback runs.
    const test::AddressSpaceGuard guard(256);
    int reported = 0;
    const auto refused = searcher.search(Position::start(), limits, [&](const SearchInfo&) { ++reported; });
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message.rfind("cannot start the 199 helper threads of a 200-thread search (", 0) == 0);
    CHECK(reported == 0);
    // A search limited to depth 1 needs no helper: it runs.
    limits.depth = 1;
    const auto shallow = searcher.search(Position::start(), limits);
    REQUIRE(shallow.has_value());
    CHECK(shallow->depth == 1);
    limits.depth = 3;
    // Nor does one on a clock with under 50 ms left, which searches depth 1 alone (its share is
    // 1 ms: time_budget.hpp); it once started and joined every helper, longer than the clock.
    SearchLimits clock;
    clock.time_left_ms = 30;
    const auto hurried = searcher.search(Position::start(), clock);
    REQUIRE(hurried.has_value());
    CHECK(hurried->depth == 1);
  }
  CHECK_FALSE(searcher.is_searching());
  const auto again = searcher.search(Position::start(), limits);
  REQUIRE(again.has_value());
  CHECK(again->depth == 3);
}
#endif

TEST_CASE("bench gives the same node count twice in one process") {
  SearchBenchOptions options;
  options.depth_offset = scale > 1 ? -6 : -4;
  const auto first = run_search_bench(options);
  const auto second = run_search_bench(options);
  REQUIRE(first.has_value());
  REQUIRE(second.has_value());
  CHECK(first->nodes > 0);
  CHECK(first->nodes == second->nodes);
  // The time is the searches' own, in microseconds and in milliseconds: at most the whole run's.
  const auto start = std::chrono::steady_clock::now();
  const auto third = run_search_bench(options);
  const auto whole_us =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(third.has_value());
  CHECK(third->time_us > 0);
  CHECK(third->time_us <= whole_us);
  CHECK(third->time_ms == third->time_us / 1000);
}

TEST_CASE("hash sizes are checked against the machine's memory") {
  CHECK(table_fits(50, 50, std::nullopt).has_value());
  const auto refused = table_fits(51, 50, std::nullopt);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message == "hash size 51 MiB is more than this machine's memory (50 MiB)");
  CHECK(table_fits(std::size_t{1} << 40, 0, std::nullopt).has_value());  // memory unknown: the allocation decides
  // The library (sysconf) and the kernel's /proc/meminfo agree on the machine's memory.
  const std::size_t meminfo = test::meminfo_total_mb();
  if (meminfo) CHECK(physical_memory_mb() == meminfo);
  else MESSAGE("no /proc/meminfo: physical_memory_mb() ", physical_memory_mb(), " not cross-checked");
}

TEST_CASE("table memory: aligned, on 2 MiB boundaries from 2 MiB on, constructed; impossible sizes are null") {
  struct Cell {
    std::uint64_t key = 7;
    std::int16_t value = -3;
  };
  const auto aligned_to = [](const void* p, std::uintptr_t alignment) {
    return reinterpret_cast<std::uintptr_t>(p) % alignment == 0;
  };
  const TableArray<Cell> small = make_table_array<Cell>(1000);
  REQUIRE(small);
  CHECK(aligned_to(small.get(), alignof(Cell)));
  CHECK(small[0].key == 7);
  CHECK(small[999].value == -3);
  const std::size_t huge_page = std::size_t{2} << 20;
  const TableArray<Cell> large = make_table_array<Cell>(huge_page / sizeof(Cell) + 1);  // just over 2 MiB
  REQUIRE(large);
  CHECK(aligned_to(large.get(), huge_page));
  CHECK(large[huge_page / sizeof(Cell)].key == 7);
  CHECK_FALSE(make_table_array<Cell>(0));
  CHECK_FALSE(make_table_array<Cell>(~std::size_t{0} / sizeof(Cell) + 1));  // the bytes would overflow
  CHECK(allocate_table_memory(0, 64) == nullptr);
  CHECK(allocate_table_memory(~std::size_t{0} - 8, 64) == nullptr);  // rounding up would overflow
}

namespace {
// A table cell that requests a stop when the cell numbered stop_at is made.
struct StoppingCell {
  static inline std::size_t made = 0, stop_at = 0;
  static inline std::stop_source* source = nullptr;
  std::array<char, 1024> bytes;
  StoppingCell() noexcept {
    if (++made == stop_at) source->request_stop();
  }
};
}  // namespace

TEST_CASE("a stop ends the making of a table at the next 64 MiB, and a solver's table making") {
  std::stop_source before;
  before.request_stop();
  CHECK_FALSE(make_table_array<std::uint64_t>(1000, before.get_token()));
  SolveTable table(1);
  const std::size_t entries = table.entry_count();
  const auto refused = table.resize(2, before.get_token());
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message == "stopped while making the 2 MiB table");
  CHECK(refused.error().stopped);
  CHECK(table.entry_count() == entries);  // the table as it was
  // A stop does not hide a failure: more than the machine has is refused as such, not as stopped.
  if (const std::size_t too_large = test::over_memory_mb()) {
    const auto over = table.resize(too_large, before.get_token());
    REQUIRE_FALSE(over.has_value());
    CHECK(over.error().message.starts_with("hash size " + std::to_string(too_large) + " MiB is more than"));
    CHECK_FALSE(over.error().stopped);
  }
  // A Solver too, made or changed; changed, it solves on as before.
  SolveOptions two_mb;
  two_mb.hash_mb = 2;
  const auto made = Solver::create(two_mb, false, before.get_token());
  REQUIRE_FALSE(made.has_value());
  CHECK(made.error().message == "stopped while making the 2 MiB table");
  CHECK(made.error().stopped);
  Solver solver(SolveOptions{1, 1, true, {}});
  const auto changed = solver.set_options(two_mb, before.get_token());
  REQUIRE_FALSE(changed.has_value());
  CHECK(changed.error().message == "stopped while making the 2 MiB table");
  CHECK(changed.error().stopped);
  const auto solved = solver.solve(parse("4x/5/xo2o/3x1/2x2 x"));
  REQUIRE(solved.has_value());
  CHECK(solved->plies == 13);

  // Requested while the first 64 MiB are made: the next part is not begun.
  const std::size_t part = (std::size_t{64} << 20) / sizeof(StoppingCell);
  std::stop_source during;
  StoppingCell::source = &during;
  StoppingCell::made = 0;
  StoppingCell::stop_at = 10;
  CHECK_FALSE(make_table_array<StoppingCell>(2 * part, during.get_token()));
  CHECK(StoppingCell::made == part);
  // Unstopped, every cell is made.
  std::stop_source unused;
  StoppingCell::made = 0;
  StoppingCell::stop_at = 0;
  CHECK(make_table_array<StoppingCell>(part + 1, unused.get_token()));
  CHECK(StoppingCell::made == part + 1);
}

TEST_CASE("a hash size above the machine's memory is refused; the table and the options stay" *
          doctest::skip(test::over_memory_mb() == 0)) {
  const std::size_t over = test::over_memory_mb();
  const test::AddressSpaceGuard guard;  // were it not refused, the allocation would fail, not kill
  TranspositionTable table;
  REQUIRE(table.resize(2));
  const std::size_t buckets = table.bucket_count();
  table.store(42, 4242, Move::placement(3), Score(17), 6, Bound::exact, false);
  const auto refused = table.resize(over);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message == test::over_memory_message(over));
  CHECK(table.bucket_count() == buckets);
  CHECK(table.size_mb() == 2);
  TableEntry e;
  REQUIRE(table.probe(42, 4242, e));
  CHECK(e.score == Score(17));
  CHECK(e.depth == 6);

  // A Searcher refuses it too, changing nothing: not its threads, not its table. A search after
  // the refusal visits what a search after no refusal visits (the warm table), while one after a
  // real change of size (a fresh table) visits more.
  const Position pos = parse("x3x/5/3o1/o4/2o2 o");
  SearchLimits limits;
  limits.depth = 7;
  auto second_search = [&](std::optional<SearchOptions> change) {
    Searcher s(SearchOptions{2, 1, {}});
    REQUIRE(s.search(pos, limits).has_value());
    if (change) {
      const auto ok = s.set_options(*change);
      if (change->hash_mb == over) {
        REQUIRE_FALSE(ok.has_value());
        CHECK(ok.error().message == test::over_memory_message(over));
        CHECK(s.options().hash_mb == 2);
        CHECK(s.options().threads == 1);
      } else {
        REQUIRE(ok.has_value());
      }
    }
    const auto r = s.search(pos, limits);
    REQUIRE(r.has_value());
    CHECK(legal_moves(pos).contains(r->best));
    return r->nodes;
  };
  const std::uint64_t unchanged = second_search(std::nullopt);
  CHECK(second_search(SearchOptions{over, 2, {}}) == unchanged);
  CHECK(second_search(SearchOptions{4, 1, {}}) > unchanged);
}

TEST_CASE("a table size is checked against the memory available now as well as the machine's") {
  CHECK(table_fits(100, 1000, 500).has_value());
  CHECK(table_fits(500, 1000, 500).has_value());
  CHECK(table_fits(100, 0, std::nullopt).has_value());  // nothing known: anything fits
  // Less than 1 MiB available is known, not unknown: nothing fits.
  const auto nothing_available = table_fits(1, 1000, 0);
  REQUIRE_FALSE(nothing_available.has_value());
  CHECK(nothing_available.error().message ==
        "hash size 1 MiB is more than the memory available now (0 MiB of this machine's 1000 MiB)");
  const auto over_available = table_fits(600, 1000, 500);
  REQUIRE_FALSE(over_available.has_value());
  CHECK(over_available.error().message ==
        "hash size 600 MiB is more than the memory available now (500 MiB of this machine's 1000 MiB)");
  const auto over_machine = table_fits(1001, 1000, 500);
  REQUIRE_FALSE(over_machine.has_value());
  CHECK(over_machine.error().message == "hash size 1001 MiB is more than this machine's memory (1000 MiB)");
  const auto machine_unknown = table_fits(600, 0, 500);
  REQUIRE_FALSE(machine_unknown.has_value());
  CHECK(machine_unknown.error().message == "hash size 600 MiB is more than the memory available now (500 MiB)");
  CHECK(table_fits(600, 1000, std::nullopt).has_value());  // available unknown: the machine's memory alone

  // Two tables, the second still to be made: each alone, then the pair.
  CHECK(table_fits_beside(300, 200, "the other", 1000, 500).has_value());
  CHECK(table_fits_beside(600, 0, "nothing", 1000, std::nullopt).has_value());
  const auto alone_too_large = table_fits_beside(600, 1, "the other", 1000, 500);
  REQUIRE_FALSE(alone_too_large.has_value());
  CHECK(alone_too_large.error().message ==
        "hash size 600 MiB is more than the memory available now (500 MiB of this machine's 1000 MiB)");
  const auto pair_too_large = table_fits_beside(300, 201, "the solver's 201 MiB table", 1000, 500);
  REQUIRE_FALSE(pair_too_large.has_value());
  CHECK(pair_too_large.error().message ==
        "hash size 300 MiB and the solver's 201 MiB table together are more than the memory available now "
        "(500 MiB of this machine's 1000 MiB)");
  // Available unknown: the pair against the machine's memory; nothing known: anything fits.
  CHECK(table_fits_beside(600, 400, "the other", 1000, std::nullopt).has_value());
  const auto pair_over_machine = table_fits_beside(600, 401, "the other", 1000, std::nullopt);
  REQUIRE_FALSE(pair_over_machine.has_value());
  CHECK(pair_over_machine.error().message ==
        "hash size 600 MiB and the other together are more than this machine's memory (1000 MiB)");
  CHECK(table_fits_beside(600, 50000, "the other", 0, std::nullopt).has_value());

  // The library's reading agrees with /proc/meminfo's (within what changes meanwhile).
  if (const std::size_t meminfo = test::meminfo_mb("MemAvailable:")) {
    const std::optional<std::size_t> available = available_memory_mb();
    REQUIRE(available.has_value());
    const std::size_t read = *available;
    CHECK(read > 0);
    CHECK(read <= physical_memory_mb());
    CHECK(read + 1024 > meminfo);
    CHECK(read < meminfo + 1024);
    // A table beside another still to be made: together they must fit (the C API's two tables).
    const std::size_t more = std::numeric_limits<std::size_t>::max() / 4;  // more than any machine has
    const auto together = check_table_size_beside(1, 0, more, "the other table");
    REQUIRE_FALSE(together.has_value());
    CHECK(together.error().message.starts_with(
        "hash size 1 MiB and the other table together are more than the memory available now ("));
    CHECK(check_table_size_beside(1, more, more, "a table the size of the one let go").has_value());
  }
}

#ifndef MOON_SANITIZE_BUILD  // the guard below does nothing under the sanitizers: no unguarded try
TEST_CASE("a hash size above the memory available now is refused, the table kept; a table let go first counts" *
          doctest::skip(test::over_available_mb() == 0)) {
  const std::size_t size = test::over_available_mb();
  const test::AddressSpaceGuard guard;  // were it not refused, the allocation would fail, not kill
  TranspositionTable table;
  REQUIRE(table.resize(2));
  table.store(42, 4242, Move::placement(3), Score(17), 6, Bound::exact, false);
  const auto refused = table.resize(size);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message.starts_with("hash size " + std::to_string(size) +
                                            " MiB is more than the memory available now ("));
  CHECK(table.size_mb() == 2);
  TableEntry e;
  CHECK(table.probe(42, 4242, e));
  CHECK(table.resize(2));  // the same size again clears it
  CHECK_FALSE(table.probe(42, 4242, e));
  // A solver's table too, and its options stay.
  Solver solver(SolveOptions{2, 1});
  const auto solver_refused = solver.set_options(SolveOptions{size, 1});
  REQUIRE_FALSE(solver_refused.has_value());
  CHECK(solver_refused.error().message.find("more than the memory available now") != std::string::npos);
  const auto solved = solver.solve(parse("4x/5/xo2o/3x1/2x2 x"));  // still solves, on its table
  REQUIRE(solved.has_value());
  CHECK(solved->outcome == Outcome::win);
  // The check alone, with the memory of a table to be let go before this one is made counted
  // free: the protocol's `Solver Hash` and the C API's solver_hash_mb when they replace a solver.
  CHECK_FALSE(check_table_size(size).has_value());
  CHECK(check_table_size_after_release(size, size).has_value());
}
#endif

#ifndef MOON_SANITIZE_BUILD  // the sanitizers' shadow memory does not fit in the limit
// Run alone, in a process of its own (ctest's moon_fresh_process_tests: `moon_tests
// --test-suite=fresh_process --no-skip`), skipped in other runs: the free memory that earlier test
// cases leave in the heap would hold the workers without the address space the limit denies.
TEST_CASE("threads whose state cannot be allocated are refused; the table and the options stay" *
          doctest::test_suite("fresh_process") * doctest::skip()) {
  // 256 workers' state (history, killers: about 17 MiB) does not fit in 8 MiB more address space,
  // where a 4 MiB table would. The change is refused as a value, before the table is touched: the
  // next search, on one thread and the warm table, visits what a search after no change visits.
  // (A Searcher that resized its table first, or kept some of the new workers, would visit more,
  // or search on many threads; the one before this test threw bad_alloc after the resize.)
  const Position pos = parse("x3x/5/3o1/o4/2o2 o");
  SearchLimits limits;
  limits.depth = 7;
  auto second_search = [&](bool change) {
    Searcher s(SearchOptions{2, 1, {}});
    REQUIRE(s.search(pos, limits).has_value());
    if (change) {
      std::optional<Expected<bool>> changed;
      {
        const test::AddressSpaceGuard guard(8);
        changed = s.set_options(SearchOptions{4, 256, {}});  // no doctest check in here: it allocates
      }
      REQUIRE_FALSE(changed->has_value());
      CHECK((*changed).error().message == "cannot allocate the state of 256 search threads");
      CHECK(s.options().hash_mb == 2);
      CHECK(s.options().threads == 1);
    }
    const auto r = s.search(pos, limits);
    REQUIRE(r.has_value());
    CHECK(legal_moves(pos).contains(r->best));
    return r->nodes;
  };
  CHECK(second_search(true) == second_search(false));
}
#endif
