#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <span>
#include <stop_token>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../bench/baseline_solver.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/solve_search.hpp"
#include "moon/solver.hpp"
#include "machine_memory.hpp"
#include "minimax.hpp"
#include "random_positions.hpp"
#include "reference.hpp"
#include "reference_terms.hpp"
#include "solve_directly.hpp"
#include "symmetric_image.hpp"

using namespace moon;
using test::terminal_outcome;
using test::Truth;
using test::truth;

namespace {

#ifdef MOON_SANITIZE_BUILD
constexpr int scale = 4;  // the sanitizers make everything ~10x slower
#else
constexpr int scale = 1;
#endif

Rules random_rules(std::mt19937_64& rng) {
  Rules rules;
  rules.movement = rng() % 2 ? Movement::slide : Movement::step;
  rules.capture_lines = rng() % 2 ? CaptureLines::orthogonal_and_diagonal : CaptureLines::orthogonal;
  const int kind = int(rng() % 3);
  rules.clock_limit = kind == 0 ? 1 + int(rng() % 3) : kind == 1 ? 4 + int(rng() % 5) : 20;
  return rules;
}

// The board field of a position string from the 25 squares, a1 first (`x`, `o`, or `1` for
// empty): ranks 5 down to 1, split digits left as they are (the reader accepts them).
std::string board_field(const std::string& squares) {
  std::string text;
  for (int rank = 4; rank >= 0; --rank) text += squares.substr(std::size_t(rank) * 5, 5) + (rank ? "/" : "");
  return text;
}

// A random legal position: sparse to dense boards (dense ones often leave a side blocked), the
// clock anywhere up to the limit (often just below it), now and then counters still in hand.
Position random_position(std::mt19937_64& rng, const Rules& rules) {
  for (;;) {
    const bool placement = rng() % 8 == 0;
    // How many empty squares: sparse, middling, dense, packed (packed boards often block a side).
    static constexpr int empties_low[] = {16, 10, 4, 1}, empties_high[] = {22, 15, 9, 3};
    const int fill = int(rng() % 4);
    const int empties = empties_low[fill] + int(rng() % std::uint64_t(empties_high[fill] - empties_low[fill] + 1));
    char board[25];
    int nx = 0, no = 0;
    for (int i = 0; i < 25; ++i) {
      board[i] = i < empties ? '1' : rng() % 2 ? 'x' : 'o';  // '1': empty, as in a position string
      if (board[i] == 'x') ++nx;
      if (board[i] == 'o') ++no;
    }
    std::shuffle(board, board + 25, rng);
    if (nx > 12 || no > 12) continue;
    int in_hand_x = 0, in_hand_o = 0, clock = 0;
    char side = rng() % 2 ? 'x' : 'o';
    if (placement) {
      if (board[centre] != '1') continue;
      in_hand_x = 1 + int(rng() % 2);
      in_hand_o = side == 'x' ? in_hand_x : in_hand_x + 1;
      if (nx + in_hand_x > 12 || no + in_hand_o > 12) continue;
    } else {
      clock = rng() % 2 ? rules.clock_limit - 1 - int(rng() % std::uint64_t(std::min(rules.clock_limit, 3)))
                        : int(rng() % std::uint64_t(rules.clock_limit));
    }
    std::string text = board_field(std::string(board, 25));
    text += std::string(" ") + side + " " + std::to_string(in_hand_x) + " " + std::to_string(in_hand_o) + " " +
            std::to_string(clock) + " 1";
    const auto pos = parse_position(text, rules);
    if (pos) return *pos;
  }
}

std::string describe(const Position& pos) {
  const Rules& r = pos.rules();
  return to_string(pos) + (r.slide() ? " slide" : " step") + (r.diagonal() ? " diagonal" : " orthogonal") +
         " limit " + std::to_string(r.clock_limit);
}

// A table's entries are facts under the rules they were proven under (the keys do not hold the
// rules): like Solver, the tests clear a table before it serves positions under other rules.
// Shared across rules, one gave a distance a ply too long (a step, diagonal placement position
// solved before a slide, orthogonal one).
void clear_if_rules_change(SolveTable& table, const Rules& rules) {
  static std::map<const SolveTable*, Rules> rules_of;  // a table made at a freed one's address starts empty anyway
  const auto known = rules_of.find(&table);
  if (known != rules_of.end() && known->second == rules) return;
  table.clear();
  rules_of[&table] = rules;
}

// Solves pos with SolveSearch on the given table.
SolveResult core_solve(const Position& pos, SolveTable& table, bool distance = true) {
  clear_if_rules_change(table, pos.rules());
  const auto result = test::solve_directly(pos, table, distance);
  REQUIRE(result.has_value());
  return *result;
}

// The best move keeps the outcome, and (with distances) leads to the distance one ply shorter.
void check_best_move(const Position& pos, const SolveResult& r, const Truth& t, bool distance) {
  if (pos.is_over()) {
    CHECK(r.best.is_null());
    return;
  }
  REQUIRE(legal_moves(pos).contains(r.best));
  const auto child = truth(pos.after(r.best), std::uint64_t(1) << 40);
  REQUIRE(child.has_value());
  CHECK(child->outcome == opposite(t.outcome));
  if (distance) CHECK(child->plies == t.plies - 1);
}

struct Sample {
  Position pos;
  Truth truth;
};

// Random positions of every variant that exhaustive minimax can settle within its budget.
std::vector<Sample> samples(std::uint64_t seed, int count, std::uint64_t budget) {
  std::mt19937_64 rng(seed);
  std::vector<Sample> out;
  while (int(out.size()) < count) {
    const Rules rules = random_rules(rng);
    const Position pos = random_position(rng, rules);
    // One in ten has the side to move blocked; a few are over already; the rest are live.
    const int kind = int(out.size() % 20);
    const bool blocked = !pos.is_over() && legal_moves(pos)[0] == Move::pass();
    if ((kind % 10 == 0) != blocked || (pos.is_over() && kind != 1)) continue;
    if (const auto t = truth(pos, budget)) out.push_back({pos, *t});
  }
  return out;
}

}  // namespace

TEST_CASE("solve values: the scale and the child threshold agree with the definitions") {
  for (int p = 0; p < 300; ++p) {
    CHECK(from_child(solve_loss_in(p)) == solve_win_in(p + 1));
    CHECK(from_child(solve_win_in(p)) == solve_loss_in(p + 1));
    CHECK(plies_of(solve_win_in(p)) == p);
    CHECK(plies_of(solve_loss_in(p)) == p);
  }
  CHECK(from_child(0) == 0);
  // from_child(c) >= beta exactly when c < child_beta(beta), over the values that occur.
  std::vector<SolveValue> values{0};
  for (int p = 0; p < 40; ++p) values.push_back(solve_win_in(p)), values.push_back(solve_loss_in(p));
  for (SolveValue beta : values)
    for (SolveValue b : {beta, beta + 1, 1, 0, -1})
      for (SolveValue c : values) CHECK((from_child(c) >= b) == (c < child_beta(b)));
}

TEST_CASE("TakeBacks ranks the moves taking back the mover's own last three moves, the latest first") {
  const auto at = [](const char* name) { return *parse_square(name); };
  const auto step = [&](const char* from, const char* to) { return Move::movement(at(from), at(to)); };
  // x a1-b1, o e5-e4, x c2-c3, o e4-d4, x b1-b2, o d4-d5; x to move.
  std::vector<std::uint16_t> line;
  for (Move m : {step("a1", "b1"), step("e5", "e4"), step("c2", "c3"), step("e4", "d4"), step("b1", "b2"),
                 step("d4", "d5")})
    line.push_back(m.raw());
  CHECK(TakeBacks(line).bonus(step("b2", "b1")) == 1 << 19);  // x's last move, taken back
  CHECK(TakeBacks(line).bonus(step("c3", "c2")) == 1 << 18);
  CHECK(TakeBacks(line).bonus(step("b1", "a1")) == 1 << 17);
  CHECK(TakeBacks(line).bonus(step("b2", "b3")) == 0);  // the same counter, not back
  CHECK(TakeBacks(line).bonus(step("b1", "b2")) == 0);  // the move itself again
  CHECK(TakeBacks(line).bonus(step("d5", "d4")) == 0);  // o's moves are not x's to take back
  CHECK(TakeBacks(line).bonus(step("e4", "e5")) == 0);
  // One x move more: now o moves, and its own last three are d4-d5, e4-d4, e5-e4.
  line.push_back(step("c3", "c4").raw());
  CHECK(TakeBacks(line).bonus(step("d5", "d4")) == 1 << 19);
  CHECK(TakeBacks(line).bonus(step("d4", "e4")) == 1 << 18);
  CHECK(TakeBacks(line).bonus(step("e4", "e5")) == 1 << 17);
  CHECK(TakeBacks(line).bonus(step("c4", "c3")) == 0);
  // Fewer than three own moves on the line; a pass or a placement is nothing to take back.
  CHECK(TakeBacks(std::span(line).first(2)).bonus(step("b1", "a1")) == 1 << 19);
  CHECK(TakeBacks(std::span(line).first(1)).bonus(step("b1", "a1")) == 0);
  CHECK(TakeBacks(std::span<const std::uint16_t>{}).bonus(step("b1", "a1")) == 0);
  const std::vector<std::uint16_t> with_pass{Move::placement(at("b1")).raw(), Move::pass().raw(), Move::pass().raw(),
                                             Move::pass().raw()};
  CHECK(TakeBacks(with_pass).bonus(step("b1", "a1")) == 0);
  CHECK(TakeBacks(with_pass).bonus(Move::pass()) == 0);
  // A pass between keeps the rank of the own moves before it: a1-b1 is x's second last.
  const std::vector<std::uint16_t> pass_between{step("a1", "b1").raw(), Move::pass().raw(), Move::pass().raw(),
                                                Move::pass().raw()};
  CHECK(TakeBacks(pass_between).bonus(step("b1", "a1")) == 1 << 18);
  // With the largest history score (halved past 1 << 18) still below every capture (1 << 20 on).
  CHECK(TakeBacks(line).bonus(step("d5", "d4")) + (1 << 18) < 1 << 20);
}

