// Scripted sessions against the real `moon protocol` process, through pipes.
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"

using namespace moon;
using moon::test::ChildProcess;
using namespace std::chrono_literals;

namespace {

// Generous: the suite also runs under sanitizers on a loaded machine. Nothing below waits for
// it unless something is broken.
constexpr std::chrono::milliseconds patience = 30s;

class Protocol : public ChildProcess {
 public:
  Protocol() : ChildProcess({MOON_PROGRAM, "protocol"}) {}

  // Lines up to the first that starts with `prefix`; fails the test if it does not come.
  std::vector<std::string> until(std::string_view prefix) {
    auto lines = read_until_prefix(prefix, patience);
    REQUIRE_MESSAGE((!lines.empty() && lines.back().starts_with(prefix)), "no line starting with " << prefix);
    return lines;
  }

  // Ends the session with quit and checks that the program exits with status 0.
  void quit() {
    send("quit");
    CHECK(wait(patience) == 0);
  }
};

Position play(std::vector<std::string> moves, Position pos = Position::start()) {
  for (const std::string& m : moves) {
    const auto move = parse_move(m, pos);
    REQUIRE(move.has_value());
    pos.play(*move);
  }
  return pos;
}

std::string move_of(const std::string& bestmove_line) { return bestmove_line.substr(std::string("bestmove ").size()); }

std::int64_t ms_since(ChildProcess::Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(ChildProcess::Clock::now() - start).count();
}

}  // namespace

TEST_CASE("session: handshake, a position with moves, a search, quit") {
  Protocol p;
  p.send("umi");
  const auto hello = p.until("umiok");
  REQUIRE(hello.size() >= 8);
  CHECK(hello[0].starts_with("id name moon"));
  CHECK(hello[1].starts_with("id author"));
  for (std::string_view name : {"Hash", "Threads", "Movement", "Diagonal Captures", "Clock Limit"})
    CHECK(std::count_if(hello.begin(), hello.end(), [&](const std::string& l) {
            return l.starts_with("option name " + std::string(name) + " type ");
          }) == 1);
  p.send("isready");
  CHECK(p.until("readyok").size() == 1);
  p.send("setoption name Hash value 4");
  p.send("uminewgame");
  p.send("position startpos moves b4 c4 d4");
  p.send("d");
  const auto board = p.until("rules:");
  // x on b4 and d4, o on c4: rank 4 reads ".xox.", o to move with 11 in hand, x with 10.
  CHECK(std::find(board.begin(), board.end(), "position: 5/1xox1/5/5/5 o 10 11 0 2") != board.end());

  p.send("go depth 4");
  const auto search = p.until("bestmove");
  REQUIRE(search.size() == 6);  // one info line per iteration, the totals, then bestmove
  for (std::size_t i = 0; i < 4; ++i)
    CHECK(search[i].starts_with("info depth " + std::to_string(i + 1) + " score "));
  CHECK(search[4].starts_with("info nodes "));
  const Position pos = play({"b4", "c4", "d4"});
  CHECK(parse_move(move_of(search.back()), pos).has_value());
  p.quit();
}

TEST_CASE("session: go infinite answers isready at once and ends with stop") {
  Protocol p;
  p.send("position startpos moves a1 e5");
  p.send("go infinite");
  p.send("isready");
  const auto before = p.until("readyok");
  for (const std::string& line : before) CHECK_FALSE(line.starts_with("bestmove"));
  p.send("stop");
  const auto after = p.until("bestmove");
  CHECK(parse_move(move_of(after.back()), play({"a1", "e5"})).has_value());
  p.send("isready");
  CHECK(p.until("readyok").size() == 1);  // exactly one bestmove: nothing else came
  p.quit();
}

// The sessions of the suite "timing" play on the clock and time each move from the frontend's
// side of the pipes. What they check is behaviour: every move comes, legal, whatever the clock.
// How long a move took is reported (doctest's WARN), not checked: it measures the machine's load
// as much as the engine (a move on a 2 s clock once took 398 ms there, where the engine had
// planned at most 116). The plan itself is checked without a clock in time_budget_test.cpp.

