// The search commands of the built `moon` program: analyze, bench, play (scripted), match.
#include <doctest/doctest.h>


#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/elo.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "run_moon.hpp"

using namespace moon;

namespace {

using test::lines;
using test::Run;
using test::run_moon;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("moon analyze: a line per iteration, then a legal bestmove") {
  const Run r = run_moon("analyze --fen 'ooxxx/oo1xx/4x/x1o1x/xoooo x 3 3 0 10' --depth 4");
  CHECK(r.status == 0);
  const auto out = lines(r.out);
  REQUIRE(out.size() == 5);
  for (int d = 1; d <= 4; ++d) {
    CHECK(out[std::size_t(d - 1)].rfind("depth " + std::to_string(d) + " score ", 0) == 0);
    CHECK(contains(out[std::size_t(d - 1)], " nodes "));
    CHECK(contains(out[std::size_t(d - 1)], " nps "));
    CHECK(contains(out[std::size_t(d - 1)], " pv "));
  }
  REQUIRE(out.back().rfind("bestmove ", 0) == 0);
  const Position pos = *parse_position("ooxxx/oo1xx/4x/x1o1x/xoooo x 3 3 0 10");
  const auto best = parse_move(out.back().substr(9), pos);
  CHECK(best.has_value());

  const Run won = run_moon("analyze --fen '4o/5/5/2x2/xo3 x' --depth 5");
  CHECK(contains(won.out, "score win 1 "));
  CHECK(lines(won.out).back() == "bestmove c2c1");
  const Run over = run_moon("analyze --fen '4o/5/5/2x2/x4 o' --depth 2");
  CHECK(over.status == 0);
  CHECK(lines(over.out).back() == "bestmove none");
  CHECK(run_moon("analyze --depth 0").status == 2);
  CHECK(run_moon("analyze --hash 0").status == 2);
  CHECK(run_moon("analyze --frobnicate").status == 2);
}

TEST_CASE("moon bench: the same node signature on every run") {
  const Run a = run_moon("bench --depth-offset -6");
  const Run b = run_moon("bench --depth-offset -6");
  CHECK(a.status == 0);
  std::string sa, sb;
  for (const auto& l : lines(a.out))
    if (l.rfind("Nodes searched: ", 0) == 0) sa = l;
  for (const auto& l : lines(b.out))
    if (l.rfind("Nodes searched: ", 0) == 0) sb = l;
  CHECK(!sa.empty());
  CHECK(sa == sb);
  CHECK(run_moon("bench --engine nonsense").status == 2);
}

TEST_CASE("moon play: scripted input, illegal input explained, undo, the result at the end") {
  const Run r = run_moon("play --depth 2", "zz\nb4\nundo\nc2\nquit\n");
  CHECK(r.status == 0);
  CHECK(contains(r.out, "illegal: "));
  CHECK(contains(r.out, "you play b4"));
  CHECK(contains(r.out, "moon plays "));
  CHECK(contains(r.out, "move taken back"));
  CHECK(contains(r.out, "you play c2"));
  CHECK(contains(r.out, "game abandoned"));

  const Run eof = run_moon("play --depth 2", "");
  CHECK(eof.status == 0);
  CHECK(contains(eof.out, "end of input"));

  // x (you) captures the second-to-last o counter: the game ends at once.
  const Run win = run_moon("play --fen '4o/5/5/2x2/xo3 x' --depth 2", "hint\nc2c1\n");
  CHECK(win.status == 0);
  CHECK(contains(win.out, "hint: c2c1"));
  CHECK(contains(win.out, "you play c2c1 capturing b1"));
  CHECK(contains(win.out, "game over: x wins"));
  CHECK(contains(win.out, "you win"));

  // Playing o against the engine: moon (x) wins in one.
  const Run lose = run_moon("play --fen '4o/5/5/2x2/xo3 x' --side o --depth 2", "");
  CHECK(contains(lose.out, "moon plays c2c1 capturing b1"));
  CHECK(contains(lose.out, "moon wins"));
  CHECK(run_moon("play --side z").status == 2);
}

TEST_CASE("moon match: W/D/L with an Elo estimate") {
  const Run r = run_moon("match --games 2 --depth 2 --opening-plies 2 --a full --b plain:+alphabeta");
  CHECK(r.status == 0);
  CHECK(contains(r.out, "game 1/2"));
  CHECK(contains(r.out, "game 2/2"));
  CHECK(contains(r.out, "Games: 2"));
  CHECK(contains(r.out, "Elo difference (A - B): "));
  CHECK(run_moon("match --a nonsense").status == 2);
  CHECK(run_moon("match --a full:-nothing").status == 2);
  CHECK(run_moon("match --a-eval mobility").status == 2);
}

TEST_CASE("Elo estimate of a match result") {
  const cli::EloEstimate even = cli::estimate_elo(10, 0, 10);
  CHECK(even.score == doctest::Approx(0.5));
  CHECK(even.elo == doctest::Approx(0.0));
  CHECK(even.margin > 0);
  // 75%: 400 * log10(3) = 190.85 Elo.
  const cli::EloEstimate three_to_one = cli::estimate_elo(30, 20, 10);
  CHECK(three_to_one.score == doctest::Approx(40.0 / 60));
  CHECK(cli::estimate_elo(75, 0, 25).elo == doctest::Approx(190.85).epsilon(0.001));
  // More games, narrower margin.
  CHECK(cli::estimate_elo(300, 200, 100).margin < three_to_one.margin);
  CHECK(std::isinf(cli::estimate_elo(5, 0, 0).elo));
}