TEST_CASE("Killers keeps the last two distinct moves that answered yes, the latest first") {
  const auto at = [](const char* name) { return *parse_square(name); };
  const auto step = [&](const char* from, const char* to) { return Move::movement(at(from), at(to)); };
  Killers killers;
  CHECK(killers.bonus(step("a1", "b1")) == 0);  // none yet
  CHECK(killers.bonus(Move::placement(at("a1"))) == 0);
  killers.add(step("a1", "b1"));
  CHECK(killers.bonus(step("a1", "b1")) == 1 << 16);
  CHECK(killers.bonus(step("b1", "a1")) == 0);
  killers.add(step("c3", "c4"));
  CHECK(killers.bonus(step("c3", "c4")) == 1 << 16);
  CHECK(killers.bonus(step("a1", "b1")) == 1 << 15);
  killers.add(step("c3", "c4"));  // the latest again: the one before stays
  CHECK(killers.bonus(step("c3", "c4")) == 1 << 16);
  CHECK(killers.bonus(step("a1", "b1")) == 1 << 15);
  killers.add(step("e5", "e4"));  // a third: the oldest goes
  CHECK(killers.bonus(step("e5", "e4")) == 1 << 16);
  CHECK(killers.bonus(step("c3", "c4")) == 1 << 15);
  CHECK(killers.bonus(step("a1", "b1")) == 0);
  killers.add(step("c3", "c4"));  // the older one again: the two change places
  CHECK(killers.bonus(step("c3", "c4")) == 1 << 16);
  CHECK(killers.bonus(step("e5", "e4")) == 1 << 15);
  // Behind the take-back of the mover's last move; a quiet move that is both, with the largest
  // history score (halved past 1 << 18) and the lazy SMP helpers' noise (at most 7), still below
  // every capture (1 << 20 on).
  const std::vector<std::uint16_t> line{step("e4", "e5").raw(), step("a5", "a4").raw()};
  CHECK(killers.bonus(step("c3", "c4")) < TakeBacks(line).bonus(step("e5", "e4")));
  CHECK(killers.bonus(step("c3", "c4")) + TakeBacks(line).bonus(step("e5", "e4")) + (1 << 18) + 7 < 1 << 20);
}

TEST_CASE("progress describes what is known of the value, with distances only where they are known") {
  CHECK(describe_bounds(solve_win_in(28), solve_win_in(28)) == "value win in 28 plies");
  CHECK(describe_bounds(solve_win_in(1), solve_win_in(1)) == "value win in 1 ply");
  CHECK(describe_bounds(solve_win_in(40), solve_win_in(28)) == "value win in 28 to 40 plies");
  CHECK(describe_bounds(17, solve_win_in(28)) == "value win in 28 or more plies");  // a whole-game "won?" answer
  CHECK(describe_bounds(solve_loss_in(12), solve_loss_in(20)) == "value loss in 12 to 20 plies");
  CHECK(describe_bounds(solve_loss_in(12), -17) == "value loss in 12 or more plies");
  CHECK(describe_bounds(solve_loss_in(2), solve_loss_in(2)) == "value loss in 2 plies");
  CHECK(describe_bounds(0, 0) == "value draw");
  CHECK(describe_bounds(-16, 16) == "value draw");  // "not lost" and "not won", fail-soft
  CHECK(describe_bounds(solve_loss_in(24), solve_win_in(24)) == "value between loss in 24 and win in 24");
  CHECK(describe_bounds(0, solve_win_in(23)) == "value between draw and win in 23");
  CHECK(describe_bounds(solve_loss_in(20), 16) == "value between loss in 20 and draw");
  CHECK(describe_bounds(-5, solve_win_in(3)) == "value between draw and win in 3");
  // The bounds a search keeps read the gap so too: an upper bound of 16 is "at most a draw", a
  // lower one of -16 "at least a draw"; bounds outside the gap, and those pointing into a win
  // or a loss (a lower bound of 17: a win), are kept.
  CHECK(tight_upper(16) == 0);
  CHECK(tight_upper(solve_min_win - 1) == 0);
  CHECK(tight_upper(solve_min_win) == solve_min_win);
  CHECK(tight_upper(-16) == -16);
  CHECK(tight_lower(-16) == 0);
  CHECK(tight_lower(-solve_min_win + 1) == 0);
  CHECK(tight_lower(-solve_min_win) == -solve_min_win);
  CHECK(tight_lower(17) == 17);
  CHECK(tight_upper(0) == 0);
  CHECK(tight_lower(0) == 0);

  // A real solve, by the search that asks the whole-game questions first (a second thread's
  // role): "won?" proves the win with no distance, then the distance is narrowed from the top.
  // Each line names the question about to be asked, with what is known before it; every line
  // names only real distances, and the last one the result.
  const Position pos = *parse_position("5/2o2/3x1/2x2/1ox2 x");  // a win in 20
  SolveTable table(16);
  std::vector<std::string> lines;
  const auto result = test::solve_directly(
      pos, table, true, [&](const std::string& line) { lines.push_back(line); }, SolveRole::whole_game);
  REQUIRE(result.has_value());
  REQUIRE(result->outcome == Outcome::win);
  REQUIRE(result->plies == 20);
  REQUIRE(lines.size() >= 3);
  CHECK(lines[0] == "the whole game: won? value between loss in 1 and win in 1");
  CHECK(lines[1].rfind("won within ", 0) == 0);
  CHECK(lines[1].find("? value win in 1 or more plies") != std::string::npos);
  CHECK(lines[lines.size() - 2] == "won within 19 plies? value win in 1 to 20 plies");  // the answer, no, settles it
  CHECK(lines.back() == "value win in 20 plies");
  for (const std::string& line : lines) {
    INFO(line);
    // No distance read off a bound in the gap around the draw (it would show as "in 29983").
    CHECK(line.find("win in 29") == std::string::npos);
    CHECK(line.find("loss in 29") == std::string::npos);
  }
  // The questions equivalent to "won?" between such a bound and the least win are skipped: they
  // used to be asked one at a time, some 18 000 of them.
  CHECK(lines.size() < 10);
}

TEST_CASE("a deepening search proves a draw by itself once its depth passes the longest line") {
  // With two threads or more, one search deepens and another asks the whole-game questions that
  // usually settle a draw first. Should that one stop early (out of stack, say), the deepening
  // search does not wait for it for ever: once every line ends within its depth, its answers
  // are exact, the draw included. (Its loop asks nothing past solve_max_plies, the longest game.)
  const Position pos = *parse_position("xx3/5/5/5/3oo x");  // a draw, 20 plies
  for (bool distance : {true, false}) {
    INFO("distance " << distance);
    SolveTable table(16);
    const auto result = test::solve_directly(pos, table, distance, {}, SolveRole::deepening);
    REQUIRE(result.has_value());
    CHECK(result->outcome == Outcome::draw);
    CHECK(result->plies == (distance ? 20 : -1));
  }
}

TEST_CASE("a lone solver's progress names each deepening step before it is taken, then the value proven") {
  // A progress line is shown while the work it names goes on: "decided within 13 plies?" is
  // the question being asked, not the one just answered.
  const Position pos = *parse_position("4x/5/xo2o/3x1/2x2 x");  // a win in 13
  SolveTable table(16);
  std::vector<std::string> lines;
  const auto result = test::solve_directly(pos, table, true, [&](const std::string& line) { lines.push_back(line); });
  REQUIRE(result.has_value());
  REQUIRE(result->outcome == Outcome::win);
  REQUIRE(result->plies == 13);
  REQUIRE(lines.size() >= 3);
  CHECK(lines.front() == "decided within 1 ply? value between loss in 1 and win in 1");
  CHECK(lines[lines.size() - 2] == "decided within 13 plies? value between loss in 13 and win in 13");
  CHECK(lines.back() == "value win in 13 plies");
  int step = 0;  // the deepening's steps come in order, each once
  for (const std::string& line : lines) {
    if (line.rfind("decided within ", 0) != 0) continue;
    const int d = std::stoi(line.substr(15));
    CHECK(d > step);
    step = d;
  }
}

TEST_CASE("capturing_squares() and movement_destinations(), which the solver's nodes start from, agree with the move generator") {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 3000; ++i) {
    const Rules rules = random_rules(rng);
    const Position pos = random_position(rng, rules);
    if (pos.in_placement() || pos.is_over()) continue;
    INFO(describe(pos));
    const Bitboard us = pos.pieces(pos.side_to_move()), them = pos.pieces(~pos.side_to_move());
    with_variant(rules, [&](auto v) {
      using V = decltype(v);
      const Bitboard targets = capturing_squares<V::diagonal>(us, them);
      Bitboard reached = 0, capturing = 0;
      for (Move m : legal_moves(pos)) {
        if (m.kind() != MoveKind::movement) continue;
        reached |= square_bb(m.to());
        if (pos.captures_of(m)) capturing |= square_bb(m.to());
        // What a move captures depends on where it lands only.
        CHECK(pos.captures_of(m) == captures_at<V::diagonal>(m.to(), us | square_bb(m.to()), them));
      }
      CHECK(movement_destinations<V>(us, pos.empty()) == reached);
      CHECK((targets & reached) == capturing);
    });
  }
}

// Exhaustive minimax as minimax.hpp's, over the plain reference implementation of the rules
// (tests/reference, which shares nothing with the engine): its moves, its positions, its ends
// of games and their results; only the definitions of the values are minimax.hpp's. The
// budget counts nodes down; 0 left: the answer is unknown.
Truth reference_truth(const reference::Position& p, std::uint64_t& budget) {
  if (budget == 0) return {};
  --budget;
  if (reference::is_over(p)) {
    const char winner = reference::result(p);
    return {winner == 'd' ? Outcome::draw : winner == p.side ? Outcome::win : Outcome::loss, 0};
  }
  test::FromChildren value;  // the definitions of the values, as minimax.hpp's
  for (const std::string& move : reference::legal_moves(p)) {
    reference::Position next = p;
    if (!reference::play(next, move)) FAIL("the reference refuses its own move " << move);
    value.add(reference_truth(next, budget));
    if (budget == 0) return {};
  }
  return value.truth();
}

TEST_CASE("the minimax oracle's truths hold by the reference implementation's rules too") {
  // The solver's tests take their truths from minimax.hpp, which plays the engine's own moves.
  // The differential tests check those moves against the reference position by position; this
  // checks the truths themselves, computed again from the reference alone.
  const auto cases = samples(7, 150 / scale, 200000 / scale);
  int compared = 0;
  for (const Sample& s : cases) {
    INFO(describe(s.pos));
    reference::Position r;
    std::string error;
    REQUIRE_MESSAGE(reference::parse(to_string(s.pos), test::to_reference(s.pos.rules()), r, error), error);
    std::uint64_t budget = 400000 / scale;
    const Truth t = reference_truth(r, budget);
    if (budget == 0) continue;  // the reference is slower: out of its budget, left out
    ++compared;
    CHECK(t.outcome == s.truth.outcome);
    CHECK(t.plies == s.truth.plies);
  }
  CHECK(compared >= int(cases.size()) * 9 / 10);
}