TEST_CASE("session: a game on the clock, 2 s each: every move comes, legal; each is timed" *
          doctest::test_suite("timing")) {
  // The first 30 plies (placement and the start of the movement phase). The engine plans a small
  // share of its clock per move, so a move that took half of the clock, or all of it, is
  // reported (WARN, above): checked, every move's coming and legality.
  Protocol p;
  std::int64_t clock[2] = {2000, 2000};
  std::vector<std::string> moves;
  Position pos = Position::start();
  while (!pos.is_over() && moves.size() < 30) {
    std::string position = "position startpos moves";
    for (const std::string& m : moves) position += " " + m;
    p.send(position);
    const auto start = ChildProcess::Clock::now();
    p.send("go xtime " + std::to_string(clock[x]) + " otime " + std::to_string(clock[o]));
    const auto answer = p.until("bestmove");
    const std::int64_t used = ms_since(start);
    const Color side = pos.side_to_move();
    CAPTURE(moves.size());
    CAPTURE(clock[side]);
    CAPTURE(used);
    WARN(used < clock[side] / 2);
    WARN(used < clock[side]);
    clock[side] = std::max<std::int64_t>(clock[side] - used, 1);  // the clock goes on even so
    const auto move = parse_move(move_of(answer.back()), pos);
    REQUIRE(move.has_value());
    pos.play(*move);
    moves.push_back(move_of(answer.back()));
  }
  p.quit();
}

TEST_CASE("session: with 300 ms left a legal move comes; it is timed" * doctest::test_suite("timing")) {
  Protocol p;
  for (const char* position : {"startpos", "fen xx1xo/x1xo1/1xooo/xx2o/xxo1o o 0 0 12 30",
                               "fen 1ooox/1o1xo/3x1/ox1xx/ooxxx o 3 4 0 9"}) {
    CAPTURE(position);
    p.send(std::string("position ") + position);
    const auto start = ChildProcess::Clock::now();
    p.send("go xtime 300 otime 300 xinc 0 oinc 0");
    const auto answer = p.until("bestmove");
    WARN(ms_since(start) < 300);
    const auto pos = parse_position(position == std::string("startpos") ? std::string(start_position_string)
                                                                       : std::string(position).substr(4));
    REQUIRE(pos.has_value());
    CHECK(parse_move(move_of(answer.back()), *pos).has_value());
  }
  p.quit();
}

TEST_CASE("session: a forced move on the clock is played at once" * doctest::test_suite("timing")) {
  Protocol p;
  p.send("position fen 5/5/5/oo3/xxo2 x");  // x is blocked: its only move is the pass
  const auto start = ChildProcess::Clock::now();
  p.send("go xtime 100000 otime 100000");
  const auto answer = p.until("bestmove");
  CHECK(answer.back() == "bestmove 0000");
  CHECK(std::none_of(answer.begin(), answer.end(), [](const std::string& l) { return l.starts_with("info depth"); }));
  // A 100 s clock would otherwise give this move seconds.
  WARN(ms_since(start) < 1000);
  p.quit();
}

TEST_CASE("session: every kind of malformed line is answered with one error; the engine goes on") {
  Protocol p;
  p.send("position startpos moves b4");
  const std::vector<std::string> bad = {
      "hello",
      "umi now",
      "position",
      "position startpos moves b4 b4",
      "position fen 5/5/5/5 x 12 12 0 1",
      "position fen 5/5/5/5/5 x 12 12 0 1 extra",
      "position fen 5/5/5/5/5 y 12 12 0 1",
      "position fen 5/5/5/5/5 x 13 13 0 1",
      "position fen 5/5/5/5/5 x 12 12 0 0",
      "position fen 5/5/5/5/5 x 12 12 0 1 moves c3",
      "go depth",
      "go depth many",
      "go nodes -5",
      "go movetime 0",
      "go xtime 100",  // o is to move: its clock is missing
      "go wtime 100 btime 100",
      "go ponder",
      "go infinite depth 2",
      "go perft",
      "go perft 2 nodes 5",
      "setoption name",
      "setoption name NoSuchOption value 1",
      "setoption name Threads value 1000",
      "setoption name Clock Limit value twenty",
      "setoption name Diagonal Captures value maybe",
      std::string("\x1b[2J\x07"),
      std::string("go\tdepth\t\x7f"),
      std::string(3 << 20, 'x'),  // longer than any line the engine accepts
  };
  for (const std::string& line : bad) p.send(line);
  p.send("isready");
  const auto answers = p.until("readyok");
  REQUIRE(answers.size() == bad.size() + 1);
  for (std::size_t i = 0; i < bad.size(); ++i) {
    CAPTURE(bad[i].substr(0, 40));
    CHECK(answers[i].starts_with("info string error: "));
  }
  p.send("d");
  const auto board = p.until("rules:");
  CHECK(std::find(board.begin(), board.end(), "position: 5/1x3/5/5/5 o 11 12 0 1") != board.end());
  CHECK(board.back() == "rules: step movement, orthogonal captures, clock limit 20");
  p.quit();
}

