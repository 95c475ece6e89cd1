// The search commands of the built `moon` program: analyze, bench, play (scripted), solve, match.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "child_process.hpp"
#include "cli/elo.hpp"
#include "machine_memory.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "run_moon.hpp"

using namespace moon;

namespace {

using test::lines;
using test::Run;
using test::run_moon;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// `moon <args>` is refused as bad input: status 2, nothing on standard output, and standard error
// gives `reason`.
void check_refused(const std::string& args, const std::string& reason) {
  INFO("moon ", args);
  const Run run = run_moon(args);
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  INFO("stderr: ", run.err);
  CHECK(contains(run.err, reason));
}

}  // namespace

TEST_CASE("moon analyze: a line per iteration, then a legal bestmove") {
  const Run r = run_moon("analyze --fen 'ooxxx/oo1xx/4x/x1o1x/xoooo x 3 3 0 10' --depth 4");
  CHECK(r.status == 0);
  const auto out = lines(r.out);
  REQUIRE(out.size() == 6);
  for (int d = 1; d <= 4; ++d) {
    CHECK(out[std::size_t(d - 1)].rfind("depth " + std::to_string(d) + " score ", 0) == 0);
    CHECK(contains(out[std::size_t(d - 1)], " nodes "));
    CHECK(contains(out[std::size_t(d - 1)], " nps "));
    CHECK(contains(out[std::size_t(d - 1)], " pv "));
  }
  // The whole search's totals: at least the nodes of its last iteration.
  const auto nodes_after = [](const std::string& line, std::string_view from) {
    const auto at = line.find(from);
    return at == std::string::npos ? -1LL : std::stoll(line.substr(at + from.size()));
  };
  CHECK(out[4].rfind("total nodes ", 0) == 0);
  CHECK(contains(out[4], " nps "));
  CHECK(contains(out[4], " time "));
  CHECK(nodes_after(out[4], "total nodes ") >= nodes_after(out[3], " nodes "));
  CHECK(nodes_after(out[3], " nodes ") > 0);
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
  check_refused("analyze --depth 0", "moon analyze: --depth must be a whole number from 1 to 100, not '0'");
  check_refused("analyze --hash 0", "moon analyze: --hash must be a whole number from 1 to 65536, not '0'");
  check_refused("analyze --frobnicate", "moon analyze: unknown option '--frobnicate'");
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
  // A line per position on standard error, with its rule options.
  CHECK(contains(a.err, "position 1/18: 5/5/5/5/5 x 12 12 0 1  depth "));
  CHECK(contains(a.err, "position 16/18: oxoox/x2xx/xox1x/o1oxx/oooox o 0 0 9 18  --slide --diagonal  depth "));
  CHECK(contains(a.err, "position 18/18: 1ox2/o2x1/o1x1x/2ox1/3ox o 0 0 28 30  --clock-limit 40  depth "));
  CHECK(!contains(a.err, "not a signature"));
  // With threads the count is no signature, and the program says so (standard output unchanged).
  const Run threaded = run_moon("bench --depth-offset -6 --threads 2");
  CHECK(threaded.status == 0);
  CHECK(contains(threaded.out, "Nodes searched: "));
  CHECK(contains(threaded.err, "note: with 2 threads the node count varies from run to run: it is not a signature\n"));
  check_refused("bench --engine nonsense",
                "moon bench: engine settings must start with 'full' or 'plain', not 'nonsense'");
  check_refused("bench --depth-offset -9", "--depth-offset must be a whole number from -8 to 8, not '-9'");
}

TEST_CASE("moon bench: settings without alpha-beta at a depth that takes long are warned about before the run") {
  // At offset 0 'plain' would run for months: stopped after its first second, the warning is there.
  const Run slow = run_moon("bench --engine plain", "", "timeout -s INT 1 ");
  CHECK(slow.status != 0);
  CHECK(contains(slow.err, "note: without alpha-beta the work grows about eightfold a ply: at --depth-offset 0 this "
                           "bench may run for days or more (--depth-offset -8 takes about a second); Ctrl-C stops it\n"));
  const Run quick = run_moon("bench --engine plain --depth-offset -8");
  CHECK(quick.status == 0);
  CHECK(contains(quick.out, "Nodes searched: "));
  CHECK(!contains(quick.err, "note:"));
}

TEST_CASE("moon analyze and play's hint give a forced move's value; the engine plays its forced pass at once") {
  // x is blocked (its only move is the pass) and loses in 4. A move to play needs no search,
  // but an analysis is asked for the value: the default second is not cut short at depth 1.
  const Run analysed = run_moon("analyze --fen '3ox/4o/5/o4/xo3 x 0 0 0 1'");
  CHECK(analysed.status == 0);
  CHECK(contains(analysed.out, " score loss 4 "));
  CHECK(contains(analysed.out, "bestmove 0000\n"));
  const Run played = run_moon("play --side o --fen '3ox/4o/5/o4/xo3 x 0 0 0 1'", "hint\nquit\n");
  CHECK(played.status == 0);
  CHECK(contains(played.out, "moon plays 0000 (blocked: its only move is the pass)  (score cp "));
  CHECK(contains(played.out, ", depth 1)\n"));
  CHECK(contains(played.out, "hint: a2a3  (score win 3; then "));
}

TEST_CASE("moon play after MOVEs: the game goes on from there, and they are part of it") {
  // After x's b4 it is o's turn: the engine's, with the human playing x.
  const Run r = run_moon("play --depth 1 b4", "quit\n");
  CHECK(r.status == 0);
  CHECK(contains(r.out, "x to move, placement phase; in hand x 11, o 11; clock 0/20; move 2\n"));
  CHECK(contains(r.out, "moon plays "));
  CHECK(contains(r.out, "replay: moon show --fen '5/5/5/5/5 x 12 12 0 1' b4 "));
  // undo takes back the engine's reply and the MOVE before it: back to the start.
  const Run undone = run_moon("play --depth 1 --fen '4x/5/xo2o/3x1/2x2 x' c1c2", "undo\nquit\n");
  CHECK(undone.status == 0);
  CHECK(contains(undone.out, "move taken back"));
  CHECK(contains(undone.out, "x to move, movement phase; clock 0/20; move 1\n"));
  check_refused("play b4 c3", "moon play: move 2: 'c3' is illegal: no counter may be placed on c3");
}

TEST_CASE("moon analyze and play say when they make a large table") {
  const Run big = run_moon("analyze --hash 256 --depth 2");
  CHECK(big.status == 0);
  CHECK(contains(big.err, "analyze: making the 256 MiB table\nanalyze: table made in "));
  const Run small = run_moon("analyze --hash 255 --depth 2");
  CHECK(small.status == 0);
  CHECK(!contains(small.err, "table"));
  const Run play = run_moon("play --hash 256 --depth 2", "quit\n");
  CHECK(play.status == 0);
  CHECK(contains(play.err, "play: making the 256 MiB table\nplay: table made in "));
}