TEST_CASE("solver agrees with exhaustive minimax on random positions of every variant") {
  const auto cases = samples(7, 600 / scale, 200000 / scale);
  SolveTable table(16);
  int wins = 0, draws = 0, losses = 0, blocked = 0, placement = 0, long_games = 0, over = 0, uneven_draws = 0;
  for (const Sample& s : cases) {
    INFO(describe(s.pos));
    const SolveResult r = core_solve(s.pos, table);
    CHECK(r.outcome == s.truth.outcome);
    CHECK(r.plies == s.truth.plies);
    check_best_move(s.pos, r, s.truth, true);
    if (!s.pos.is_over() && s.truth.outcome != Outcome::draw) CHECK(min_plies_to_decide(s.pos) <= s.truth.plies);
    if (!s.pos.is_over() && s.truth.outcome == Outcome::draw) {
      CHECK(min_plies_to_draw(s.pos) <= s.truth.plies);
      uneven_draws += s.pos.counters(x) != s.pos.counters(o);
    }
    wins += s.truth.outcome == Outcome::win;
    draws += s.truth.outcome == Outcome::draw;
    losses += s.truth.outcome == Outcome::loss;
    blocked += !s.pos.is_over() && legal_moves(s.pos)[0] == Move::pass();
    placement += s.pos.in_placement();
    over += s.pos.is_over();
    long_games += s.truth.plies > s.pos.rules().clock_limit;
  }
  MESSAGE("wins ", wins, ", draws ", draws, ", losses ", losses, ", blocked ", blocked, ", placement ", placement,
          ", over ", over, ", games longer than the clock limit ", long_games, ", draws from unequal counts ",
          uneven_draws);
  // The sample covers every kind of position it should.
  CHECK(wins > 0);
  CHECK(draws > 0);
  if (scale == 1) CHECK(uneven_draws > 0);  // the sanitizers' smaller sample need not have one
  CHECK(losses > 0);
  CHECK(blocked > 0);
  CHECK(placement > 0);
  CHECK(long_games > 0);
}

// The position `text` under the default rules but the clock limit (and the diagonals if asked).
Position position_at_limit(const char* text, int clock_limit, bool diagonal = false) {
  Rules rules;
  rules.clock_limit = clock_limit;
  if (diagonal) rules.capture_lines = CaptureLines::orthogonal_and_diagonal;
  const auto pos = parse_position(text, rules);
  REQUIRE(pos);
  return *pos;
}

TEST_CASE("the fewest plies to a win: the placements, then the clock or a knockout") {
  const auto fewest = [](const char* text, int clock_limit, bool diagonal = false) {
    return min_plies_to_decide(position_at_limit(text, clock_limit, diagonal));
  };
  // The start: 24 placements, then, 12 against 12, a capture and the clock's limit, or two
  // captures of at most 6 (9 with the diagonals) with a move of the other side between them.
  CHECK(fewest("5/5/5/5/5 x 12 12 0 1", 1) == 26);
  CHECK(fewest("5/5/5/5/5 x 12 12 0 1", 2) == 27);
  CHECK(fewest("5/5/5/5/5 x 12 12 0 1", 20) == 27);
  CHECK(fewest("5/5/5/5/5 x 12 12 0 1", 20, true) == 27);
  // Custom setups in which a side ends the placements with one counter: over when placed.
  CHECK(fewest("5/5/5/5/5 x 1 1 0 1", 20) == 2);
  CHECK(fewest("xx3/5/5/5/5 o 0 1 0 1", 20) == 1);
  // With two each after the placement, one capture ends it.
  CHECK(fewest("xx3/5/5/5/4o o 0 1 0 1", 20) == 2);
  // Movement, 8 against 8: 7 to capture is two moves orthogonally, one with the diagonals; the
  // clock cannot decide before a capture. 9 against 8: the clock decides, 2 moves from its limit.
  CHECK(fewest("xxxxx/xxx2/5/2ooo/ooooo x", 20) == 3);
  CHECK(fewest("xxxxx/xxx2/5/2ooo/ooooo x", 20, true) == 1);
  CHECK(fewest("xxxxx/xxx2/5/2ooo/ooooo x 0 0 18 30", 20) == 3);
  CHECK(fewest("xxxxx/xxx2/5/2ooo/ooooo x", 1) == 2);
  CHECK(fewest("xxxxx/xxxx1/5/2ooo/ooooo x 0 0 18 30", 20) == 2);
  CHECK(fewest("xx3/5/5/5/3oo x", 20) == 1);
  // The last placement: equal on the board, o a counter up with the one in hand. Unequal
  // counts, so the clock decides from where it stands: one placement, then one move.
  CHECK(fewest("xoxox/oxoxo/xo1ox/oxoxo/2xox o 0 1 0 1", 1) == 2);
}

TEST_CASE("the end of the placements at short clock limits agrees with exhaustive minimax") {
  // Counters still in hand with the movement phase a ply or two long: whether the counts are
  // equal must count the hands (a bound that looked at the board alone once gave a loss in 4
  // for a loss in 3 here, which the random sample above did not catch).
  SolveTable table(16);
  const Position found = position_at_limit("oxo1x/xoxoo/xx1xo/oxxo1/ox1oo x 1 1 0 1", 1);
  const SolveResult r = core_solve(found, table);
  CHECK(r.outcome == Outcome::loss);
  CHECK(r.plies == 3);
  // Random boards of the last placements: one or two counters in hand each (o one more with o
  // to move), up to two fewer on the board than that leaves, so that the counts on the board
  // and in all differ now and then; c3 empty.
  std::mt19937_64 rng(23);
  int checked = 0, decided = 0;
  for (int attempt = 0; checked < 200 / scale && attempt < 100000; ++attempt) {
    Rules rules = random_rules(rng);
    rules.clock_limit = 1 + int(rng() % 3);
    const bool x_to_move = rng() % 2;
    const int hand_x = 1 + int(rng() % 2), hand_o = hand_x + (x_to_move ? 0 : 1);
    const int board_x = 12 - hand_x - int(rng() % 3), board_o = 12 - hand_o - int(rng() % 3);
    std::string squares(24, '1');
    std::fill_n(squares.begin(), board_x, 'x');
    std::fill_n(squares.begin() + board_x, board_o, 'o');
    std::shuffle(squares.begin(), squares.end(), rng);
    squares.insert(std::size_t(centre), 1, '1');
    const std::string text = board_field(squares) + (x_to_move ? " x " : " o ") + std::to_string(hand_x) + " " +
                             std::to_string(hand_o) + " 0 1";
    const auto parsed = parse_position(text, rules);
    REQUIRE(parsed);
    const Position pos = *parsed;
    const auto t = truth(pos, 200000 / scale);
    if (!t) continue;
    INFO(describe(pos));
    const SolveResult solved = core_solve(pos, table);
    CHECK(solved.outcome == t->outcome);
    CHECK(solved.plies == t->plies);
    if (t->outcome != Outcome::draw) CHECK(min_plies_to_decide(pos) <= t->plies);
    ++checked;
    decided += t->outcome != Outcome::draw;
  }
  CHECK(checked == 200 / scale);
  CHECK(decided > 0);
}

TEST_CASE("the table's three kinds of keys never meet: exact, board, and clock range") {
  // Exact keys use 63 bits; board keys (any clock) carry bit 63; clock-range keys bit 62 too. A
  // board key equal to an exact key would let an entry of one be read as the other.
  std::mt19937_64 rng(29);
  for (int i = 0; i < 2000; ++i) {
    Rules rules = random_rules(rng);
    rules.clock_limit = 1 + int(rng() % 255);
    const Position pos = random_position(rng, rules);
    INFO(describe(pos));
    const std::uint64_t board = board_key(pos);
    CHECK((pos.key() >> 63) == 0);
    CHECK((board >> 63) == 1);
    for (const bool won : {false, true}) {
      const std::uint64_t range = clock_range_key(board, won);
      CHECK((range >> 62) == 3);
      CHECK(range != board);
      CHECK(range != clock_range_key(board, !won));
    }
  }
}

TEST_CASE("the fewest plies to a draw: the clock, after a capture where the counts differ") {
  const auto fewest = [](const char* text, int clock_limit) {
    return min_plies_to_draw(position_at_limit(text, clock_limit));
  };
  // Equal counts: the clock's limit from where it stands, after the placements if any.
  CHECK(fewest("5/1x2o/2o2/5/3x1 x", 20) == 20);
  CHECK(fewest("5/1x2o/2o2/5/3x1 x 0 0 5 9", 20) == 15);
  CHECK(fewest("5/5/5/5/5 x 12 12 0 1", 20) == 44);
  // Unequal counts: a capture on the first ply of the movement at the earliest, then the whole
  // clock. This 4 v 3 is a draw in 21 (solved below); its drawing line of 20 plies, which cannot
  // exist, was sought for 4.1 M nodes. At clock 12 the old bound, the clock's 8, was 13 short.
  CHECK(fewest("5/1x1xo/o1o2/5/2x1x o", 20) == 21);
  CHECK(fewest("5/1x1xo/o1o2/5/2x1x o 0 0 12 9", 20) == 21);
  CHECK(fewest("x4/5/5/5/5 x 2 2 0 1", 20) == 25);
  // A side with one counter or none once placed ends the game: drawn at the last placement.
  CHECK(fewest("5/5/5/5/5 x 1 1 0 1", 8) == 2);
  CHECK(fewest("x4/5/5/5/5 o 0 1 0 1", 20) == 1);
  // The bound is met: o captures at once, and the clock runs from 0.
  SolveTable table(16);
  const SolveResult at_clock_12 = core_solve(position_at_limit("5/1x1xo/o1o2/5/2x1x o 0 0 12 9", 20), table);
  CHECK(at_clock_12.outcome == Outcome::draw);
  CHECK(at_clock_12.plies == 21);
  const SolveResult last_placement = core_solve(position_at_limit("x4/5/5/5/5 o 0 1 0 1", 20), table);
  CHECK(last_placement.outcome == Outcome::draw);
  CHECK(last_placement.plies == 1);
}

// "Lost within 2 plies?" straight from the definitions: every move of the side to move lets the
// opponent end the game with its win on the reply (the clock too far from its limit to end it).
bool lost_within_two_plies(const Position& pos) {
  for (Move m : legal_moves(pos)) {
    const Position child = pos.after(m);
    if (child.is_over()) return false;  // our capture ended it: the opponent is down to one
    bool refuted = false;
    for (Move reply : legal_moves(child)) {
      const Position next = child.after(reply);
      refuted = refuted || (next.is_over() && terminal_outcome(next) == Outcome::loss);
    }
    if (!refuted) return false;
  }
  return true;
}