TEST_CASE("session: go perft prints the divide and the total") {
  Protocol p;
  p.send("go perft 4");
  const auto lines = p.until("Nodes searched:");
  CHECK(lines.size() == 25);
  CHECK(lines.back() == "Nodes searched: " + std::to_string(24 * 23 * 22 * 21));  // 24!/20! (RULES.md)
  p.quit();
}

#ifndef MOON_SANITIZE_BUILD  // the sanitizers' shadow memory leaves no address-space limit to set
namespace {

// The program's address space in bytes (VmSize), 0 if /proc does not say.
unsigned long long address_space_bytes(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("VmSize:")) return std::stoull(line.substr(7)) * 1024;
  return 0;
}

}  // namespace

TEST_CASE("session: a go whose thread the system will not start says so and still ends with its bestmove") {
  // A limit on processes does not hold root, as whom the tests may run; a limit on address
  // space, no room for a thread's stack (megabytes), refuses the thread for anyone. Set on the running program
  // (prlimit), after its start, so that its own start is not held by it; a fresh process has no
  // stack of an ended thread to reuse.
  Protocol p;
  p.send("position fen 4x/5/xo2o/3x1/2x2 x");  // x to move: a win in 13 (solves_the_win_in_13)
  p.send("isready");
  p.until("readyok");
  const unsigned long long used = address_space_bytes(p.pid());
  REQUIRE(used > 0);
  rlimit tight{};
  REQUIRE(prlimit(p.pid(), RLIMIT_AS, nullptr, &tight) == 0);
  const rlimit saved = tight;
  tight.rlim_cur = rlim_t(used + (1ull << 20));  // 1 MiB to spare
  REQUIRE(prlimit(p.pid(), RLIMIT_AS, &tight, nullptr) == 0);

  const std::string refused = "the system would not start the ";
  p.send("go depth 3");
  auto lines = p.until("bestmove");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].starts_with("info string error: go: " + refused + "search's thread ("));
  CHECK(lines[1] == "bestmove " + to_string(legal_moves(*parse_position("4x/5/xo2o/3x1/2x2 x"))[0]));
  p.send("go infinite");  // answered at once: there is nothing to stop
  lines = p.until("bestmove");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].starts_with("info string error: go: " + refused + "search's thread ("));
  p.send("go solve");
  lines = p.until("bestmove");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].starts_with("info string error: go solve: " + refused + "solve's thread ("));
  CHECK(lines[1] == "bestmove (none)");
  p.send("go perft 2");
  p.send("isready");
  lines = p.until("readyok");
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].starts_with("info string error: go perft: " + refused + "perft's thread ("));

  // Idle all along: once the system gives threads again, the engine searches and solves.
  REQUIRE(prlimit(p.pid(), RLIMIT_AS, &saved, nullptr) == 0);
  p.send("go depth 3");
  lines = p.until("bestmove");
  CHECK(lines.size() == 5);  // three iterations, the totals, bestmove
  p.send("go solve");
  lines = p.until("bestmove");
  CHECK(std::any_of(lines.begin(), lines.end(),
                    [](const std::string& line) { return line.starts_with("info solve value win distance 13 "); }));
  CHECK(lines.back() == "bestmove c1c2");
  p.quit();
}
#endif

TEST_CASE("session: the end of input during a search gives bestmove and exit status 0") {
  Protocol p;
  p.send("go infinite");
  p.close_input();
  CHECK(!p.until("bestmove").empty());
  CHECK(p.wait(patience) == 0);
}

TEST_CASE("session: quit during a search, and the end of input when idle, exit with status 0") {
  {
    Protocol p;
    p.send("go infinite");
    p.quit();
  }
  {
    Protocol p;
    p.send("isready");
    p.close_input();
    CHECK(p.until("readyok").size() == 1);
    CHECK(p.wait(patience) == 0);
  }
}

TEST_CASE("session: moon protocol takes no arguments") {
  {
    ChildProcess p({MOON_PROGRAM, "protocol", "--help"});
    const auto lines = p.read_until([](const std::string&) { return false; }, patience);
    REQUIRE(!lines.empty());
    CHECK(lines.front().starts_with("Usage: moon protocol"));
    CHECK(p.wait(patience) == 0);
  }
  {
    ChildProcess p({MOON_PROGRAM, "protocol", "extra"}, true);  // standard error too
    const auto lines = p.read_until([](const std::string&) { return false; }, patience);
    CHECK(lines == std::vector<std::string>{"moon protocol: takes no arguments; commands come on standard input "
                                            "(see 'moon protocol --help')"});
    CHECK(p.wait(patience) == 2);
  }
}