TEST_CASE("moon analyze --multipv: K lines per iteration, numbered, each its own move") {
  // x to move in 4 v 2: c1c2 and d2e2 both win in 13, the third best move does not.
  const Run r = run_moon("analyze --fen '4x/5/xo2o/3x1/2x2 x' --depth 14 --multipv 3");
  REQUIRE(r.status == 0);
  const auto out = lines(r.out);
  REQUIRE(out.size() == 14 * 3 + 2);
  CHECK(out[14 * 3].rfind("total nodes ", 0) == 0);
  for (int d = 1; d <= 14; ++d)
    for (int k = 1; k <= 3; ++k)
      CHECK(out[std::size_t((d - 1) * 3 + k - 1)].rfind(
                "depth " + std::to_string(d) + " multipv " + std::to_string(k) + " score ", 0) == 0);
  const std::string first = out[13 * 3], second = out[13 * 3 + 1], third = out[13 * 3 + 2];
  CHECK(contains(first, " score win 13 "));
  CHECK(contains(second, " score win 13 "));
  CHECK_FALSE(contains(third, " score win 13 "));
  const auto first_move = [](const std::string& line) { return line.substr(line.find(" pv ") + 4, 4); };
  CHECK(out.back() == "bestmove " + first_move(first));
  CHECK(first_move(first) != first_move(second));

  const Run bad = run_moon("analyze --multipv 65");
  CHECK(bad.status == 2);
  CHECK(contains(bad.err, "--multipv must be a whole number from 1 to 64, not '65'"));
  CHECK(contains(run_moon("analyze --help").out, "--multipv K"));
}

TEST_CASE("moon analyze after MOVEs searches the position they lead to") {
  const Run r = run_moon("analyze --depth 3 --fen '4o/5/5/2x2/xo3 o' e5e4");  // x to move then wins at once
  REQUIRE(r.status == 0);
  CHECK(contains(r.out, "score win 1"));
  CHECK(lines(r.out).back() == "bestmove c2c1");
}

TEST_CASE("moon play: scripted input, illegal input explained, undo, the result at the end") {
  const Run r = run_moon("play --depth 2", "zz\nc3\nudno\nb4\nundo\nc2\nquit\n");
  CHECK(r.status == 0);
  CHECK(contains(r.out, "> 'udno' is neither a move nor a command; did you mean 'undo'?\n"));
  // 'pass' is suggested only where passing is legal: for a blocked side, not while placing.
  const Run placing = run_moon("play --depth 1", "pas\nquit\n");
  CHECK_FALSE(contains(placing.out, "did you mean 'pass'"));
  CHECK(contains(placing.out, "> 'pas' is not a move"));
  const Run blocked = run_moon("play --depth 1 --side x --fen '5/5/5/o3o/xo1ox x 0 0 0 5'", "pas\nquit\n");
  CHECK(contains(blocked.out, "> 'pas' is neither a move nor a command; did you mean 'pass'?\n"));
  CHECK(contains(r.out, "> 'zz' is not a move: 'zz' is not a square (a1 to e5); 'moves' lists the legal ones, "
                        "'help' the commands\n"));
  CHECK(contains(r.out, "> 'c3' is illegal: no counter may be placed on c3; 'moves' lists the legal ones, "
                        "'help' the commands\n"));
  CHECK(contains(r.out, "you play b4"));
  CHECK(contains(r.out, "moon plays "));
  CHECK(contains(r.out, "move taken back"));
  CHECK(contains(r.out, "you play c2"));
  CHECK(contains(r.out, "game abandoned"));

  // 'moves' lists the legal moves with the counters each captures (as moon show: 10 moves, d3c3
  // capturing c2 b3 c4).
  const Run listed = run_moon("play --depth 1 --fen '2x1o/2o2/xo1x1/2o2/2x1o x 0 0 0 9'", "moves\nquit\n");
  CHECK(listed.status == 0);
  CHECK(contains(listed.out, "> legal moves: a3a4 d3d4 a3a2 d3d2 c1d1 d3e3 c5d5 c1b1 d3c3(x3) c5b5\n"));

  const Run eof = run_moon("play --depth 2", "");
  CHECK(eof.status == 0);
  CHECK(contains(eof.out, "end of input"));

  // x (you) captures the second-to-last o counter: the game ends at once.
  const Run win = run_moon("play --fen '4o/5/5/2x2/xo3 x' --depth 2", "hint\nc2c1\n");
  CHECK(win.status == 0);
  // The hint names the best move, then the next two with their scores.
  CHECK(contains(win.out, "hint: c2c1  (score win 1; then "));
  const std::size_t hint_at = win.out.find("hint: ");
  const std::string hint = win.out.substr(hint_at, win.out.find('\n', hint_at) - hint_at);
  CHECK(std::count(hint.begin(), hint.end(), ',') == 1);  // "; then A score, B score)"
  // Each move's own score, all of one kind: b3b4's draw is proven as c3c2's and c3d3's are,
  // though the position's score is not (other moves are only estimated at depth 2).
  const Run drawn = run_moon("play --fen 'x1o1o/5/1oo2/x3x/x4 o 0 0 17 30' --side o --depth 2", "hint\nquit\n");
  CHECK(contains(drawn.out, "hint: b3b4  (score draw; then c3c2 draw, c3d3 draw)\n"));
  // The hint's search ends once its first line is settled, as the engine's own would: the win in
  // 1 at depth 1 (the other two lines, searched on to depth 19, would be draws).
  const Run settled = run_moon("play --fen '4o/5/5/2x2/xo3 x' --depth 30", "hint\nquit\n");
  CHECK(contains(settled.out, "hint: c2c1  (score win 1; then c2c3 cp 11, c2d2 cp 11)\n"));
  CHECK(contains(win.out, "you play c2c1 capturing b1"));
  CHECK(contains(win.out, "game over: x wins"));
  CHECK(contains(win.out, "you win"));

  // The end of the game, and a game abandoned, print the command that shows it again.
  CHECK(contains(win.out, "replay: moon show --fen '4o/5/5/2x2/xo3 x 0 0 0 1' c2c1\n"));
  CHECK(contains(r.out, "game abandoned\nreplay: moon show --fen '5/5/5/5/5 x 12 12 0 1' c2 "));  // b4 undone
  const Run variant = run_moon("play --depth 1 --slide --clock-limit 30", "b4\nquit\n");
  const std::string replay = "replay: moon show --fen '5/5/5/5/5 x 12 12 0 1' --slide --clock-limit 30 b4 ";
  REQUIRE(contains(variant.out, replay));
  {
    // The replay line, run, shows the position the game had reached.
    const std::size_t from = variant.out.find(replay);
    const std::string line = variant.out.substr(from, variant.out.find('\n', from) - from);
    const Run shown = run_moon(line.substr(std::string("replay: moon ").size()));
    REQUIRE(shown.status == 0);
    CHECK(contains(shown.out, "x to move, placement phase; in hand x 11, o 11"));
  }

  // Playing o against the engine: moon (x) wins in one.
  const Run lose = run_moon("play --fen '4o/5/5/2x2/xo3 x' --side o --depth 2", "");
  CHECK(contains(lose.out, "moon plays c2c1 capturing b1"));
  CHECK(contains(lose.out, "moon wins"));
  CHECK(lose.status == 0);  // the end of input after the end of the game
  CHECK_FALSE(contains(lose.out, "game abandoned"));
  check_refused("play --side z", "moon play: --side must be x or o, not 'z'");

  // The word 'pass' is answered as typed, not as the 0000 it is read as.
  const Run pass = run_moon("play --depth 1", "pass\nquit\n");
  CHECK(contains(pass.out, "> 'pass' is illegal: counters are still in hand, so x must place one"));
  // Moves and commands typed in capitals are read as the same in lower case.
  const Run capitals = run_moon("play --depth 1", "B4\nPASS\nQUIT\n");
  CHECK(contains(capitals.out, "you play b4"));
  CHECK(contains(capitals.out, "> 'pass' is illegal: "));
  CHECK(contains(capitals.out, "game abandoned"));
  // An input line longer than 1000 characters is refused, not repeated; the game goes on. A
  // line ending in CRLF and a last line without a newline are read as typed.
  const Run long_line = run_moon("play --depth 1", std::string(1001, 'z') + "\nb4\r\nquit");
  CHECK(long_line.status == 0);
  CHECK(contains(long_line.out, "> input line longer than 1000 characters: ignored; commands: a move "));
  CHECK_FALSE(contains(long_line.out, "zzzz"));
  CHECK(contains(long_line.out, "you play b4"));
  CHECK(contains(long_line.out, "game abandoned"));
  const Run at_bound = run_moon("play --depth 1", std::string(1000, 'z') + "\nquit\n");
  CHECK(contains(at_bound.out, "> '" + std::string(80, 'z') + "...' is not a move "));  // shown cut short
  // A position already over is not a game anyone won here.
  const Run over = run_moon("play --fen 'x4/1o3/2x2/5/5 x' --depth 1", "");
  CHECK(over.status == 0);
  CHECK(contains(over.out, "this game is already over: x wins; nothing to play\n"));
  CHECK_FALSE(contains(over.out, "you win"));
  // MOVEs that end the game are the game's: its end is announced as any other, with the replay.
  const Run ended = run_moon("play --fen '5/5/5/o4/xo1x1 x' --depth 1 d1c1", "");
  CHECK(ended.status == 0);
  CHECK_FALSE(contains(ended.out, "already over"));
  CHECK(contains(ended.out, "game over: x wins (x 2, o 1) - you win\nreplay: moon show --fen '5/5/5/o4/xo1x1 x 0 0 0 1' d1c1\n"));
}