TEST_CASE("\"not lost within 2 plies?\", answered without the table, agrees with the definition") {
  // Few counters for the side to move, so that a single capture can take all of them but one.
  std::mt19937_64 rng(23);
  SolveTable table(16);
  std::atomic<bool> stop{false};
  std::map<std::pair<Movement, CaptureLines>, int> lost_by_variant;
  int lost = 0, checked = 0;
  while (checked < 4000 / scale) {
    Rules rules;
    rules.movement = rng() % 2 ? Movement::slide : Movement::step;
    rules.capture_lines = rng() % 2 ? CaptureLines::orthogonal_and_diagonal : CaptureLines::orthogonal;
    std::string board(25, '1');
    const int ours = 2 + int(rng() % 3), theirs = 2 + int(rng() % 7);
    const char us = rng() % 2 ? 'x' : 'o', them = us == 'x' ? 'o' : 'x';
    for (int placed = 0; placed < ours + theirs;) {
      const std::size_t s = rng() % 25;
      if (board[s] == '1') board[s] = placed++ < ours ? us : them;
    }
    std::string text = board_field(board);
    // Clock limit 20; at least 4 plies of clock left, so both questions below are asked of the board.
    text += std::string(" ") + us + " 0 0 " + std::to_string(rng() % 17) + " 1";
    const auto pos = parse_position(text, rules);
    REQUIRE(pos.has_value());
    if (pos->is_over()) continue;
    INFO(text, " slide ", rules.movement == Movement::slide, " diagonal ", rules.capture_lines != CaptureLines::orthogonal);
    const bool expected = lost_within_two_plies(*pos);
    clear_if_rules_change(table, rules);
    with_variant(rules, [&](auto v) {
      SolveSearch<decltype(v)> search(table, stop);
      const SolveValue two = search.answer(*pos, solve_loss_in(3));  // not lost within 2?
      CHECK((two < solve_loss_in(3)) == expected);
      if (expected) CHECK(two == solve_loss_in(2));  // an upper bound, and no loss comes sooner than 2 plies
      // "Not lost within 3?" is the same question (the side to move cannot lose on its own ply).
      CHECK((search.answer(*pos, solve_loss_in(4)) < solve_loss_in(4)) == expected);
    });
    lost += expected;
    lost_by_variant[{rules.movement, rules.capture_lines}] += expected;
    ++checked;
  }
  MESSAGE(lost, " of ", checked, " positions lost within 2 plies");
  // Every variant has positions where every move loses.
  REQUIRE(lost_by_variant.size() == 4);
  for (const auto& [variant, count] : lost_by_variant) CHECK(count >= 10 / scale);
}

TEST_CASE("the table never changes a proven result: no table, a tiny one, a big one, a growing one") {
  const auto cases = samples(11, 300 / scale, 200000 / scale);
  SolveTable none(0), tiny, big(32), growing;
  tiny.resize_bytes(256);  // four buckets: constant replacement
  REQUIRE(tiny.entry_count() == 16);
  growing.set_growing(true, 1024);  // from 16 buckets to 4096, doubling, as entries fill them
  REQUIRE(growing.resize_bytes(std::size_t{1} << 18));
  for (const Sample& s : cases) {
    INFO(describe(s.pos));
    for (SolveTable* table : {&none, &tiny, &big, &growing}) {
      const SolveResult r = core_solve(s.pos, *table);
      CHECK(r.outcome == s.truth.outcome);
      CHECK(r.plies == s.truth.plies);
    }
  }
}

namespace {

// An entry stored in a SolveTable test: its key and the hash its bucket is chosen by.
struct StoredEntry {
  std::uint64_t key, hash;
};

// Keys of every kind the solver stores, by turn: an exact key, a board's, and a board's clock
// range (whose bucket is its board's, as the search stores it).
StoredEntry random_entry(std::mt19937_64& rng, int i) {
  const std::uint64_t exact = rng() >> 1;  // no bit 63
  const std::uint64_t board = (rng() & boards_mask) | std::uint64_t{1} << 63;
  switch (i % 3) {
    case 0: return {exact, solve_hash(exact)};
    case 1: return {board, solve_hash(board)};
    default: return {clock_range_key(board, i % 2 == 0), solve_hash(board)};
  }
}

std::vector<bool> findable(const SolveTable& table, const std::vector<StoredEntry>& stored) {
  std::vector<bool> found;
  SolveBounds bounds;
  for (const StoredEntry& e : stored) found.push_back(table.probe(e.key, e.hash, bounds));
  return found;
}

}  // namespace

TEST_CASE("a growing table starts small, doubles as it fills, and keeps every entry as it doubles") {
  SolveTable table;
  table.set_growing(true, 256);  // four buckets at first
  REQUIRE(table.resize_bytes(64 * 64));
  CHECK(table.entry_count() == 16);
  CHECK(table.capacity_entries() == 256);
  std::mt19937_64 rng(11);
  std::vector<StoredEntry> stored;
  std::vector<std::size_t> sizes{table.entry_count()};
  for (int i = 0; i < 600; ++i) {
    const std::vector<bool> before = findable(table, stored);
    const std::size_t size_before = table.entry_count();
    const StoredEntry e = random_entry(rng, i);
    table.store(e.key, e.hash, SolveValue(-i % 7), SolveValue(i % 5 + 1), Move{}, std::uint64_t(i) + 1);
    stored.push_back(e);
    SolveBounds bounds;
    REQUIRE(table.probe(e.key, e.hash, bounds));
    CHECK(bounds.lower == SolveValue(-i % 7));
    if (table.entry_count() == size_before) continue;
    // It grew: the store that made it grow took an empty slot, and moving the entries to twice
    // the buckets lost none of them.
    INFO("grown from " << size_before << " entries, at store " << i);
    sizes.push_back(table.entry_count());
    const std::vector<bool> after = findable(table, stored);
    for (std::size_t j = 0; j < before.size(); ++j)
      if (before[j]) CHECK(after[j]);
  }
  CHECK(sizes == std::vector<std::size_t>{16, 32, 64, 128, 256});
  // Cleared, it starts small again, and holds nothing.
  table.clear();
  CHECK(table.entry_count() == 16);
  CHECK(std::none_of(stored.begin(), stored.end(), [&](const StoredEntry& e) {
    SolveBounds bounds;
    return table.probe(e.key, e.hash, bounds);
  }));
}

TEST_CASE("a growing table: a last step short of doubling, and growing turned off, keep it exact") {
  SolveTable table;
  table.set_growing(true, 256);
  REQUIRE(table.resize_bytes(48 * 64));  // 4, 8, 16, 32, then 48 buckets
  std::mt19937_64 rng(12);
  std::vector<StoredEntry> stored;
  // Every entry found holds what was stored for its key (never another's), whatever was lost.
  const auto holds_its_own = [&] {
    SolveBounds bounds;
    for (std::size_t j = 0; j < stored.size(); ++j)
      if (table.probe(stored[j].key, stored[j].hash, bounds) && bounds.lower != SolveValue(j % 9)) return false;
    return true;
  };
  for (int i = 0; i < 400; ++i) {
    const StoredEntry e = random_entry(rng, i);
    table.store(e.key, e.hash, SolveValue(i % 9), solve_win, Move{}, std::uint64_t(i % 13) + 1);
    stored.push_back(e);
  }
  CHECK(table.entry_count() == 192);
  CHECK(holds_its_own());

  // Turned off part way, the whole is in use at once and the entries found stay found.
  table.clear();
  stored.clear();
  for (int i = 0; i < 12; ++i) {
    const StoredEntry e = random_entry(rng, i);
    table.store(e.key, e.hash, SolveValue(i % 9), solve_win, Move{}, 1);
    stored.push_back(e);
  }
  REQUIRE(table.entry_count() < table.capacity_entries());
  const std::vector<bool> before = findable(table, stored);
  table.set_growing(false);
  CHECK(table.entry_count() == table.capacity_entries());
  CHECK(findable(table, stored) == before);
  CHECK(holds_its_own());
}

TEST_CASE("symmetric images share table entries and get the same results") {
  // The table is keyed on one image per class of symmetric positions, with its moves stored in
  // that image's frame: solving a position and then its images on one table reads entries
  // written for another frame, which must give the same value, distance and a good move.
  const auto cases = samples(13, 120 / scale, 200000 / scale);
  for (const Sample& s : cases) {
    SolveTable table(4);
    for (int t = 0; t < symmetry_count; ++t) {
      const Position image = test::symmetric_image(s.pos, t);
      INFO(describe(image), " (image ", t, " of ", describe(s.pos), ")");
      const SolveResult r = core_solve(image, table);
      CHECK(r.outcome == s.truth.outcome);
      CHECK(r.plies == s.truth.plies);
      check_best_move(image, r, s.truth, true);
    }
  }
}

// pos with the clock set to `clock` (a movement-phase position).
Position with_clock(const Position& pos, int clock) {
  std::string text = to_string(pos);
  std::size_t field = 0;
  for (int spaces = 0; spaces < 4; ++spaces) field = text.find(' ', field) + 1;
  const std::size_t end = text.find(' ', field);
  text = text.substr(0, field) + std::to_string(clock) + text.substr(end);
  return *parse_position(text, pos.rules());
}

// The truth about the movement-phase board of pos at every clock from 0 to the limit - 1, if
// minimax settles each within `budget` nodes.
std::optional<std::vector<Truth>> truths_at_every_clock(const Position& pos, std::uint64_t budget) {
  std::vector<Truth> truths;
  for (int c = 0; c < pos.rules().clock_limit; ++c) {
    const auto t = truth(with_clock(pos, c), budget);
    if (!t) return std::nullopt;
    truths.push_back(*t);
  }
  return truths;
}

// Whether an outcome answers the whole-game question "won?" (won) or "not lost?" with yes.
bool answers_yes(Outcome outcome, bool won) { return won ? outcome == Outcome::win : outcome != Outcome::loss; }

// A movement-phase setup: xs counters of x, then os of o, on the first squares of `squares`.
template <class Squares>
test::Setup counters_on(const Squares& squares, int xs, int os, char side) {
  test::Setup setup;
  setup.board.fill('.');
  for (int k = 0; k < xs + os; ++k) setup.board[std::size_t(squares[std::size_t(k)])] = k < xs ? 'x' : 'o';
  setup.side = side;
  return setup;
}

TEST_CASE("every fail-soft answer is a true bound, one board at every clock sharing one table") {
  // answer(pos, beta) returns a lower bound (>= beta) or an upper bound (< beta) of the value,
  // and parents store what it returns: a bound too strong could later give a wrong result even
  // where the answer itself was right. Checked against minimax for every question the deepening
  // and the whole-game probes ask, on one board at every clock, the table shared.
  int answers = 0;
  // False if minimax cannot settle the board at every clock within `budget` nodes.
  const auto check_board = [&](const Position& pos, std::uint64_t budget) {
    const Rules& rules = pos.rules();
    const auto truths = truths_at_every_clock(pos, budget);
    if (!truths) return false;
    std::vector<SolveValue> values;
    for (const Truth& t : *truths)
      values.push_back(t.outcome == Outcome::win    ? solve_win_in(t.plies)
                       : t.outcome == Outcome::loss ? solve_loss_in(t.plies)
                                                    : 0);
    std::vector<SolveValue> betas = {0, 1};
    for (int d = 1; d <= 2 * rules.clock_limit + 2; ++d) {
      betas.push_back(solve_win_in(d));
      betas.push_back(solve_loss_in(d + 1));
    }
    SolveTable table(4);
    std::atomic<bool> stop{false};
    with_variant(rules, [&](auto v) {
      SolveSearch<decltype(v)> search(table, stop);
      for (int round = 0; round < 2; ++round)
        for (int i = 0; i < rules.clock_limit; ++i) {
          const int c = round == 0 ? i : rules.clock_limit - 1 - i;  // up, then down
          const Position p = with_clock(pos, c);
          for (const SolveValue beta : betas) {
            const SolveValue answer = search.answer(p, beta);
            INFO(describe(p), " beta ", beta, " answer ", answer, " value ", values[std::size_t(c)]);
            if (answer >= beta) CHECK(values[std::size_t(c)] >= answer);
            else CHECK(values[std::size_t(c)] <= answer);
            ++answers;
          }
        }
    });
    return true;
  };
  // A board entry's upper bound read with as many plies of clock left as its horizon (where
  // only fewer are safe) gave "at most a win in 6" for this win in 5 at clock 1 and passed every
  // solve in this file; 400 random boards found only it.
  CHECK(check_board(position_at_limit("4o/x3x/5/4x/2o2 x 0 0 1 1", 6), 200000));  // not scaled down
  std::mt19937_64 rng(31);
  for (int boards = 0; boards < 40 / scale;) {
    Rules rules = random_rules(rng);
    rules.clock_limit = 3 + int(rng() % 5);
    const Position pos = random_position(rng, rules);
    if (pos.in_placement() || pos.is_over()) continue;
    boards += check_board(pos, 200000 / scale);
  }
  MESSAGE(answers, " answers checked");
}

