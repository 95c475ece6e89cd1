// The main search thread's line for a proven win: where the table leads it astray, it is mended.
// A white-box test: it gives a search::Worker a table set up by hand.
#include <doctest/doctest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "line_checks.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/solver.hpp"
#include "moon/transposition_table.hpp"
#include "random_positions.hpp"
#include "search/worker.hpp"

using namespace moon;

namespace {

// A win in n for the side to move, and a line for the table that leads the search astray: the
// root's one fastest move, the longest reply, then at the winner's second turn a move that wins,
// but more slowly than n - 2. With `to_the_end`, the line goes on with a blunder in reply that
// brings the end back to exactly n plies, then best play to the end: a line that ends the game
// after its distance without being best play. (The exact solver's values; its agreement with
// minimax is solver_test's.)
struct AstrayLine {
  Position root;
  int n = 0;
  std::vector<Move> moves;  // the slower win is moves[2]
};

std::optional<AstrayLine> astray_line(Solver& solver, const Position& root, bool to_the_end) {
  const auto values = solver.analyze(root);
  REQUIRE(values.has_value());
  if (values->empty() || values->front().outcome != Outcome::win || values->front().plies < 5) return std::nullopt;
  const int n = values->front().plies;
  // One fastest move, so that the line reported is the one set up.
  if (values->size() > 1 && (*values)[1].outcome == Outcome::win && (*values)[1].plies == n) return std::nullopt;
  const Move first = values->front().move;
  const Position after_first = root.after(first);
  const auto replies = solver.analyze(after_first);  // the longest defence first
  REQUIRE(replies.has_value());
  const Move reply = replies->front().move;
  const Position turn = after_first.after(reply);
  const auto turn_values = solver.analyze(turn);
  REQUIRE(turn_values.has_value());
  for (const MoveValue& slow : *turn_values) {
    if (slow.outcome != Outcome::win || slow.plies <= n - 2) continue;
    if (!to_the_end) return AstrayLine{root, n, {first, reply, slow.move}};
    // The loser's blunder: a loss in n - 3 plies counting itself, the end after n in all.
    const Position after_slow = turn.after(slow.move);
    const auto blunders = solver.analyze(after_slow);
    REQUIRE(blunders.has_value());
    for (const MoveValue& blunder : *blunders) {
      if (blunder.outcome != Outcome::loss || blunder.plies != n - 3) continue;
      AstrayLine line{root, n, {first, reply, slow.move, blunder.move}};
      Position pos = after_slow.after(blunder.move);
      while (!pos.is_over()) {
        const auto best = solver.solve(pos);
        REQUIRE(best.has_value());
        line.moves.push_back(best->best);
        pos.play(best->best);
      }
      REQUIRE(int(line.moves.size()) == n);
      return line;
    }
  }
  return std::nullopt;
}

std::string line_text(const std::vector<Move>& moves) {
  std::string text;
  for (Move m : moves) {
    if (!text.empty()) text += ' ';
    text += to_string(m);
  }
  return text;
}

// The search's score of a position the solver has proven: a win or loss in its plies.
Score proven_score(Solver& solver, const Position& pos) {
  const auto value = solver.solve(pos);
  REQUIRE(value.has_value());
  REQUIRE(value->outcome != Outcome::draw);
  return value->outcome == Outcome::win ? win_in(value->plies) : loss_in(value->plies);
}

}  // namespace

TEST_CASE("a win's line is mended where the table's move for it wins, but more slowly") {
  // Where the search was cut by a table entry, the main thread's line for a proven win in n
  // follows the table's moves, and a move there need not keep the distance (one stored by a
  // null-window search proves only a bound). Here the table holds the root's move and the reply,
  // then, at the winner's next turn, a move that wins more slowly: the line must still be n
  // moves that end the game with the win, that move replaced. Also when the table's line goes
  // on to end the game after exactly n moves (a blunder in reply to the slower win): the line
  // is to be best play.
  std::mt19937 rng(31);
  Rules rules;
  rules.clock_limit = 8;
  Solver solver(SolveOptions{16, 1, true, {}});
  for (const bool to_the_end : {false, true}) {
    CAPTURE(to_the_end);
    int mended = 0;
    for (int tries = 0; tries < 4000 && mended < 3; ++tries) {
      const auto setup = parse_position(test::random_setup(rng, rules, false, 0).text(), rules);
      if (!setup || setup->is_over()) continue;
      const auto astray = astray_line(solver, *setup, to_the_end);
      if (!astray) continue;
      const int n = astray->n;
      INFO(to_string(astray->root), " win in ", n, ", the table's line: ", line_text(astray->moves));
      search::SharedState shared;
      REQUIRE(shared.table.resize(TranspositionTable::min_mb));
      shared.start = search::Clock::now();
      Position pos = astray->root;
      for (Move m : astray->moves) {
        shared.table.store(pos.key(), pos.hash(), m, proven_score(solver, pos), 100, Bound::exact, true);
        pos.play(m);
      }
      search::Worker worker(0, shared);
      const search::Iteration it = worker.run(astray->root, n, {});
      CHECK(it.score == win_in(n));
      REQUIRE(!it.lines.empty());
      const std::vector<Move>& pv = it.lines.front().pv;
      REQUIRE(int(pv.size()) == n);
      CHECK(pv[0] == astray->moves[0]);
      CHECK(pv[1] == astray->moves[1]);
      CHECK(pv[2] != astray->moves[2]);
      test::check_line_ends_game(astray->root, pv, n, true);
      ++mended;
    }
    CHECK(mended == 3);
  }
}
