// The main search thread's line for a proven win: where the table leads it astray, it is mended.
// A white-box test: it gives a search::Worker a table set up by hand.
#include <doctest/doctest.h>

#include <optional>
#include <random>
#include <vector>

#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/solver.hpp"
#include "moon/transposition_table.hpp"
#include "random_positions.hpp"
#include "search/worker.hpp"

using namespace moon;

namespace {

// A win in n for the side to move, its line as far as the winner's second turn, and there a
// move that wins, but more slowly than n - 2. (The exact solver's values of every move; its
// agreement with minimax is solver_test's.)
struct SlowTurn {
  Position root;
  int n = 0;
  Move first, reply, slow;
};

// The root has one fastest move, so that the line reported is the one set up.
std::optional<SlowTurn> slow_turn(Solver& solver, const Position& root) {
  const auto values = solver.analyze(root);
  REQUIRE(values.has_value());
  if (values->empty() || values->front().outcome != Outcome::win || values->front().plies < 5) return std::nullopt;
  SlowTurn s{root, values->front().plies, values->front().move, {}, {}};
  if (values->size() > 1 && (*values)[1].outcome == Outcome::win && (*values)[1].plies == s.n) return std::nullopt;
  const Position after_first = root.after(s.first);
  const auto replies = solver.analyze(after_first);  // the longest defence first
  REQUIRE(replies.has_value());
  s.reply = replies->front().move;
  const auto turn = solver.analyze(after_first.after(s.reply));
  REQUIRE(turn.has_value());
  for (const MoveValue& v : *turn)
    if (v.outcome == Outcome::win && v.plies > s.n - 2) s.slow = v.move;
  if (s.slow.is_null()) return std::nullopt;
  return s;
}

}  // namespace

TEST_CASE("a win's line is mended where the table's move for it wins, but more slowly") {
  // Where the search was cut by a table entry, the main thread's line for a proven win in n
  // follows the table's moves, and a move there need not keep the distance (one stored by a
  // null-window search proves only a bound). Here the table holds the root's move and the reply,
  // then, at the winner's next turn, a move that wins more slowly: the line must still be n
  // moves that end the game with the win, that move replaced.
  std::mt19937 rng(31);
  Rules rules;
  rules.clock_limit = 8;
  Solver solver(SolveOptions{16, 1, true, {}});
  int mended = 0;
  for (int tries = 0; tries < 2000 && mended < 3; ++tries) {
    const auto setup = parse_position(test::random_setup(rng, rules, false, 0).text(), rules);
    if (!setup || setup->is_over()) continue;
    const auto s = slow_turn(solver, *setup);
    if (!s) continue;
    INFO(to_string(s->root), " win in ", s->n, ": ", to_string(s->first), " ", to_string(s->reply), ", then not ",
         to_string(s->slow));
    search::SharedState shared;
    REQUIRE(shared.table.resize(TranspositionTable::min_mb));
    shared.start = search::Clock::now();
    const auto store = [&](const Position& pos, Move m, Score score) {
      shared.table.store(pos.key(), pos.hash(), m, score, 100, Bound::exact, true);
    };
    const Position after_first = s->root.after(s->first);
    store(s->root, s->first, win_in(s->n));
    store(after_first, s->reply, loss_in(s->n - 1));
    store(after_first.after(s->reply), s->slow, win_in(s->n - 2));
    search::Worker worker(0, shared);
    const search::Iteration it = worker.run(s->root, s->n, {});
    CHECK(it.score == win_in(s->n));
    REQUIRE(!it.lines.empty());
    const std::vector<Move>& pv = it.lines.front().pv;
    REQUIRE(int(pv.size()) == s->n);
    CHECK(pv[0] == s->first);
    CHECK(pv[1] == s->reply);
    CHECK(pv[2] != s->slow);
    Position end = s->root;
    for (Move m : pv) {
      REQUIRE(legal_moves(end).contains(m));
      end.play(m);
    }
    CHECK(end.is_over());
    CHECK(end.result() == (s->root.side_to_move() == x ? Result::x_wins : Result::o_wins));
    ++mended;
  }
  CHECK(mended == 3);
}