TEST_CASE("one board at every clock, one table: entries shared across clocks stay exact") {
  // Questions that look less far ahead than the clock goes are stored per board, for all
  // clocks; solving the same board at each clock, both ways round, on one table checks that
  // nothing proven at one clock leaks wrongly into another.
  std::mt19937_64 rng(23);
  int boards = 0;
  while (boards < 60 / scale) {
    Rules rules = random_rules(rng);
    rules.clock_limit = 3 + int(rng() % 5);
    const Position pos = random_position(rng, rules);
    if (pos.in_placement() || pos.is_over()) continue;
    const auto truths = truths_at_every_clock(pos, 200000 / scale);
    if (!truths) continue;
    ++boards;
    for (bool upwards : {true, false}) {
      SolveTable table(4);
      for (int i = 0; i < rules.clock_limit; ++i) {
        const int c = upwards ? i : rules.clock_limit - 1 - i;
        const Position p = with_clock(pos, c);
        INFO(describe(p), upwards ? " (clocks upwards)" : " (clocks downwards)");
        const SolveResult r = core_solve(p, table);
        CHECK(r.outcome == (*truths)[std::size_t(c)].outcome);
        CHECK(r.plies == (*truths)[std::size_t(c)].plies);
      }
    }
  }
}

// The outcome alone (no distance) by exhaustive minimax with memoisation on the exact key:
// plain, and fast enough for whole clock ranges of sparse boards.
struct MemoOutcome {
  std::unordered_map<std::uint64_t, Outcome> known;
  std::size_t budget = 0;  // give up (exceeded) beyond this many positions

  bool exceeded() const { return known.size() > budget; }

  Outcome operator()(const Position& pos) {
    if (exceeded()) return Outcome::draw;
    if (pos.is_over()) return terminal_outcome(pos);
    if (const auto it = known.find(pos.key()); it != known.end()) return it->second;
    Outcome best = Outcome::loss;
    for (Move m : legal_moves(pos)) {
      const Outcome child = (*this)(pos.after(m));
      if (child == Outcome::loss) {
        best = Outcome::win;
        break;
      }
      if (child == Outcome::draw) best = Outcome::draw;
    }
    known.emplace(pos.key(), best);
    return best;
  }
};

TEST_CASE("whole-game answers are monotone in the clock, the way the solver's table assumes") {
  // solve_keys.hpp, clock_range_key: for one board, "won?" and "not lost?" change at most
  // once as the clock left grows; if the game ending by the clock (counts as they are) answers
  // yes, a yes with r plies left means yes with fewer left; if it answers no, a yes means yes
  // with more left. Checked by exhaustive minimax at every clock of random boards.
  std::mt19937_64 rng(29);
  int boards = 0, changes = 0;
  for (const Rules& base : test::all_rule_sets()) {
    // The step variants (slides make the exhaustive search too long); the limit is set below.
    if (base.clock_limit != 20 || base.slide()) continue;
    Rules rules = base;
    rules.clock_limit = 6;
    for (int i = 0; i < 200 / scale; ++i) {
      // Three or four counters a side on random squares: answers that change with the clock
      // need captures that take a few plies to set up.
      std::array<int, 25> squares;
      for (int s = 0; s < 25; ++s) squares[std::size_t(s)] = s;
      std::shuffle(squares.begin(), squares.end(), rng);
      const test::Setup setup = counters_on(squares, 3 + (i % 3 == 1), 3 + (i % 3 == 2), i % 2 ? 'o' : 'x');
      const auto parsed = parse_position(setup.text(), rules);
      REQUIRE(parsed.has_value());
      MemoOutcome outcome{{}, 100000};
      std::vector<Outcome> by_left(std::size_t(rules.clock_limit) + 1);  // by plies of clock left
      for (int left = 1; left <= rules.clock_limit; ++left)
        by_left[std::size_t(left)] = outcome(with_clock(*parsed, rules.clock_limit - left));
      if (outcome.exceeded()) continue;
      ++boards;
      const int us = parsed->count(parsed->side_to_move()), them = parsed->count(~parsed->side_to_move());
      for (const bool won : {true, false}) {
        const bool clock_end_says_yes = won ? us > them : us >= them;
        const auto yes = [&](int left) { return answers_yes(by_left[std::size_t(left)], won); };
        INFO(describe(*parsed), won ? ": won?" : ": not lost?");
        for (int left = 2; left <= rules.clock_limit; ++left) {
          if (clock_end_says_yes) CHECK((!yes(left) || yes(left - 1)));
          else CHECK((!yes(left - 1) || yes(left)));
          changes += yes(left) != yes(left - 1);
        }
      }
    }
  }
  MESSAGE(boards, " boards, ", changes, " answers that change with the clock");
  // The property is not vacuous on this sample (the scaled-down sample under the sanitizers
  // may hold too few boards whose answers change).
  if (scale == 1) CHECK(changes > 0);
}

TEST_CASE("whole-game answers at every clock of a board, on one table, either way round, agree with minimax") {
  // The clock-range entries (clock_range_key) carry a whole-game answer from one clock of a
  // board to its other clocks. Here "won?" and "not lost?" are asked at each clock in turn on
  // one table, the clock left shrinking, then growing, so that each question can read an entry
  // stored one clock away. A range read one ply too far gives a wrong answer only for a board
  // whose answers change with the clock, and the board asked again here is the root, so the
  // sample holds only such boards. Full solves seldom ask these questions there (the deepening
  // settles small positions first): the full solves of one board at every clock (above) never
  // caught such an error. This test fails if either comparison of the range in table_answer()
  // is off by one (checked).
  std::mt19937_64 rng(31);
  std::atomic<bool> stop{false};
  SolveTable scratch(1);
  int boards = 0, tried = 0;
  while (boards < 48 / scale) {
    Rules rules;
    rules.movement = rng() % 2 ? Movement::slide : Movement::step;
    rules.capture_lines = rng() % 2 ? CaptureLines::orthogonal_and_diagonal : CaptureLines::orthogonal;
    rules.clock_limit = 2 + int(rng() % 7);
    // The counters within a 3 x 4 window: near enough to one another for captures that take a
    // few plies to force, which is what makes an answer change with the clock.
    const int file0 = int(rng() % 3), rank0 = int(rng() % 2);
    std::vector<int> squares;
    for (int r = 0; r < 4; ++r)
      for (int f = 0; f < 3; ++f) squares.push_back((rank0 + r) * 5 + file0 + f);
    std::shuffle(squares.begin(), squares.end(), rng);
    const int xs = 2 + int(rng() % 2), os = 2 + int(rng() % 2);
    const test::Setup setup = counters_on(squares, xs, os, rng() % 2 ? 'o' : 'x');
    const auto parsed = parse_position(setup.text(), rules);
    REQUIRE(parsed.has_value());
    if (parsed->is_over()) continue;
    ++tried;
    // Boards whose outcome changes with the clock, picked by the solver (cheaply: as both
    // answers are monotone in the clock, the outcome changes somewhere if and only if it differs
    // between the first clock and the last); the checks below are against minimax.
    scratch.clear();
    const Outcome first = core_solve(*parsed, scratch, false).outcome;
    scratch.clear();
    if (core_solve(with_clock(*parsed, rules.clock_limit - 1), scratch, false).outcome == first) continue;
    MemoOutcome outcome{{}, 100000};
    std::vector<Outcome> by_clock(std::size_t(rules.clock_limit));
    for (int c = 0; c < rules.clock_limit; ++c) by_clock[std::size_t(c)] = outcome(with_clock(*parsed, c));
    if (outcome.exceeded()) continue;
    const auto yes = [&](int clock, bool won) { return answers_yes(by_clock[std::size_t(clock)], won); };
    ++boards;
    for (const bool upwards : {true, false}) {
      SolveTable table(1);
      with_variant(rules, [&](auto v) {
        SolveSearch<decltype(v)> search(table, stop);
        for (int i = 0; i < rules.clock_limit; ++i) {
          const int c = upwards ? i : rules.clock_limit - 1 - i;
          const Position p = with_clock(*parsed, c);
          INFO(describe(p), upwards ? " (clocks upwards)" : " (clocks downwards)");
          CHECK((search.answer(p, 1) >= 1) == yes(c, true));    // won?
          CHECK((search.answer(p, 0) >= 0) == yes(c, false));   // not lost?
        }
      });
    }
  }
  MESSAGE(boards, " boards whose answers change with the clock, of ", tried);
}

TEST_CASE("outcome only: the same outcome, and the best move keeps it") {
  const auto cases = samples(13, 200 / scale, 200000 / scale);
  SolveTable table(8);
  for (const Sample& s : cases) {
    INFO(describe(s.pos));
    const SolveResult r = core_solve(s.pos, table, false);
    CHECK(r.outcome == s.truth.outcome);
    CHECK(r.plies == -1);  // no distance, even for a game that is over
    check_best_move(s.pos, r, s.truth, false);
  }
}

TEST_CASE("outcome only: a win the deepening proves costs no more than with its distance") {
  // The best move is sought at the bound the deepening proved, whose entries answer: asked as
  // "won?" over the whole game instead, the win in 1 took 16 119 nodes and the win in 15 12x.
  for (const char* fen : {"5/2ox1/2x2/2o2/1x3 x", "5/o3o/1x3/xo3/1o1o1 o", "1x1x1/4x/1x3/ox1ox/2o2 x"}) {
    INFO(fen);
    const Position pos = *parse_position(fen);
    const auto solve = [&](bool distance) {
      SolveOptions options;
      options.hash_mb = 16;
      options.distance = distance;
      const auto result = Solver(options).solve(pos);
      REQUIRE(result.has_value());
      return *result;
    };
    const SolveResult with_distance = solve(true), outcome_only = solve(false);
    CHECK(outcome_only.outcome == Outcome::win);
    CHECK(outcome_only.nodes > 0);
    CHECK(outcome_only.nodes <= with_distance.nodes);
  }
}