#ifndef MOON_SANITIZE_BUILD  // the sanitizers' shadow memory does not fit in the limit
TEST_CASE("moon play: a line of input with no end in sight takes no more memory than its bound") {
  // 200 MB of NULs without a newline, in 200 MB of address space: std::getline kept them all,
  // ran out of memory, and the game ended as if the input had ("end of input: game abandoned").
  const auto out = std::filesystem::temp_directory_path() / ("moon_test_nuls_" + std::to_string(getpid()));
  const std::string command = "ulimit -v 200000; (head -c 200000000 /dev/zero; printf '\\nb4\\nquit\\n') | '" +
                              std::string(MOON_PROGRAM) + "' play --depth 1 >'" + out.string() + "' 2>&1";
  const int raw = std::system(command.c_str());
  CHECK((raw != -1 && WIFEXITED(raw) && WEXITSTATUS(raw) == 0));
  const std::string text = test::read_whole_file(out);
  CHECK(contains(text, "> input line longer than 1000 characters: ignored; "));
  CHECK(contains(text, "you play b4"));
  CHECK(text.size() < 10000);
  std::filesystem::remove(out);
}
#endif

namespace {

// For ChildProcess::read_until(): a line that contains `text` (a prompt may come before it).
auto line_with(std::string text) {
  return [text](const std::string& line) { return line.find(text) != std::string::npos; };
}

// `argv` run with a pseudo-terminal as its standard input; null, with a note, on a machine that
// has none to give (the cases that need one are then left out).
std::unique_ptr<test::ChildProcess> run_at_terminal(const std::vector<std::string>& argv) {
  std::string why;
  auto program = test::start_unless_no_terminal(argv, test::ChildProcess::Input::terminal,
                                                test::ChildProcess::Output::pipe, why);
  if (!program) MESSAGE("left out: " << why);
  return program;
}

}  // namespace

TEST_CASE("moon play at the end of a game: the program ends, but at a terminal undo is offered first") {
  using std::chrono::seconds;
  const std::vector<std::string> won_in_one{MOON_PROGRAM, "play", "--fen", "4o/5/5/2x2/xo3 x", "--depth", "2"};
  SUBCASE("through a pipe, the program ends with the game, though its input is still open") {
    test::ChildProcess program(won_in_one);
    REQUIRE(program.send("c2c1"));
    CHECK(program.wait(seconds(30)) == 0);
  }
  SUBCASE("at a terminal, undo takes back the winning move; nothing else but quit is taken") {
    const auto terminal = run_at_terminal(won_in_one);
    if (!terminal) return;
    test::ChildProcess& program = *terminal;
    REQUIRE(program.send("c2c1"));
    REQUIRE(program.read_until(line_with("replay: "), seconds(30)).size() > 0);
    REQUIRE(program.send("b4"));
    auto out = program.read_until(line_with("the game is over"), seconds(30));
    REQUIRE(!out.empty());
    CHECK(out.back() == "undo or quit> the game is over: 'undo' takes back your last move, 'quit' ends");
    REQUIRE(program.send(std::string(1001, 'z')));  // too long: refused, with what is left to do
    out = program.read_until(line_with("input line longer"), seconds(30));
    REQUIRE(!out.empty());
    CHECK(out.back() == "undo or quit> input line longer than 1000 characters: ignored; the game is over: 'undo' "
                        "takes back your last move, 'quit' ends");
    REQUIRE(program.send("undo"));
    out = program.read_until(line_with(", move 1"), seconds(30));  // the status line under the board
    REQUIRE(out.size() > 2);
    CHECK(out.front() == "undo or quit> move taken back");
    CHECK(out.back() == "x to move, movement phase; clock 0/20; move 1");  // before c2c1 again
    REQUIRE(program.send("quit"));
    out = program.read_until(line_with("game abandoned"), seconds(30));  // the game undone went on
    REQUIRE(!out.empty());
    CHECK(out.back() == "your move (x)> game abandoned");
    CHECK(program.wait(seconds(30)) == 0);
  }
  SUBCASE("at a terminal, with no move of yours to take back, the program ends with the game") {
    const auto program = run_at_terminal({MOON_PROGRAM, "play", "--fen", "4o/5/5/2x2/xo3 x", "--side", "o", "--depth", "2"});
    if (program) CHECK(program->wait(seconds(30)) == 0);
  }
}

TEST_CASE("moon play: Ctrl-C while the engine thinks makes it move now; the game goes on") {
  using std::chrono::seconds;
  test::ChildProcess program({MOON_PROGRAM, "play", "--movetime", "600000"}, true);
  const std::string notice = "moon play: interrupted, the engine stops thinking (Ctrl-C again to quit at once)";
  // Each time the engine thinks, ten minutes before it would move by itself: its move, the next
  // move (Ctrl-C is watched afresh each time), and a hint.
  std::string engine_placed;  // where the engine's first reply went: the second move goes elsewhere
  for (const std::string move : {"b4", "d4"}) {
    CAPTURE(move);
    REQUIRE(program.send(move == engine_placed ? "e1" : move));
    // Said once Ctrl-C is watched.
    REQUIRE(!program.read_until(line_with("moon thinks (Ctrl-C: move now)"), seconds(30)).empty());
    program.interrupt();
    const auto out = program.read_until(line_with("moon plays "), seconds(30));
    REQUIRE(!out.empty());
    CHECK(std::find(out.begin(), out.end(), notice) != out.end());
    REQUIRE(out.back().starts_with("moon plays "));
    engine_placed = out.back().substr(11, out.back().find(' ', 11) - 11);
  }
  REQUIRE(program.send("hint"));
  REQUIRE(!program.read_until(line_with("moon looks for a hint"), seconds(30)).empty());
  program.interrupt();
  auto out = program.read_until(line_with("hint: "), seconds(30));
  REQUIRE(!out.empty());
  CHECK(std::find(out.begin(), out.end(), notice) != out.end());
  program.close_input();
  out = program.read_until(line_with("game abandoned"), seconds(30));
  REQUIRE(!out.empty());
  CHECK(out.back() == "end of input: game abandoned");
  CHECK(program.wait(seconds(30)) == 0);
}

