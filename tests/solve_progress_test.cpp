// moon solve's progress on standard error (cli/solve_progress.hpp): a line per question with its
// counts redrawn in place on a terminal, fewer lines in a log; and the real program on a
// pseudo-terminal, Ctrl-C's notice included.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "child_process.hpp"
#include "cli/solve_progress.hpp"
#include "run_moon.hpp"

namespace moon::test {
namespace {

using cli::SolveProgress;
using namespace std::chrono_literals;

const std::string first = "decided within 1 ply? value between loss in 1 and win in 1";
const std::string second = "decided within 2 plies? value between loss in 2 and win in 2";
const std::string redraw = "\r\033[K";

std::string counts(int nodes) { return std::to_string(nodes) + " nodes, 1.0 Mn/s, 1.0 s, table 5 permille"; }
std::string line(const std::string& question, int nodes) { return question + " | " + counts(nodes); }

TEST_CASE("solve progress in a log: a line when the question changes, else one every interval") {
  std::ostringstream out;
  SolveProgress progress(out, "solve: ", {}, 10s);
  const SolveProgress::Clock::time_point t0{};
  progress.report("making the 256 MiB table", t0);
  progress.report(line(first, 0), t0);
  progress.report(line(first, 1), t0 + 1s);   // same question, too soon: left out
  progress.report(line(first, 9), t0 + 9s);   // still too soon
  progress.report(line(first, 10), t0 + 10s);  // the interval has passed
  progress.report(line(first, 11), t0 + 11s);
  progress.report(line(second, 12), t0 + 12s);  // a new question: at once
  progress.report(line(second, 13), t0 + 13s);
  progress.report(line(first, 14), t0 + 14s);   // back to the first: a change too
  progress.notice("moon solve: interrupted\n");
  progress.finish();  // nothing to end in a log
  CHECK(out.str() == "solve: making the 256 MiB table\n"
                     "solve: " + line(first, 0) + "\n"
                     "solve: " + line(first, 10) + "\n"
                     "solve: " + line(second, 12) + "\n"
                     "solve: " + line(first, 14) + "\n"
                     "moon solve: interrupted\n");
  CHECK(out.str().find('\r') == std::string::npos);
}

TEST_CASE("solve progress on a terminal: the question on a line, its counts redrawn beneath") {
  std::ostringstream out;
  int columns = 100;
  SolveProgress progress(out, "solve: ", [&columns] { return columns; });
  progress.report(line(first, 0));
  CHECK(out.str() == "solve: " + first + "\n" + redraw + "solve:   " + counts(0));
  out.str("");
  progress.report(line(first, 4194304));  // the same question: only the counts, in place
  CHECK(out.str() == redraw + "solve:   " + counts(4194304));
  out.str("");
  progress.report(line(second, 8388608));  // a new one: the last counts kept, the question below
  CHECK(out.str() == "\nsolve: " + second + "\n" + redraw + "solve:   " + counts(8388608));
  out.str("");

  SUBCASE("no wider than the terminal, which may change size") {
    columns = 30;
    progress.report(line(second, 12582912));
    CHECK(out.str() == redraw + ("solve:   " + counts(12582912)).substr(0, 29));
    out.str("");
    columns = 0;  // unknown: 80 assumed
    const std::string wide = std::string(100, 'n') + " nodes";
    progress.report(second + " | " + wide);
    CHECK(out.str() == redraw + ("solve:   " + wide).substr(0, 79));
  }
  SUBCASE("a line without counts ends the counts line and stands alone") {
    progress.report("table made in 1.0 s");
    CHECK(out.str() == "\nsolve: table made in 1.0 s\n");
    out.str("");
    progress.report(line(second, 1));  // its question written again after it
    CHECK(out.str() == "solve: " + second + "\n" + redraw + "solve:   " + counts(1));
  }
  SUBCASE("the interrupt's notice on a line of its own; the counts go on beneath it") {
    progress.notice("moon solve: interrupted, stopping (Ctrl-C again to quit at once)\n");
    CHECK(out.str() == "\nmoon solve: interrupted, stopping (Ctrl-C again to quit at once)\n");
    out.str("");
    progress.report(line(second, 2));
    CHECK(out.str() == redraw + "solve:   " + counts(2));
  }
  SUBCASE("finish ends the counts line, once") {
    progress.finish();
    progress.finish();
    CHECK(out.str() == "\n");
  }
}

TEST_CASE("solve progress: reports and a notice from other threads never split a line") {
  std::ostringstream out;
  SolveProgress progress(out, "solve: ", [] { return 200; });
  std::atomic<bool> done{false};
  std::thread reporter([&] {
    for (int i = 0; i < 2000; ++i) progress.report(line(i % 7 ? first : second, i));
    done = true;
  });
  int notices = 0;
  while (!done) {
    progress.notice("notice\n");
    ++notices;
    std::this_thread::yield();
  }
  reporter.join();
  progress.finish();
  // Every notice whole, at the start of a line; every other line a question or a counts line.
  int seen = 0;
  for (const std::string& l : lines(out.str())) {
    if (l == "notice") {
      ++seen;
      continue;
    }
    const bool question = l == "solve: " + first || l == "solve: " + second;
    const bool counts_line = l.starts_with(redraw + "solve:   ") && l.find("notice") == std::string::npos;
    CHECK_MESSAGE((question || counts_line), l);
  }
  CHECK(seen == notices);
}

// The program on a pseudo-terminal, as a person runs it: standard output and error share it.
// Null, with a note, on a machine that has none to give (the case is then left out).
std::unique_ptr<ChildProcess> on_terminal(const std::vector<std::string>& argv) {
  std::string why;
  auto program = start_unless_no_terminal(argv, ChildProcess::Input::pipe, ChildProcess::Output::terminal, why);
  if (!program) MESSAGE("left out: " << why);
  return program;
}

TEST_CASE("moon solve on a terminal: a line per question, counts redrawn, the result on lines of its own") {
  const auto terminal = on_terminal({MOON_PROGRAM, "solve", "--fen", "4x/5/xo2o/3x1/2x2 x"});
  if (!terminal) return;
  ChildProcess& program = *terminal;
  // Up to the last line, "solve: N nodes in T s, M Mn/s".
  const auto screen = program.read_until(
      [](const std::string& l) { return l.starts_with("solve: ") && l.find(" nodes in ") != std::string::npos; },
      std::chrono::seconds(120));
  REQUIRE(program.wait(std::chrono::seconds(60)) == 0);
  // The question, its counts (ended by a newline before the result), the result.
  REQUIRE(screen.size() >= 8);
  CHECK(screen[0] == "solve: " + first);
  CHECK(screen[1].starts_with(redraw + "solve:   0 nodes, "));
  const auto value = std::find(screen.begin(), screen.end(), "value win");
  REQUIRE(value != screen.end());
  CHECK(*(value + 1) == "distance 13");
  CHECK((value + 2)->starts_with("bestmove "));
  CHECK((value + 3)->starts_with("nodes "));
  CHECK((value + 4)->starts_with("time_ms "));
  REQUIRE(value + 5 != screen.end());
  CHECK((value + 5)->starts_with("solve: " + (value + 3)->substr(6) + " nodes in "));
  // Only counts lines are redrawn.
  for (const std::string& l : screen)
    if (l.find('\r') != std::string::npos) CHECK(l.starts_with(redraw + "solve:   "));
}

TEST_CASE("moon solve on a terminal, stopped by Ctrl-C: the notice and the error on lines of their own") {
  const auto terminal = on_terminal({MOON_PROGRAM, "solve"});
  if (!terminal) return;
  ChildProcess& program = *terminal;
  // The start is far out of reach: its counts line is being redrawn when Ctrl-C comes.
  REQUIRE(program.wait_for_text(redraw + "solve:   ", std::chrono::seconds(60)));
  program.interrupt();
  const auto screen = program.read_until_prefix("moon solve: the solve", std::chrono::seconds(120));
  CHECK(program.wait(std::chrono::seconds(60)) == 130);
  REQUIRE(!screen.empty());
  CHECK(screen.back() == "moon solve: the solve was stopped before the proof was complete");
  CHECK(std::find(screen.begin(), screen.end(),
                  "moon solve: interrupted, stopping (Ctrl-C again to quit at once)") != screen.end());
  CHECK(std::none_of(screen.begin(), screen.end(), [](const std::string& l) { return l.starts_with("value "); }));
}

}  // namespace
}  // namespace moon::test