TEST_CASE("the best move of a proven value is read off the table, not searched for") {
  // Once the value is proven (the last progress note), what is left is finding a move that
  // keeps it. Tried in the order moves are generated, the children before the one the table
  // holds each needed a proof of their own, here 122 048 nodes for the win in 15 (with or
  // without its distance), 301 570 for the win in 19, 17.3 M for the last win without its
  // distance (16 MiB tables).
  struct Case {
    const char* fen;
    bool distance;
  };
  for (const Case c : {Case{"3x1/1o1xo/1x1ox/5/1x3 x", true}, Case{"3x1/1o1xo/1x1ox/5/1x3 x", false},
                       Case{"5/2x2/xo3/oox1o/1x3 x", true}, Case{"3x1/oo1o1/1o3/1xx2/o4 o", false}}) {
    const std::string name = std::string(c.fen) + (c.distance ? "" : ", outcome only");
    INFO(name);
    const Position pos = *parse_position(c.fen);
    SolveTable table(16);
    const std::atomic<bool> stop{false};
    SolveSearch<Variant<false, false>> search(table, stop);
    std::uint64_t nodes_when_proven = 0;
    SolveResult result;
    REQUIRE(search.solve(pos, c.distance, result, [&](const std::string&) { nodes_when_proven = search.nodes(); }));
    CHECK(result.outcome == Outcome::win);
    CHECK(nodes_when_proven > 1000);
    CHECK(search.nodes() - nodes_when_proven <= 8);
    // The move keeps the win: the child is lost, at the distance one ply shorter.
    REQUIRE(legal_moves(pos).contains(result.best));
    const SolveResult child = core_solve(pos.after(result.best), table, c.distance);
    CHECK(child.outcome == Outcome::loss);
    if (c.distance) CHECK(child.plies == result.plies - 1);
  }
}

TEST_CASE("the textbook baseline, and the one ordering captures first, agree with exhaustive minimax") {
  const auto cases = samples(17, 200 / scale, 200000 / scale);
  for (const Sample& s : cases) {
    INFO(describe(s.pos));
    for (const auto ordering : {bench::BaselineOrdering::table_move_only, bench::BaselineOrdering::captures_first}) {
      bench::BaselineSolver baseline(12, ordering);
      const SolveValue v = *baseline.solve(s.pos);
      CHECK(outcome_of(v) == s.truth.outcome);
      if (v != 0) CHECK(plies_of(v) == s.truth.plies);
    }
  }
}

// How many of the baseline's values checked were wins, draws and losses.
struct OutcomeCounts {
  int wins = 0, draws = 0, losses = 0;
  void add(SolveValue value) {
    const Outcome outcome = outcome_of(value);
    wins += outcome == Outcome::win;
    draws += outcome == Outcome::draw;
    losses += outcome == Outcome::loss;
  }
  int total() const { return wins + draws + losses; }
};

// The baseline's value of pos within `node_limit` nodes, if it gets there; then the solver's
// outcome and distance are checked against it, and its best move: the child's value, one ply
// further away, is the same (counted in `children_checked` where the baseline gets there too).
std::optional<SolveValue> check_against_baseline(const Position& pos, SolveTable& table, std::uint64_t node_limit,
                                                 int& children_checked) {
  bench::BaselineSolver baseline(20);
  const auto value = baseline.solve(pos, std::chrono::steady_clock::time_point::max(), node_limit);
  if (!value) return std::nullopt;
  INFO(describe(pos));
  const SolveResult r = core_solve(pos, table);
  const Outcome expected = outcome_of(*value);
  CHECK(r.outcome == expected);
  if (expected != Outcome::draw) CHECK(r.plies == plies_of(*value));
  REQUIRE(legal_moves(pos).contains(r.best));
  bench::BaselineSolver child_baseline(20);
  const auto forever = std::chrono::steady_clock::time_point::max();
  if (const auto child = child_baseline.solve(pos.after(r.best), forever, node_limit)) {
    CHECK(from_child(*child) == *value);
    ++children_checked;
  }
  return value;
}

TEST_CASE("solver agrees with the textbook baseline on endgames out of minimax's reach") {
  // Two to four counters a side in the movement phase, clock limits up to the default 20: the
  // long deepening, the table across clocks and the cutoff probes far from the horizon, where
  // minimax (the test above) cannot go. The baseline, checked against minimax above, can.
  std::mt19937_64 rng(23);
  SolveTable table(16);
  OutcomeCounts counts;
  int long_results = 0, children_checked = 0;
  while (counts.total() < 24 / scale) {
    Rules rules = random_rules(rng);
    if (rng() % 4) rules.clock_limit = rng() % 2 ? 20 : 8 + int(rng() % 5);
    std::string board(25, '1');
    const int nx = 2 + int(rng() % 3), no = 2 + int(rng() % 3);
    for (int i = 0; i < nx + no; ++i) board[std::size_t(i)] = i < nx ? 'x' : 'o';
    std::shuffle(board.begin(), board.end(), rng);
    std::string text = board_field(board);
    const std::uint64_t clock = rng() % 2 ? 0 : rng() % std::uint64_t(rules.clock_limit);
    text += std::string(rng() % 2 ? " x" : " o") + " 0 0 " + std::to_string(clock) + " 1";
    const Position pos = *parse_position(text, rules);
    if (pos.is_over() || truth(pos, 200000 / scale)) continue;
    const auto value = check_against_baseline(pos, table, std::uint64_t{1} << 20, children_checked);
    if (!value) continue;
    counts.add(*value);
    long_results += outcome_of(*value) != Outcome::draw && plies_of(*value) >= 12;
  }
  MESSAGE("wins ", counts.wins, ", draws ", counts.draws, ", losses ", counts.losses,
          ", wins and losses of 12 plies or more ", long_results, "; best moves checked ", children_checked);
  CHECK(counts.wins > 0);
  CHECK(counts.draws > 0);
  CHECK(counts.losses > 0);
  CHECK(long_results > 0);
  CHECK(children_checked > counts.total() / 2);
}

TEST_CASE("solver agrees with the textbook baseline with many placements still to come") {
  // Four to eleven placements left (minimax's samples have two to five), clock limits 1 to 3 or 12
  // to 20: questions that look 10 plies ahead or more, where a placement node asks the table
  // about every child first (enhanced transposition cutoffs), thousands of times here.
  std::mt19937_64 rng(29);
  SolveTable table(16);
  OutcomeCounts counts;
  int children_checked = 0;
  while (counts.total() < 12 / scale) {
    Rules rules = random_rules(rng);
    const bool long_clock = rng() % 2;
    rules.clock_limit = long_clock ? 12 + int(rng() % 9) : 1 + int(rng() % 3);
    const int in_hand_x = long_clock ? 2 + int(rng() % 2) : 3 + int(rng() % 3);
    const bool x_to_move = rng() % 2;
    const int in_hand_o = x_to_move ? in_hand_x : in_hand_x + 1;
    // Twelve counters a side, on the board or in hand: the hands fill every empty square but c3.
    const int nx = 12 - in_hand_x, on_board = nx + 12 - in_hand_o;
    std::string board(25, '1');
    for (int i = 0; i < on_board; ++i) board[std::size_t(i)] = i < nx ? 'x' : 'o';
    std::shuffle(board.begin(), board.begin() + 24, rng);
    std::swap(board[24], board[12]);  // c3, the centre, stays empty
    std::string text = board_field(board);
    text += std::string(x_to_move ? " x " : " o ") + std::to_string(in_hand_x) + " " + std::to_string(in_hand_o) + " 0 1";
    const auto parsed = parse_position(text, rules);
    REQUIRE_MESSAGE(parsed.has_value(), text);
    if (const auto value = check_against_baseline(*parsed, table, std::uint64_t{1} << 20, children_checked))
      counts.add(*value);
  }
  MESSAGE("wins ", counts.wins, ", draws ", counts.draws, ", losses ", counts.losses, "; best moves checked ",
          children_checked);
  CHECK(children_checked > 0);
  if (scale == 1) {  // the sanitizers' three positions need not cover every outcome
    CHECK(counts.wins > 0);
    CHECK(counts.draws > 0);
    CHECK(counts.losses > 0);
  }
}

TEST_CASE("Solver: threads and the public entry point give the proven results" * doctest::test_suite("threads")) {
  const auto cases = samples(19, 120 / scale, 200000 / scale);
  for (int threads : {1, 2, 3}) {
    Solver solver(SolveOptions{4, threads, true, {}});
    for (const Sample& s : cases) {
      INFO(describe(s.pos), " threads ", threads);
      const auto r = solver.solve(s.pos);
      REQUIRE(r.has_value());
      CHECK(r->outcome == s.truth.outcome);
      CHECK(r->plies == s.truth.plies);
      check_best_move(s.pos, *r, s.truth, true);
      CHECK((r->nodes > 0 || s.pos.is_over()));
    }
  }
}

TEST_CASE("Solver::clear() forgets the table: a solve after it visits what the first did" *
          doctest::test_suite("threads")) {
  const auto pos = parse_position("xo3/5/5/5/3ox x");
  REQUIRE(pos.has_value());
  Solver solver(SolveOptions{2, 1, true, {}});
  const auto first = solver.solve(*pos);
  REQUIRE(first.has_value());
  const auto warm = solver.solve(*pos);
  REQUIRE(warm.has_value());
  CHECK(warm->nodes < first->nodes);  // read off the table
  CHECK(solver.clear());
  const auto cleared = solver.solve(*pos);
  REQUIRE(cleared.has_value());
  CHECK(cleared->outcome == first->outcome);
  CHECK(cleared->plies == first->plies);
  CHECK(cleared->nodes == first->nodes);
}

TEST_CASE("Solver: options are validated" * doctest::test_suite("threads")) {
  Solver solver;
  CHECK_FALSE(solver.set_options(SolveOptions{max_solve_hash_mb + 1, 1, true, {}}).has_value());
  CHECK_FALSE(solver.set_options(SolveOptions{1, 0, true, {}}).has_value());
  CHECK_FALSE(solver.set_options(SolveOptions{1, max_solve_threads + 1, true, {}}).has_value());
  CHECK(solver.set_options(SolveOptions{1, 2, true, {}}).has_value());
  // create() validates the same way, and makes the solver with exactly the options given.
  CHECK_FALSE(Solver::create(SolveOptions{1, 0, true, {}}).has_value());
  CHECK_FALSE(Solver::create(SolveOptions{max_solve_hash_mb + 1, 1, true, {}}).has_value());
  // Announced (a large table), options out of range are refused before "making the N MiB table"
  // is said: nothing is made.
  std::vector<std::string> said;
  const auto say = [&said](const std::string& line) { said.push_back(line); };
  const auto out_of_range = Solver::create(SolveOptions{max_solve_hash_mb + 1, 1, true, say}, true);
  REQUIRE_FALSE(out_of_range.has_value());
  CHECK(out_of_range.error().message == "hash size " + std::to_string(max_solve_hash_mb + 1) +
                                            " MiB is out of range (0-" + std::to_string(max_solve_hash_mb) + ")");
  const auto no_threads = Solver::create(SolveOptions{announced_solve_table_mb, 0, true, say}, true);
  REQUIRE_FALSE(no_threads.has_value());
  CHECK(no_threads.error().message == "thread count 0 is out of range (1-" + std::to_string(max_solve_threads) + ")");
  CHECK(said.empty());
  const auto made = Solver::create(SolveOptions{1, 2, true, {}});
  REQUIRE(made.has_value());
  const auto solved = made.value()->solve(*parse_position("xx3/5/5/5/4o o"));
  REQUIRE(solved.has_value());
  CHECK(solved->plies == 0);
  CHECK(to_string(Outcome::win) == "win");
  CHECK(to_string(Outcome::draw) == "draw");
  CHECK(to_string(Outcome::loss) == "loss");
}