TEST_CASE("moon play: Ctrl-C at the prompt quits at once, with the replay line") {
  using std::chrono::seconds;
  test::ChildProcess program({MOON_PROGRAM, "play", "--depth", "1"}, true);
  SUBCASE("before the first move: nothing to replay") {
    REQUIRE(program.wait_for_text("your move (x)> ", seconds(30)));
    program.interrupt();
    const auto out = program.read_until(line_with("game abandoned"), seconds(30));
    REQUIRE(!out.empty());
    CHECK(out.back() == "Ctrl-C: game abandoned");
    CHECK_FALSE(program.read_line(seconds(30)).has_value());  // nothing more
  }
  SUBCASE("after moves: the game so far, as quit would show it") {
    REQUIRE(program.send("b4"));
    const auto reply = program.read_until(line_with("moon plays "), seconds(30));
    REQUIRE(!reply.empty());
    const std::string engine_move = reply.back().substr(11, reply.back().find(' ', 11) - 11);
    REQUIRE(program.wait_for_text("your move (x)> ", seconds(30)));
    program.interrupt();
    const auto out = program.read_until(line_with("replay: "), seconds(30));
    REQUIRE(out.size() >= 2);
    CHECK(out[out.size() - 2].ends_with("Ctrl-C: game abandoned"));
    CHECK(out.back() == "replay: moon show --fen '5/5/5/5/5 x 12 12 0 1' b4 " + engine_move);
  }
  // As the default would: the program ends by SIGINT, as a shell running it in a loop expects.
  CHECK_FALSE(program.wait(seconds(30)).has_value());
  CHECK(program.ending_signal() == SIGINT);
}

TEST_CASE("moon play through a pipe: your move is acknowledged before the engine thinks") {
  // Standard output to a pipe is buffered: unless play flushes before searching, 'you play b4'
  // would only come out with the engine's reply, a minute later here.
  test::ChildProcess program({MOON_PROGRAM, "play", "--movetime", "60000"});
  using std::chrono::seconds;
  REQUIRE(program.send("b4"));
  // The line starts with the prompt, "your move (x)> ".
  const auto out = program.read_until(line_with("you play "), seconds(30));
  REQUIRE(!out.empty());
  CHECK(out.back().ends_with("> you play b4"));
  CHECK(std::none_of(out.begin(), out.end(), [](const std::string& line) { return line.starts_with("moon plays"); }));
}  // the ChildProcess kills the program, still thinking

TEST_CASE("moon solve: value, distance, best move, nodes and time; progress on standard error") {
  const std::string fen = "4x/5/xo2o/3x1/2x2 x";  // x wins in 13 plies
  const Run r = run_moon("solve --fen '" + fen + "'");
  CHECK(r.status == 0);
  const auto out = lines(r.out);
  REQUIRE(out.size() == 5);
  CHECK(out[0] == "value win");
  CHECK(out[1] == "distance 13");
  REQUIRE(out[2].rfind("bestmove ", 0) == 0);
  CHECK(out[3].rfind("nodes ", 0) == 0);
  CHECK(std::stoull(out[3].substr(6)) > 0);
  CHECK(out[4].rfind("time_ms ", 0) == 0);
  const auto err = lines(r.err);
  REQUIRE(err.size() >= 2);
  CHECK(err.front().rfind("solve: decided within 1 ply? value between loss in 1 and win in 1 | 0 nodes", 0) == 0);
  CHECK(err.back().rfind("solve: " + out[3].substr(6) + " nodes in ", 0) == 0);

  // The best move keeps the win one ply closer: after it, o loses in 12 (moves are played first).
  const std::string best = out[2].substr(9);
  const Run after = run_moon("solve --quiet --fen '" + fen + "' " + best);
  CHECK(after.status == 0);
  CHECK(after.err.empty());
  const auto after_out = lines(after.out);
  REQUIRE(after_out.size() == 5);
  CHECK(after_out[0] == "value loss");
  CHECK(after_out[1] == "distance 12");

  // Rule flags: with diagonal captures the same board is a win in 5.
  const auto diagonal = lines(run_moon("solve --quiet --diagonal --fen '" + fen + "'").out);
  REQUIRE(diagonal.size() == 5);
  CHECK(diagonal[1] == "distance 5");
  // Outcome only.
  const auto outcome = lines(run_moon("solve --quiet --no-distance --fen '" + fen + "'").out);
  REQUIRE(outcome.size() == 5);
  CHECK(outcome[0] == "value win");
  CHECK(outcome[1] == "distance unknown");
  // A game that is over: distance 0 and no move.
  const auto over = lines(run_moon("solve --quiet --fen '4o/5/5/2x2/x4 o'").out);
  REQUIRE(over.size() == 5);
  CHECK(over[0] == "value loss");
  CHECK(over[1] == "distance 0");
  CHECK(over[2] == "bestmove none");
  CHECK(lines(run_moon("solve --quiet --no-distance --fen '4o/5/5/2x2/x4 o'").out)[1] == "distance unknown");
  // Answered by the rules, without making a table (it once made one, however large, for nothing).
  const Run over_large = run_moon("solve --hash 256 --fen '4o/5/5/2x2/x4 o'");
  CHECK(over_large.status == 0);
  CHECK(lines(over_large.out) == over);
  CHECK(lines(over_large.err) == std::vector<std::string>{"solve: 0 nodes in 0.000 s, 0.0 Mn/s"});

  // --moves: a line per legal move, best first, each one checked against a solve of the
  // position after it; the first is the position's value.
  const Run analysed = run_moon("solve --quiet --moves --fen '" + fen + "'");
  CHECK(analysed.status == 0);
  const auto move_out = lines(analysed.out);
  const Position pos = *parse_position(fen);
  const std::size_t legal = legal_moves(pos).size();
  REQUIRE(move_out.size() == 5 + legal);
  CHECK(move_out[0] == "value win");
  CHECK(move_out[1] == "distance 13");
  CHECK(move_out[3] == "move " + move_out[2].substr(9) + " win 13");
  CHECK(move_out[3 + legal].rfind("nodes ", 0) == 0);
  CHECK(move_out[4 + legal].rfind("time_ms ", 0) == 0);
  for (std::size_t i = 0; i < legal; ++i) {
    const std::string& line = move_out[3 + i];
    INFO(line);
    REQUIRE(line.rfind("move ", 0) == 0);
    const std::string move = line.substr(5, line.find(' ', 5) - 5);
    const auto child = lines(run_moon("solve --quiet --fen '" + fen + "' " + move).out);
    REQUIRE(child.size() == 5);
    const std::string child_value = child[0].substr(6), child_plies = child[1].substr(9);
    const std::string mine = child_value == "win" ? "loss" : child_value == "loss" ? "win" : "draw";
    CHECK(line == "move " + move + " " + mine + " " + std::to_string(std::stoi(child_plies) + 1));
  }
  const auto moves_unknown = lines(run_moon("solve --quiet --moves --no-distance --fen '" + fen + "'").out);
  REQUIRE(moves_unknown.size() == 5 + legal);
  CHECK(moves_unknown[1] == "distance unknown");
  CHECK(moves_unknown[3].rfind(" win unknown") == moves_unknown[3].size() - 12);
  const auto over_moves = lines(run_moon("solve --quiet --moves --fen '4o/5/5/2x2/x4 o'").out);  // no moves
  REQUIRE(over_moves.size() == 5);
  CHECK(std::vector<std::string>(over_moves.begin(), over_moves.begin() + 3) ==
        std::vector<std::string>(over.begin(), over.begin() + 3));

  // A large table is announced while it is made, and how long that took.
  const Run large = run_moon("solve --hash 256 --fen 'xo3/5/5/5/3ox x 0 0 14 1'");
  CHECK(large.status == 0);
  const auto large_err = lines(large.err);
  REQUIRE(large_err.size() >= 2);
  CHECK(large_err[0] == "solve: making the 256 MiB table");
  CHECK(large_err[1].rfind("solve: table made in ", 0) == 0);
  CHECK(!contains(run_moon("solve --hash 64 --fen 'xo3/5/5/5/3ox x 0 0 14 1'").err, "table made"));

  // Bad input: a usage error, nothing on standard output.
  for (const char* args : {"solve --fen '4x/5/xo2o/3x1/2x2 x' a1", "solve --threads 0", "solve --hash -1",
                           "solve --fen 'nonsense'", "solve --frobnicate"}) {
    INFO("moon ", args);
    const Run bad = run_moon(args);
    CHECK(bad.status == 2);
    CHECK(bad.out.empty());
    CHECK(bad.err.rfind("moon solve: ", 0) == 0);
  }
}

TEST_CASE("moon match: W/D/L with an Elo estimate") {
  const Run r = run_moon("match --games 2 --depth 2 --opening-plies 2 --a full --b plain:+alphabeta");
  CHECK(r.status == 0);
  CHECK(contains(r.out, "game 1/2"));
  CHECK(contains(r.out, "game 2/2"));
  CHECK(contains(r.out, "Games: 2"));
  CHECK(contains(r.out, "Elo difference (A - B): "));
  check_refused("match --a nonsense",
                "moon match: --a: engine settings must start with 'full' or 'plain', not 'nonsense'");
  check_refused("match --a-eval mobility", "moon match: --a-eval: weight 'mobility' must be NAME=VALUE");
  // Negative weights are allowed, down to -1000.
  CHECK(run_moon("match --games 2 --depth 1 --a-eval material=-5,mobility=-1000").status == 0);
  // Refused with the reason: a weight out of range (the message keeps the sign), a name given
  // twice in a list (the last would win in silence), an unknown one (the names there are are
  // listed).
  check_refused("match --a-eval material=-2000", "material must be a whole number from -1000 to 1000, not '-2000'");
  check_refused("match --a-eval mobility=1,mobility=2", "weight 'mobility' is given twice");
  check_refused("bench --engine full:+table,-table", "feature 'table' is given twice");
  check_refused("match --a-eval foo=1",
                "unknown weight 'foo' (material, capture_threat, exposure, flank_threat, mobility, corner, "
                "placement_threat, first_mover_threat)");
  check_refused("match --a full:-nothing",
                "unknown feature 'nothing' (alphabeta, table, captures, killers, history, pvs, quiescence)");
  // What is echoed stays printable.
  for (const char* args : {"match --a 'full\x1b[2J'", "match --b 'full:+\x1b'", "match --a-eval '\x1b=1'",
                           "bench --engine 'plain\x07'", "play --side '\x1b'", "perft 2 'q\x1b[2Jz'"}) {
    INFO("moon ", args);
    const Run echoed = run_moon(args);
    CHECK(echoed.status == 2);
    for (char c : echoed.err) CHECK(((c >= 0x20 && c < 0x7f) || c == '\n'));
  }

  // Where a random opening move could end the game (x captures on its first move here), the
  // opening draws another: every game is the engines' to play, none over in 0 plies.
  const Run endgame = run_moon("match --fen 'x4/1o3/5/2x2/o4 x' --games 8 --depth 1 --opening-plies 4");
  CHECK(endgame.status == 0);
  CHECK(contains(endgame.out, "Games: 8"));
  CHECK(contains(endgame.out, " plies after the opening  (A +"));  // the engines' plies only
  CHECK_FALSE(contains(endgame.out, " in 0 plies"));

  // Each pair of games its own opening while there are openings left: 20 pairs from the 24
  // first moves (a random draw per pair would repeat some), both games of a pair the same.
  const Run distinct = run_moon("match --games 40 --depth 1 --opening-plies 1");
  CHECK(distinct.status == 0);
  CHECK(distinct.err.empty());
  std::vector<std::string> openings;
  for (const std::string& line : lines(distinct.out)) {
    const auto at = line.find("  opening ");
    if (at != std::string::npos) openings.push_back(line.substr(at + 10, 2));
  }
  REQUIRE(openings.size() == 40);
  for (std::size_t pair = 0; pair < 20; ++pair) CHECK(openings[2 * pair] == openings[2 * pair + 1]);
  std::sort(openings.begin(), openings.end());
  CHECK(std::unique(openings.begin(), openings.end()) - openings.begin() == 20);
  // None left: the repeats are announced.
  const Run repeated = run_moon("match --games 6 --depth 1 --opening-plies 0 --quiet");
  CHECK(repeated.status == 0);
  CHECK(contains(repeated.err, "moon match: note: only 1 different opening for the 3 pairs of games "
                               "(--opening-plies 0 from this position)"));
  // Some left: the count is of different openings (the 24 first moves), not of pairs that have
  // one of their own (18 here: the other 12 share 6).
  const Run some_repeated = run_moon("match --games 60 --depth 1 --opening-plies 1 --quiet");
  CHECK(some_repeated.status == 0);
  CHECK(contains(some_repeated.err, "moon match: note: only 24 different openings for the 30 pairs of games "
                                    "(--opening-plies 1 from this position)"));
  // An opening cut short (every move would end the game, a clock move from its limit) is noted.
  const Run shortened = run_moon("match --fen 'x3o/5/5/5/x3o x 0 0 19 1' --opening-plies 1 --games 2 --depth 1");
  CHECK(shortened.status == 0);
  CHECK(contains(shortened.out, "opening (none)"));
  CHECK(contains(shortened.out, " in 1 ply "));
  CHECK(contains(shortened.err, "moon match: note: 1 of the 1 openings stop short of --opening-plies 1"));
  // No more games at once than games: two games with --concurrency 64 make four engines, not 128
  // (nothing to note either way).
  const Run few = run_moon("match --games 2 --depth 1 --quiet --concurrency 64");
  CHECK(few.status == 0);
  CHECK(contains(few.out, "Games: 2 "));
  CHECK(few.err.empty());
}

// A stand-in engine for the match's errors: a shell script that answers `umi` (offering only
// Hash, or what the shell commands `offered` echo) and `isready`, and answers other commands as
// `reply` says (shell `case` branches).
std::string script_engine(const std::string& name, const std::string& reply,
                          const std::string& offered = "echo 'option name Hash type spin default 16 min 1 max 64'; ") {
  const auto path = std::filesystem::temp_directory_path() /
                    ("moon_test_engine_" + std::to_string(getpid()) + "_" + name + ".sh");
  std::ofstream(path) << "#!/bin/sh\n"
                         "while read line; do case \"$line\" in\n"
                         "umi) "
                      << offered << "echo umiok;;\n"
                         "isready) echo readyok;;\n"
                         "quit) exit 0;;\n"
                      << reply << "\nesac; done\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path.string();
}