TEST_CASE("Solver: a position that is over has distance 0 and no move" * doctest::test_suite("threads")) {
  Solver solver(SolveOptions{1, 1, true, {}});
  const auto pos = parse_position("xx3/5/5/5/4o o");  // o is down to one counter
  REQUIRE(pos.has_value());
  const auto r = solver.solve(*pos);
  REQUIRE(r.has_value());
  CHECK(r->outcome == Outcome::loss);
  CHECK(r->plies == 0);
  CHECK(r->best.is_null());
}

// call() (a solve or an analysis) running on a thread of its own.
template <class Call>
class OnThread {
 public:
  explicit OnThread(Call call)
      : thread_([this, call] {
          auto value = call();  // (emplacing call() directly draws a false -Wfree-nonheap-object from g++ 12)
          result_.emplace(std::move(value));
          returned_ = true;
        }) {}
  ~OnThread() {
    if (thread_.joinable()) thread_.join();
  }
  bool returned() const { return returned_; }
  // Waits for the call and gives its result.
  auto result() {
    thread_.join();
    REQUIRE(result_.has_value());
    return std::move(*result_);
  }

 private:
  std::optional<std::invoke_result_t<Call&>> result_;
  std::atomic<bool> returned_{false};
  std::thread thread_;  // last: it starts once the others are made
};

// Runs call() (a solve or an analysis of something far out of reach) on another thread, checks
// that it is still running after 50 ms, runs while_running() meanwhile, then stops the solver
// (stop(solver): Solver::stop() unless given) and checks that the call returned promptly and the
// solver is idle. Returns the call's result.
template <class Call, class WhileRunning = void (*)(), class Stop = void (*)(Solver&)>
auto stopped_while_running(Solver& solver, Call call, WhileRunning while_running = [] {},
                           Stop stop = [](Solver& s) { s.stop(); }) {
  OnThread running(call);
  while (!solver.is_solving() && !running.returned()) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK_FALSE(running.returned());
  while_running();
  const auto asked = std::chrono::steady_clock::now();
  stop(solver);
  auto result = running.result();
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count() < 10.0);  // generous
  CHECK_FALSE(solver.is_solving());
  return result;
}

TEST_CASE("Solver: stop() ends a solve promptly, and a stop without a solve is ignored" *
          doctest::test_suite("threads")) {
  for (int threads : {1, 2}) {
    Solver solver(SolveOptions{16, threads, true, {}});
    solver.stop();  // nothing running: ignored
    const auto result = stopped_while_running(solver, [&] { return solver.solve(Position::start()); });
    CHECK_FALSE(result.has_value());
    // The solver is usable again, and the earlier stop does not leak into the next solve.
    const auto pos = parse_position("xo3/5/5/5/3ox x 0 0 19 1");
    REQUIRE(pos.has_value());
    const auto again = solver.solve(*pos);
    REQUIRE(again.has_value());
    CHECK(again->outcome == Outcome::draw);
    CHECK(again->plies == 1);
  }
}

TEST_CASE("Solver: an exception from the progress callback ends the solve and reaches its caller" *
          doctest::test_suite("threads")) {
  // The callback runs on a solver thread, where the exception once ended the process.
  const auto pos = parse_position("1x1x1/4x/1x3/ox1ox/2o2 x");
  REQUIRE(pos.has_value());
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    bool fail = true;
    SolveOptions options{4, threads, true, {}};
    options.progress = [&](const std::string&) {
      if (fail) throw std::runtime_error("progress refused");
    };
    Solver solver(options);
    CHECK_THROWS_WITH_AS(solver.solve(*pos), "progress refused", std::runtime_error);
    CHECK_THROWS_AS(solver.analyze(*pos), std::runtime_error);
    // The solver goes on, and proves what a fresh one does; its progress no longer names a move.
    fail = false;
    std::string first_line;
    options.progress = [&](const std::string& line) {
      if (first_line.empty()) first_line = line;
    };
    REQUIRE(solver.set_options(options).has_value());
    const auto again = solver.solve(*pos), fresh = Solver(SolveOptions{4, 1, true, {}}).solve(*pos);
    REQUIRE((again.has_value() && fresh.has_value()));
    CHECK(std::pair(again->outcome, again->plies) == std::pair(fresh->outcome, fresh->plies));
    CHECK(first_line.rfind("move ", 0) != 0);
    CHECK(!first_line.empty());
  }
}