TEST_CASE("moon match against an engine in another program, through the protocol") {
  const std::string moon_protocol = std::string("'") + MOON_PROGRAM + " protocol'";
  // moon's own engine in another process plays exactly as in this one: the same games, move for
  // move (the same final counts and lengths), under the default rules and under the variants,
  // which the engine is set to through its options, and two games at once.
  for (const std::string rules : {"--depth 2", "--fen 'x1o2/1o1x1/3x1/o3x/1x1o1 x 0 0 3 9' --slide --diagonal "
                                               "--clock-limit 30 --nodes 800 --concurrency 2"}) {
    INFO(rules);
    const Run here = run_moon("match --games 4 --b full " + rules);
    const Run there = run_moon("match --games 4 --b-engine " + moon_protocol + " " + rules);
    REQUIRE(here.status == 0);
    REQUIRE(there.status == 0);
    CHECK(there.err.empty());
    // Each game's opening, colours and result, without its number or the running totals: two
    // at once finish in any order.
    const auto games_of = [](const Run& run) {
      std::vector<std::string> games;
      for (const std::string& line : lines(run.out))
        if (line.starts_with("game ")) {
          const auto from = line.find("  opening "), to = line.find("  (A +");
          games.push_back(line.substr(from, to - from));
        }
      return games;
    };
    std::vector<std::string> games_here = games_of(here), games_there = games_of(there);
    std::sort(games_here.begin(), games_here.end());
    std::sort(games_there.begin(), games_there.end());
    CHECK(games_here.size() == 4);
    CHECK(games_there == games_here);
    CHECK(contains(there.out, "A = full, B = engine '" + std::string(MOON_PROGRAM) + " protocol'"));
  }
  // A clock past what the protocol takes (--tc allows 10^9 s, and as much again a move): the
  // engine is sent the most it takes, and the match's own deadline for its answer does not
  // overflow (once a side's clock passed 9.2 * 10^12 ms it lay in the past: "no answer").
  const Run long_clock = run_moon("match --games 2 --depth 1 --quiet --tc 1000000000+1000000000 --b-engine " +
                                  moon_protocol);
  CHECK(long_clock.status == 0);
  CHECK(long_clock.err.empty());
  CHECK(contains(long_clock.out, "Games: 2 "));
  // Both engines in other programs.
  const Run both = run_moon("match --games 2 --depth 1 --quiet --a-engine " + moon_protocol + " --b-engine " +
                            moon_protocol);
  CHECK(both.status == 0);
  CHECK(contains(both.out, "Games: 2 "));

  // An engine that fails ends the match, saying how (status 1; the games finished reported).
  const auto check_fails = [](const std::string& args, const std::string& reason) {
    INFO("moon ", args);
    const Run run = run_moon(args);
    CHECK(run.status == 1);
    INFO("stderr: ", run.err);
    CHECK(contains(run.err, reason));
    CHECK(contains(run.err, "; the match stops after 0 of 2 games"));
    CHECK(contains(run.out, "Games: 0 "));
  };
  check_fails("match --games 2 --depth 1 --b-engine /nonexistent/engine",
              "moon match: engine B '/nonexistent/engine': it did not answer 'umi' with 'umiok': it ended (exit "
              "status 127)");
  const std::string illegal = script_engine("illegal", "go*) echo 'bestmove a1a1';;");
  check_fails("match --games 2 --depth 1 --a-engine " + illegal,
              "moon match: engine A '" + illegal + "': it answered 'bestmove a1a1' in the position ");
  check_fails("match --games 2 --depth 1 --a-engine " + illegal, "10 10 0 3: 'a1a1' is illegal: counters are still in hand");
  const std::string no_move = script_engine("no_move", "go*) echo 'bestmove (none)';;");
  check_fails("match --games 2 --depth 1 --b-engine " + no_move, "it answered 'bestmove (none)' in the position");
  check_fails("match --games 2 --depth 1 --slide --b-engine " + illegal,
              "it does not offer the option 'Movement' (needed for Movement slide)");
  // An engine offering no option at all plays with its own table, unless --hash asks for a size.
  const std::string no_options = script_engine("no_options", "go*) echo 'bestmove (none)';;", "");
  check_fails("match --games 2 --depth 1 --b-engine " + no_options,
              "it answered 'bestmove (none)' in the position");  // started, and asked for a move
  check_fails("match --games 2 --depth 1 --hash 8 --b-engine " + no_options,
              "it does not offer the option 'Hash' (needed for Hash 8)");
  const std::string refuses = script_engine("refuses", "setoption*) echo 'info string error: not today';;");
  check_fails("match --games 2 --depth 1 --b-engine " + refuses, "it refused its options: not today");
  const std::string rejects = script_engine("rejects", "go*) echo 'info string error: go what?';;");
  check_fails("match --games 2 --depth 1 --b-engine " + rejects,
              "it refused 'position fen 5/5/5/5/5 x 12 12 0 1 moves ");
  check_fails("match --games 2 --depth 1 --b-engine " + rejects, "' or 'go depth 1': go what?");
  const std::string exits = script_engine("exits", "go*) exit 3;;");
  check_fails("match --games 2 --depth 1 --b-engine " + exits,
              "it sent no bestmove for 'go depth 1': it ended (exit status 3)");
  // One that never answers a search is given the move time and 5 s; then it is killed with what
  // it started (here a sleep in the background, whose process id the script leaves in a file).
  const auto stuck_pid_file = std::filesystem::temp_directory_path() /
                              ("moon_test_engine_" + std::to_string(getpid()) + "_stuck.pid");
  const std::string silent =
      script_engine("silent", "go*) sleep 60 & echo $! > '" + stuck_pid_file.string() + "'; wait;;");
  check_fails("match --games 2 --movetime 50 --b-engine " + silent,
              "it sent no bestmove for 'go movetime 50': no answer in 5050 ms");
  {
    int stuck_pid = 0;
    std::ifstream(stuck_pid_file) >> stuck_pid;
    REQUIRE(stuck_pid > 0);
    // Gone (a zombie left to a container's init that does not reap it counts as gone).
    const auto gone = [&] {
      std::ifstream stat("/proc/" + std::to_string(stuck_pid) + "/stat");
      std::string pid, name, state;
      return !(stat >> pid >> name >> state) || state == "Z";
    };
    for (int i = 0; i < 100 && !gone(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(gone());
    std::filesystem::remove(stuck_pid_file);
  }
  // An engine that moves to another process group (here moon's own) and closes its input and
  // output is killed all the same: the kill of its group alone missed it, and the match waited
  // until it ended by itself (30 s).
  {
    const auto started = std::chrono::steady_clock::now();
    check_fails("match --games 2 --depth 1 --b-engine \"python3 -c 'import os, time; "
                "os.setpgid(0, os.getpgid(os.getppid())); os.close(0); os.close(1); time.sleep(30)'\"",
                "it did not answer 'umi' with 'umiok': it closed its output (still running); the match");
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
  }
  // Output without a newline is read up to 1 MiB, not until the memory runs out; an engine's
  // long message is cut short in ours.
  check_fails("match --games 2 --depth 1 --b-engine 'cat /dev/zero'",
              "it did not answer 'umi' with 'umiok': it wrote more than 1 MiB without a newline");
  const std::string long_error =
      script_engine("long_error", "go*) echo \"info string error: $(printf '%0300d' 7)\";;");
  check_fails("match --games 2 --depth 1 --b-engine " + long_error,
              "' or 'go depth 1': " + std::string(200, '0') + "...; the match stops");
  // An error without a message is still an error (it once threw out of range, ending the match
  // with 'basic_string::substr: ...').
  const std::string bare_error = script_engine("bare_error", "go*) echo 'info string error:';;\n"
                                                             "setoption*Hash*value\\ 2) echo 'info string error:  ';;");
  check_fails("match --games 2 --depth 1 --b-engine " + bare_error, "' or 'go depth 1': (no message); the match stops");
  check_fails("match --games 2 --depth 1 --hash 2 --b-engine " + bare_error, "it refused its options: (no message); the match");

  // Under a time control the engine is given both clocks, and one that answers after its time
  // has run out loses on time (its move unread): here B takes 1.5 s a move with 0.5 s a game.
  const std::string slow = script_engine("slow", "go*) echo \"$line\" >&2; sleep 1.5; echo 'bestmove a1';;");
  const Run timed = run_moon("match --games 2 --tc 0.5+0.1 --opening-plies 0 --b-engine " + slow);
  CHECK(timed.status == 0);
  CHECK(contains(timed.out, "game 1/2  opening (none)  A plays x: x wins on time 1-0 in 1 ply after the opening"));
  CHECK(contains(timed.out, "game 2/2  opening (none)  A plays o: o wins on time 0-0 in 0 plies after the opening"));
  CHECK(contains(timed.out, "Games: 2  A wins 2, draws 0, A losses 0"));
  CHECK(contains(timed.out, "Games lost on time: A 0, B 2"));
  CHECK(contains(timed.err, "go xtime 500 otime 500 xinc 100 oinc 100\n"));  // game 2, B's first move
  for (const std::string& path :
       {illegal, no_move, no_options, refuses, rejects, exits, silent, long_error, bare_error, slow})
    std::filesystem::remove(path);

  check_refused("match --b-engine " + moon_protocol + " --b full",
                "moon match: --b-engine names a program: its settings and weights are its own, not --b's");
  check_refused("match --a-eval mobility=0 --a-engine " + moon_protocol, "not --a-eval's");
  check_refused("match --b-engine ' '", "moon match: --b-engine needs a command, not ' '");
}

TEST_CASE("moon match under a time control") {
  // Both engines in this process, each with its clock: the report counts the games lost on time
  // (how many depends on the machine's load, so only the count's presence is checked).
  const Run r = run_moon("match --games 2 --tc 2+0.05 --quiet --b full:-history");
  CHECK(r.status == 0);
  CHECK(contains(r.out, "Games: 2 "));
  CHECK(contains(r.out, "Games lost on time: A "));
  for (const char* tc : {"0", "1.2345", "1+", "+1", "1e3", ".5", "1+0.0001", "-1", "1000000001", "1000000000.001",
                         "1+1000000000.5", "2++1", "1+-1"})
    check_refused(std::string("match --tc '") + tc + "'",
                  std::string("moon match: --tc must be SECONDS or SECONDS+INCREMENT (e.g. 60 or 10+0.1: 0.001 to "
                              "10^9 seconds, at most 3 decimals), not '") + tc + "'");
  check_refused("match --tc 1 --movetime 100", "moon match: --tc and --movetime both set the time of a move: give one of them");
}

#ifndef MOON_SANITIZE_BUILD  // the sanitizers' shadow memory leaves no address-space limit to set
TEST_CASE("moon match with fewer threads and less memory than asked: fewer games at once, no crash" *
          doctest::test_suite("threads")) {
  // 100 MB of address space: 64 threads' stacks (8 MiB each here, 2 MiB where unlimited) do not
  // fit, nor do 64 pairs of engines. The first refused thread used to abort the program (134),
  // and an engine left without a table crashed it (139).
  const Run r = run_moon("match --concurrency 64 --hash 1 --games 128 --depth 1 --quiet", "", "ulimit -v 100000; ");
  CHECK((r.status == 0 || r.status == 1));
  CHECK(contains(r.out, "Games: "));
  CHECK(contains(r.err, "at once, not 64: the system would not start more threads, or not give the memory"));
  if (r.status == 1) CHECK(contains(r.err, "out of memory: "));
  if (r.status == 0) CHECK(contains(r.out, "Games: 128 "));
}

TEST_CASE("moon match with no memory for any engine: one message, no game") {
  // 300 MB of address space does not hold a 512 MiB table, even for the one game on the main
  // thread (which needs no thread started).
  const Run r = run_moon("match --hash 512 --games 4 --concurrency 2 --depth 1 --quiet", "", "ulimit -v 300000; ");
  CHECK(r.status == 1);
  CHECK(contains(r.out, "Games: 0 "));
  INFO("stderr: ", r.err);
  CHECK(r.err == "moon match: out of memory: the system would not give the memory for the engines (their tables' "
                 "size is --hash); no game was played\n");
}
#endif

namespace {

// The game lines of a match, without the running tally (which depends on the order games end in).
std::vector<std::string> games_played(const std::string& out) {
  std::vector<std::string> games;
  for (const std::string& line : lines(out))
    if (line.rfind("game ", 0) == 0) games.push_back(line.substr(0, line.find("  (A ")));
  std::sort(games.begin(), games.end());
  return games;
}

}  // namespace

TEST_CASE("threads in the program: match --concurrency, solve --threads and analyze --threads" *
          doctest::test_suite("threads")) {
  // Each game starts with cleared tables and a depth limit: it is played the same way whichever
  // thread plays it, so two at once give the games and the totals of one at a time.
  const std::string match = "match --games 6 --depth 2 --opening-plies 2 --a full --b plain:+alphabeta";
  const Run one = run_moon(match);
  const Run two = run_moon(match + " --concurrency 2");
  REQUIRE(one.status == 0);
  REQUIRE(two.status == 0);
  CHECK(games_played(one.out).size() == 6);
  CHECK(games_played(two.out) == games_played(one.out));
  const auto totals = [](const std::string& out) {
    for (const std::string& line : lines(out))
      if (line.rfind("Games: ", 0) == 0) return line;
    return std::string("(no totals)");
  };
  CHECK(totals(two.out) == totals(one.out));

  const Run solved = run_moon("solve --threads 2 --fen '4x/5/xo2o/3x1/2x2 x'");  // x wins in 13 plies
  REQUIRE(solved.status == 0);
  const auto out = lines(solved.out);
  REQUIRE(out.size() >= 2);
  CHECK(out[0] == "value win");
  CHECK(out[1] == "distance 13");

  const std::string fen = "ooxxx/oo1xx/4x/x1o1x/xoooo x 3 3 0 10";
  const Run analyzed = run_moon("analyze --threads 2 --depth 4 --fen '" + fen + "'");
  REQUIRE(analyzed.status == 0);
  const std::string last = lines(analyzed.out).back();
  REQUIRE(last.rfind("bestmove ", 0) == 0);
  CHECK(parse_move(last.substr(9), *parse_position(fen)).has_value());
}

namespace {

bool has_line_starting(const std::vector<std::string>& lines, const std::string& prefix) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) { return line.starts_with(prefix); });
}

// Runs `moon <args>` until it prints a line starting with `ready`, presses Ctrl-C, and returns
// every line it printed (standard output and error) up to one starting with `last`.
std::vector<std::string> interrupted_run(const std::vector<std::string>& args, const std::string& ready,
                                         const std::string& last, std::optional<int>& status) {
  std::vector<std::string> argv{MOON_PROGRAM};
  argv.insert(argv.end(), args.begin(), args.end());
  test::ChildProcess program(argv, true);
  using std::chrono::seconds;
  std::vector<std::string> out = program.read_until_prefix(ready, seconds(60));
  REQUIRE(!out.empty());
  REQUIRE(out.back().starts_with(ready));
  program.interrupt();
  for (const std::string& line : program.read_until_prefix(last, seconds(60))) out.push_back(line);
  status = program.wait(std::chrono::seconds(30));
  return out;
}

}  // namespace

TEST_CASE("Ctrl-C stops analyze, solve, perft and match: what they have, then exit status 130") {
  const auto has_line = [](const std::vector<std::string>& out, const std::string& text) {
    return std::find(out.begin(), out.end(), text) != out.end();
  };
  std::optional<int> status;
  SUBCASE("analyze: the best move of the iterations completed") {
    // 100 plies from the start: far beyond what it could finish.
    const auto out = interrupted_run({"analyze", "--depth", "100"}, "depth ", "bestmove ", status);
    CHECK(has_line(out, "moon analyze: interrupted, stopping (Ctrl-C again to quit at once)"));
    REQUIRE(out.back().starts_with("bestmove "));
    CHECK(parse_move(out.back().substr(9), Position::start()).has_value());
  }
  SUBCASE("solve: nothing proven") {
    const auto out = interrupted_run({"solve"}, "solve: ", "moon solve: the solve", status);
    CHECK(has_line(out, "moon solve: interrupted, stopping (Ctrl-C again to quit at once)"));
    CHECK(out.back() == "moon solve: the solve was stopped before the proof was complete");
    CHECK_FALSE(has_line_starting(out, "value "));
  }
  SUBCASE("solve --moves: nothing proven") {
    const auto out = interrupted_run({"solve", "--moves"}, "solve: ", "moon solve: the analysis", status);
    CHECK(out.back() == "moon solve: the analysis was stopped before every move was proven");
    CHECK_FALSE(has_line_starting(out, "move "));
  }
  SUBCASE("perft: the root moves counted") {
    // 29 root moves of a tenth to half a second each (a few seconds under the sanitizers): the
    // first line comes long before the last.
    const auto out = interrupted_run({"perft", "--divide", "--slide", "--fen", "x1oo1/o1x1o/o1o2/1o1oo/o1ox1 o 0 0 1 25", "9"},
                                     "a1a2: ", "moon perft: perft stopped", status);
    CHECK(has_line(out, "moon perft: interrupted, stopping (Ctrl-C again to quit at once)"));
    const auto is_root_line = [](const std::string& line) { return line.find(": ") == 4 && !line.starts_with("moon"); };
    const auto lines = std::count_if(out.begin(), out.end(), is_root_line);
    CHECK(out.back().starts_with("moon perft: perft stopped after " + std::to_string(lines) + " of 29 root moves, in "));
    CHECK_FALSE(has_line_starting(out, "Nodes searched"));
  }
  SUBCASE("match: the games finished") {
    const auto out =
        interrupted_run({"match", "--games", "1000", "--movetime", "10"}, "game 1/1000 ", "Elo difference", status);
    CHECK(has_line(out, "moon match: interrupted, stopping (Ctrl-C again to quit at once)"));
    const auto is_game = [](const std::string& line) { return line.starts_with("game "); };
    const auto games = std::count_if(out.begin(), out.end(), is_game);
    CHECK(games < 1000);
    CHECK(has_line(out, "Interrupted: " + std::to_string(games) + " of 1000 games finished"));
    CHECK(has_line_starting(out, "Games: " + std::to_string(games) + "  A wins "));
    CHECK(out.back().starts_with("Elo difference (A - B): "));
  }
  CHECK(status == 130);
}