TEST_CASE("Solver: a stop requested on the token ends a solve or an analysis, even before it begins" *
          doctest::test_suite("threads")) {
  for (int threads : {1, 2}) {
    Solver solver(SolveOptions{16, threads, true, {}});
    std::stop_source early;
    early.request_stop();
    // Before: the start position is far out of reach, yet both return at once. (A stop that was
    // lost fails the check, and Solver::stop() then ends the call instead of hanging the suite.)
    const auto promptly = [&solver](auto call) {
      OnThread running(call);
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
      while (!running.returned() && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
      CHECK(running.returned());
      while (!running.returned()) solver.stop();
      return running.result();
    };
    const auto solved = promptly([&] { return solver.solve(Position::start(), early.get_token()); });
    REQUIRE_FALSE(solved.has_value());
    CHECK(solved.error().message.find("stopped") != std::string::npos);
    CHECK(solved.error().stopped);
    const auto analysed = promptly([&] { return solver.analyze(Position::start(), early.get_token()); });
    REQUIRE_FALSE(analysed.has_value());
    CHECK(analysed.error().message == "the analysis was stopped before every move was proven");
    CHECK(analysed.error().stopped);
    CHECK_FALSE(solver.is_solving());
    // A proof that completes before the searches first look at the stop (every 1024 nodes) is
    // returned, as the C API documents; a position already over has nothing to prove.
    for (const char* small : {"xo3/5/5/5/3ox x 0 0 19 1", "x4/5/5/5/5 o 0 0 0 30"}) {
      INFO(small);
      const auto tiny = parse_position(small);
      REQUIRE(tiny.has_value());
      const auto tiny_solved = solver.solve(*tiny, early.get_token());
      REQUIRE(tiny_solved.has_value());
      const auto plain = Solver(SolveOptions{4, 1, true, {}}).solve(*tiny);
      REQUIRE(plain.has_value());
      CHECK(std::pair(tiny_solved->outcome, tiny_solved->plies) == std::pair(plain->outcome, plain->plies));
    }

    // While it runs, from another thread.
    std::stop_source later;
    const auto result = stopped_while_running(
        solver, [&] { return solver.solve(Position::start(), later.get_token()); }, [] {},
        [&](Solver&) { later.request_stop(); });
    CHECK_FALSE(result.has_value());

    // A token never requested changes nothing; the earlier stops do not leak into this solve.
    std::stop_source unused;
    const auto pos = parse_position("xo3/5/5/5/3ox x 0 0 19 1");
    REQUIRE(pos.has_value());
    const auto again = solver.solve(*pos, unused.get_token());
    REQUIRE(again.has_value());
    CHECK(again->outcome == Outcome::draw);
    CHECK(again->plies == 1);
  }
}

// Where a move's value ranks among the others: the order analyze() promises (best first).
int rank_of(Outcome outcome, int plies) {
  return outcome == Outcome::win ? plies : outcome == Outcome::draw ? 100000 + plies : 300000 - plies;
}

TEST_CASE("result_of(): the first value's outcome, distance and move; every proof's nodes and time") {
  // Values as analyze() orders them, with times a fast proof seldom reaches (the analyses below
  // mostly take 0 ms a move).
  const std::vector<MoveValue> values = {{Move::placement(7), Outcome::win, 5, 1200, 40},
                                         {Move::placement(3), Outcome::draw, 20, 300, 7},
                                         {Move::placement(12), Outcome::loss, 4, 45, 1}};
  const auto whole = result_of(values);
  REQUIRE(whole.has_value());
  CHECK(whole->outcome == Outcome::win);
  CHECK(whole->plies == 5);
  CHECK(whole->best == Move::placement(7));
  CHECK(whole->nodes == 1545);
  CHECK(whole->time_ms == 48);
}

TEST_CASE("Solver::analyze proves every move, best first, and the first is the position's value") {
  const auto cases = samples(29, 80 / scale, 100000 / scale);
  Solver solver(SolveOptions{8, 1, true, {}});
  Solver outcome_only(SolveOptions{8, 1, false, {}});
  int moves_checked = 0, mixed = 0;
  for (const Sample& s : cases) {
    INFO(describe(s.pos));
    const auto values = solver.analyze(s.pos);
    REQUIRE(values.has_value());
    if (s.pos.is_over()) {
      CHECK(values->empty());
      // No values, no result: an error, not a read past the end.
      const auto none = result_of(*values);
      REQUIRE_FALSE(none.has_value());
      CHECK(none.error().message.find("the game is over") != std::string::npos);
      continue;
    }
    const MoveList legal = legal_moves(s.pos);
    REQUIRE(values->size() == legal.size());
    for (std::size_t i = 0; i < values->size(); ++i) {
      const MoveValue& v = (*values)[i];
      INFO("move ", to_string(v.move));
      CHECK(legal.contains(v.move));
      // Each move once, in the order promised.
      for (std::size_t j = 0; j < i; ++j) CHECK((*values)[j].move != v.move);
      if (i > 0) CHECK(rank_of((*values)[i - 1].outcome, (*values)[i - 1].plies) <= rank_of(v.outcome, v.plies));
      // The truth about the position the move leads to, seen from the mover: one ply more.
      const auto child = truth(s.pos.after(v.move), std::uint64_t(1) << 40);
      REQUIRE(child.has_value());
      CHECK(v.outcome == opposite(child->outcome));
      CHECK(v.plies == child->plies + 1);
      ++moves_checked;
    }
    CHECK(values->front().outcome == s.truth.outcome);
    CHECK(values->front().plies == s.truth.plies);
    // result_of(): the best move's value, and the proofs' nodes and times summed.
    const auto whole = result_of(*values);
    REQUIRE(whole.has_value());
    CHECK(whole->outcome == s.truth.outcome);
    CHECK(whole->plies == s.truth.plies);
    CHECK(whole->best == values->front().move);
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    for (const MoveValue& v : *values) {
      nodes += v.nodes;
      time_ms += v.time_ms;
    }
    CHECK(whole->nodes == nodes);
    CHECK(whole->time_ms == time_ms);
    mixed += values->front().outcome != values->back().outcome;
    // Without distances: the same outcomes, no plies.
    const auto outcomes = outcome_only.analyze(s.pos);
    REQUIRE(outcomes.has_value());
    REQUIRE(outcomes->size() == values->size());
    for (const MoveValue& v : *outcomes) {
      CHECK(v.plies == -1);
      const auto same = std::find_if(values->begin(), values->end(), [&](const MoveValue& w) { return w.move == v.move; });
      REQUIRE(same != values->end());
      CHECK(v.outcome == same->outcome);
    }
  }
  MESSAGE(moves_checked, " moves checked; ", mixed, " positions with moves of different outcomes");
  CHECK(mixed > 0);
  // A game that is over has no move values (above, if the samples hold one; here in any case).
  const auto over = parse_position("x4/1o3/2x2/5/5 x");
  REQUIRE(over.has_value());
  REQUIRE(over->is_over());
  const auto none = solver.analyze(*over);
  REQUIRE(none.has_value());
  CHECK(none->empty());
  CHECK_FALSE(result_of(*none).has_value());
}

TEST_CASE("Solver::analyze: stop() ends it promptly; a solve running refuses it" * doctest::test_suite("threads")) {
  Solver solver(SolveOptions{16, 1, true, {}});
  const auto result = stopped_while_running(solver, [&] { return solver.analyze(Position::start()); }, [&] {
    // One at a time: refused, an error and not a stop.
    const auto second_analysis = solver.analyze(Position::start());
    REQUIRE_FALSE(second_analysis.has_value());
    CHECK_FALSE(second_analysis.error().stopped);
    const auto second_solve = solver.solve(Position::start());
    REQUIRE_FALSE(second_solve.has_value());
    CHECK_FALSE(second_solve.error().stopped);
    CHECK_FALSE(solver.clear());  // nor is the table cleared under it
    const auto resized = solver.set_options(SolveOptions{32, 1, true, {}});  // nor resized
    REQUIRE_FALSE(resized.has_value());
    CHECK(resized.error().message == "cannot change the options while solving");
  });
  REQUIRE_FALSE(result.has_value());
  CHECK(result.error().message == "the analysis was stopped before every move was proven");
  CHECK(result.error().stopped);
  // Usable again: a position where every move is proven at once.
  const auto pos = parse_position("xo3/5/5/5/3ox x 0 0 19 1");  // any move ends the game drawn
  REQUIRE(pos.has_value());
  const auto again = solver.analyze(*pos);
  REQUIRE(again.has_value());
  CHECK(again->size() == legal_moves(*pos).size());
  for (const MoveValue& v : *again) CHECK((v.outcome == Outcome::draw && v.plies == 1));
}

TEST_CASE("deep lines: a search short of stack stops and says so; the Solver's own threads have enough" *
          doctest::test_suite("threads")) {
  // A 2 v 2 draw at clock limit 40: proving it follows lines of 40 plies and more, a few KiB of
  // stack each.
  Rules rules;
  rules.clock_limit = 40;
  const auto draw = parse_position("5/1x2o/2o2/5/3x1 x", rules);
  REQUIRE(draw.has_value());
  SolveTable table(16);
  std::atomic<bool> stop{false};
  SolveResult result;
  SolveSearch<Variant<false, false>> short_of_stack(table, stop, 0, {}, std::size_t{64} << 10);
  CHECK_FALSE(short_of_stack.solve(*draw, true, result));
  CHECK(short_of_stack.too_deep());
  SolveSearch<Variant<false, false>> search(table, stop);  // the default 4 MiB
  REQUIRE(search.solve(*draw, true, result));
  CHECK_FALSE(search.too_deep());
  CHECK(result.outcome == Outcome::draw);
  CHECK(result.plies == 40);

  // At clock limit 255, with 6 v 6 counters, the solver's lines pass 1 700 plies within 50 ms and
  // 2 000 within 5 s (in a release build: 8 MiB of stack, about all a thread usually has; 12 MiB
  // within a second when a node kept room for 128 moves). This used to crash `moon solve`.
  rules.clock_limit = 255;
  const auto deep = parse_position("xx1xx/o3o/5/o3o/xo1ox x", rules);
  REQUIRE(deep.has_value());
  {
    // Given 1 MiB, a search stops there, too deep, and does not overflow (should it not stop,
    // the timer stops it after 60 s and the test fails).
    std::atomic<bool> stop_deep{false};
    std::thread timer([&] {
      for (int i = 0; i < 6000 && !stop_deep.load(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
      stop_deep = true;
    });
    SolveSearch<Variant<false, false>> limited(table, stop_deep, 0, {}, std::size_t{1} << 20);
    const bool solved = limited.solve(*deep, true, result);
    const bool too_deep = limited.too_deep();
    stop_deep = true;
    timer.join();
    CHECK_FALSE(solved);
    CHECK(too_deep);
  }
  // On the solver's threads it runs until stopped, with one thread or two.
  for (int threads : {1, 2}) {
    Solver solver(SolveOptions{16, threads, true, {}});
    const auto stopped = stopped_while_running(solver, [&] { return solver.solve(*deep); },
                                               [] { std::this_thread::sleep_for(std::chrono::milliseconds(1500)); });
    REQUIRE_FALSE(stopped.has_value());
    CHECK(stopped.error().message == "the solve was stopped before the proof was complete");
    CHECK(stopped.error().stopped);
  }
}

#ifndef MOON_SANITIZE_BUILD  // the sanitizers' shadow memory does not fit in the limit
TEST_CASE("Solver::create() short of address space: the table first, the threads' stacks fitted to what is left" *
          doctest::test_suite("threads")) {
  // 1100 MiB more than the process has: four stacks of 256 MiB fit (with the thread pool's
  // headroom of 64 MiB), but not beside a 128 MiB table. Made after the threads, the table was
  // refused, where a smaller limit, which halved the stacks, gave it.
  const test::AddressSpaceGuard guard(1100);
  const auto solver = Solver::create(SolveOptions{128, 4, true, {}});
  REQUIRE(solver.has_value());
  const auto pos = parse_position("1x1x1/4x/1x3/ox1ox/2o2 x");
  REQUIRE(pos.has_value());
  const auto r = (*solver)->solve(*pos);
  REQUIRE(r.has_value());
  CHECK(r->outcome == Outcome::win);
  CHECK(r->plies == 15);
}

TEST_CASE("Solver::set_options(): threads refused after a new table: the error, the table back at its old size" *
          doctest::test_suite("threads")) {
  const auto pos = parse_position("xo3/5/5/5/3ox x");
  REQUIRE(pos.has_value());
  const auto on_empty_table = Solver(SolveOptions{1, 1, true, {}}).solve(*pos);
  REQUIRE(on_empty_table.has_value());
  Solver solver(SolveOptions{1, 1, true, {}});
  REQUIRE(solver.solve(*pos).has_value());
  {
    const test::AddressSpaceGuard guard(256);  // the 2 MiB table fits; 200 stacks of 16 MiB do not
    const auto refused = solver.set_options(SolveOptions{2, 200, true, {}});
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message.rfind("cannot make 200 solver threads: ", 0) == 0);
    CHECK_FALSE(refused.error().stopped);
  }
  // Still one thread, on an empty table of 1 MiB: what a new solver of the old options visits.
  const auto r = solver.solve(*pos);
  REQUIRE(r.has_value());
  CHECK(r->outcome == on_empty_table->outcome);
  CHECK(r->plies == on_empty_table->plies);
  CHECK(r->nodes == on_empty_table->nodes);
}
#endif

TEST_CASE("a hash size above the machine's memory is refused; the table and the options stay" *
          doctest::skip(test::over_memory_mb() == 0)) {
  const std::size_t over = test::over_memory_mb();
  const test::AddressSpaceGuard guard;  // were it not refused, the allocation would fail, not kill
  SolveTable table(1);
  const std::size_t entries = table.entry_count();
  table.store(42, 4242, -3, 5, Move::placement(3), 1000);
  const auto refused = table.resize(over);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message == test::over_memory_message(over));
  CHECK(table.entry_count() == entries);
  SolveBounds bounds;
  REQUIRE(table.probe(42, 4242, bounds));
  CHECK(bounds.lower == -3);
  CHECK(bounds.upper == 5);

  // The Solver refuses it too, changing nothing: a solve after the refusal visits what a solve
  // after no refusal visits (the warm table), while one after a real change of size (a fresh
  // table) visits more.
  const auto pos = parse_position("xo3/5/5/5/3ox x");
  REQUIRE(pos.has_value());
  auto second_solve = [&](std::optional<SolveOptions> change) {
    Solver solver(SolveOptions{2, 1, true, {}});
    const auto first = solver.solve(*pos);
    REQUIRE(first.has_value());
    if (change) {
      const auto ok = solver.set_options(*change);
      if (change->hash_mb == over) {
        REQUIRE_FALSE(ok.has_value());
        CHECK(ok.error().message == test::over_memory_message(over));
      } else {
        REQUIRE(ok.has_value());
      }
    }
    const auto r = solver.solve(*pos);
    REQUIRE(r.has_value());
    CHECK(r->outcome == first->outcome);
    CHECK(r->plies == first->plies);
    return r->nodes;
  };
  const std::uint64_t unchanged = second_solve(std::nullopt);
  CHECK(second_solve(SolveOptions{over, 2, false, {}}) == unchanged);  // nor threads, nor distance
  CHECK(second_solve(SolveOptions{4, 1, true, {}}) > unchanged);

  // Constructed with it, a Solver goes without a table (the same value) and says why on set_options.
  const auto late = parse_position("xo3/5/5/5/3ox x 0 0 10 1");  // fewer plies left: fast without a table
  REQUIRE(late.has_value());
  Solver without(SolveOptions{over, 1, true, {}});
  const auto r = without.solve(*late);
  REQUIRE(r.has_value());
  const auto with_table = Solver(SolveOptions{2, 1, true, {}}).solve(*late);
  REQUIRE(with_table.has_value());
  CHECK(r->outcome == with_table->outcome);
  CHECK(r->plies == with_table->plies);
  CHECK(r->nodes > with_table->nodes);  // no table to find transpositions in
  const auto ok = without.set_options(SolveOptions{over, 1, true, {}});
  REQUIRE_FALSE(ok.has_value());
  CHECK(ok.error().message == test::over_memory_message(over));
  // Solver::create() says it at once instead.
  const auto not_made = Solver::create(SolveOptions{over, 1, true, {}});
  REQUIRE_FALSE(not_made.has_value());
  CHECK(not_made.error().message == test::over_memory_message(over));
}