TEST_CASE("Ctrl-C while match starts engines in other programs: stopped, with no word of the system refusing them") {
  // An engine that never answers 'umi': each of the two threads waits for its own. The note on
  // the openings comes once Ctrl-C is watched for.
  test::ChildProcess program({MOON_PROGRAM, "match", "--games", "4", "--depth", "1", "--opening-plies", "0",
                              "--concurrency", "2", "--b-engine", "sleep 100"},
                             true);
  const std::string note_start = "moon match: note: only 1 different opening for the 2 pairs";
  const auto note = program.read_until_prefix(note_start, std::chrono::seconds(60));
  REQUIRE(!note.empty());
  REQUIRE(note.back().starts_with(note_start));  // not the output's end or the timeout
  // Most likely while the engines start (the outcome is the same if it comes before).
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  program.interrupt();
  const auto out = program.read_until_prefix("Elo difference", std::chrono::seconds(60));
  CHECK(program.wait(std::chrono::seconds(30)) == 130);
  CHECK(std::find(out.begin(), out.end(), "Interrupted: 0 of 4 games finished") != out.end());
  for (const std::string& line : out) CHECK_FALSE(contains(line, "at once, not"));
}

TEST_CASE("Ctrl-C while solve makes its table ends the program at once" *
          doctest::skip(test::meminfo_total_mb() < 4096)) {  // the 1 GiB table and the rest of the suite
  // A 1 GiB table takes a good part of a second or more to make (every page written), and there
  // is nothing to print yet: Ctrl-C then has its default effect, not a stop request that would be
  // seen only once the table is made (the program would then exit with status 130 instead).
  test::ChildProcess program({MOON_PROGRAM, "solve", "--hash", "1024"}, true);
  const auto out = program.read_until_prefix("solve: making the 1024 MiB table", std::chrono::seconds(60));
  REQUIRE(!out.empty());
  REQUIRE(out.back() == "solve: making the 1024 MiB table");
  program.interrupt();
  // On huge pages the table can be made in a fifth of a second, and so before the signal lands:
  // then, and only then, the program has said so, and the signal either ends it still or (once
  // it watches for Ctrl-C) stops the solve, status 130.
  const auto rest = program.read_until_prefix("moon solve: ", std::chrono::seconds(60));
  const auto status = program.wait(std::chrono::seconds(60));
  const bool table_made = std::any_of(rest.begin(), rest.end(), [](const std::string& line) {
    return line.starts_with("solve: table made in ");
  });
  INFO("the table was made first: ", table_made);
  if (table_made) {
    CHECK((status == 130 || program.ending_signal() == SIGINT));
  } else {
    CHECK_FALSE(status.has_value());
    CHECK(program.ending_signal() == SIGINT);
  }
}

TEST_CASE("Ctrl-C is left ignored when the program starts with it ignored") {
  // As a shell starts a script's background jobs: Ctrl-C is for the foreground, and the search
  // runs on (until the ChildProcess, going out of scope, kills it).
  test::ChildProcess program({MOON_PROGRAM, "analyze", "--depth", "100"}, true,
                             test::ChildProcess::Interrupts::ignored);
  using std::chrono::milliseconds;
  const auto first = program.read_until_prefix("depth ", std::chrono::seconds(60));
  REQUIRE(!first.empty());
  REQUIRE(first.back().starts_with("depth "));
  program.interrupt();
  // A stopped search would print its bestmove and end well within this time.
  const auto after = program.read_until_prefix("bestmove ", milliseconds(1000));
  CHECK(std::none_of(after.begin(), after.end(), [](const std::string& line) { return line.starts_with("moon "); }));
  CHECK_FALSE(program.wait(milliseconds(0)).has_value());
  CHECK_FALSE(program.ending_signal().has_value());
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
  // All drawn: even, but with no spread the normal approximation cannot bound it.
  const cli::EloEstimate drawn = cli::estimate_elo(0, 6, 0);
  CHECK(drawn.elo == doctest::Approx(0.0));
  CHECK(std::isinf(drawn.margin));
  // The interval's ends lie unevenly about the estimate: the score-to-Elo curve bends.
  const cli::EloEstimate lopsided = cli::estimate_elo(15, 1, 4);
  CHECK(lopsided.elo == doctest::Approx(214.85).epsilon(0.001));
  CHECK(lopsided.low == doctest::Approx(69.48).epsilon(0.001));
  CHECK(lopsided.high == doctest::Approx(516.42).epsilon(0.001));
  CHECK(lopsided.margin == doctest::Approx((lopsided.high - lopsided.low) / 2));
  CHECK(even.low == doctest::Approx(-even.high));
}
