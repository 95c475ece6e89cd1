// The built `moon` program, run as a user would: output format, exit statuses, error messages.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/closest_name.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/version.h"
#include "run_moon.hpp"
#include "machine_memory.hpp"

using namespace moon;

namespace {

using test::lines;
using test::Run;
using test::run_moon;

std::string last_line(const std::string& text) {
  const auto all = lines(text);
  return all.empty() ? "" : all.back();
}

// The divide lines "<move>: <count>" of a perft run, checked to list each move once.
std::map<std::string, unsigned long long> divide_of(const Run& run) {
  std::map<std::string, unsigned long long> entries;
  for (const std::string& line : lines(run.out)) {
    if (line.rfind("Nodes searched: ", 0) == 0) continue;
    const auto colon = line.find(": ");
    REQUIRE_MESSAGE(colon != std::string::npos, line);
    const std::string move = line.substr(0, colon);
    CHECK_MESSAGE(entries.count(move) == 0, "listed twice: " << move);
    entries[move] = std::stoull(line.substr(colon + 2));
  }
  return entries;
}

std::set<std::string> legal_texts(const Position& p) {
  std::set<std::string> texts;
  for (Move m : legal_moves(p)) texts.insert(to_string(m));
  return texts;
}

}  // namespace

TEST_CASE("moon perft prints the node count on its last line" * doctest::test_suite("threads")) {
  const Run run = run_moon("perft 3");
  CHECK(run.status == 0);
  CHECK(last_line(run.out) == "Nodes searched: 12144");
  CHECK(lines(run.out).size() == 1);

  const Run rules = run_moon("perft --slide --diagonal --clock-limit 10 --fen 'xxoox/1o2o/o1x2/2x1x/o1oxo x 0 0 1 19' 3");
  CHECK(rules.status == 0);
  CHECK(last_line(rules.out) == "Nodes searched: 3277");  // tests/data/perft-positions.txt, limit 10 changes nothing at 3

  const Run threads = run_moon("perft --threads 2 --hash 8 5");
  CHECK(threads.status == 0);
  CHECK(last_line(threads.out) == "Nodes searched: 5100480");
  CHECK(last_line(run_moon("perft --threads=3 --hash=1 0").out) == "Nodes searched: 1");
}

TEST_CASE("moon perft --divide lists each root move once, summing to the total; moves after DEPTH follow it" * doctest::test_suite("threads")) {
  struct Case {
    std::string args;
    std::string fen;
    Rules rules;
  };
  const Rules slide{Movement::slide, CaptureLines::orthogonal, 20};
  const Case cases[] = {
      {"perft --divide 3", std::string(start_position_string), {}},
      {"perft --divide --fen '1ooox/1o1xo/3x1/ox1xx/ooxxx o 3 4 0 9' 5", "1ooox/1o1xo/3x1/ox1xx/ooxxx o 3 4 0 9", {}},
      {"perft --divide --slide --threads 2 --fen 'x1ooo/x2x1/xo3/x1x1o/oo1ox x 0 0 0 27' 3",
       "x1ooo/x2x1/xo3/x1x1o/oo1ox x 0 0 0 27", slide},
      {"perft --divide --fen 'xxxxx/xxoxx/oo1oo/ooooo/xooxx x 0 0 0 13' 4", "xxxxx/xxoxx/oo1oo/ooooo/xooxx x 0 0 0 13",
       {}},
  };
  for (const Case& c : cases) {
    INFO(c.args);
    const Run run = run_moon(c.args);
    REQUIRE(run.status == 0);
    const auto entries = divide_of(run);
    const auto position = parse_position(c.fen, c.rules);
    REQUIRE(position.has_value());
    std::set<std::string> listed;
    unsigned long long sum = 0;
    for (const auto& [move, count] : entries) {
      listed.insert(move);
      sum += count;
    }
    CHECK(listed == legal_texts(*position));
    CHECK(lines(run.out).size() == entries.size() + 1);
    CHECK(last_line(run.out) == "Nodes searched: " + std::to_string(sum));
  }
  // The blocked side's only move is the pass.
  const auto entries = divide_of(run_moon("perft --divide --fen 'xxxxx/xxoxx/oo1oo/ooooo/xooxx x 0 0 0 13' 4"));
  CHECK(entries.size() == 1);
  CHECK(entries.count("0000") == 1);
  // Moves after the depth: each line of a divide, followed down, counts what the divide said.
  const std::string fen = "--fen '1ooox/1o1xo/3x1/ox1xx/ooxxx o 3 4 0 9'";
  const auto root = divide_of(run_moon("perft --divide " + fen + " 4"));
  REQUIRE(root.size() >= 2);
  for (const auto& entry : root) {  // not a structured binding: INFO() captures it in a lambda
    const std::string& move = entry.first;
    INFO(move);
    const Run below = run_moon("perft --divide " + fen + " 3 " + move);
    REQUIRE(below.status == 0);
    CHECK(last_line(below.out) == "Nodes searched: " + std::to_string(entry.second));
  }
  const std::string first = root.begin()->first;
  const auto second = divide_of(run_moon("perft --divide " + fen + " 3 " + first));
  REQUIRE_FALSE(second.empty());
  const Run two_moves = run_moon("perft " + fen + " 2 " + first + " " + second.begin()->first);
  CHECK(last_line(two_moves.out) == "Nodes searched: " + std::to_string(second.begin()->second));
  CHECK(last_line(run_moon("perft --fen 'xxxxx/xxoxx/oo1oo/ooooo/xooxx x 0 0 0 13' 3 0000").out) ==
        "Nodes searched: " + std::to_string(entries.at("0000")));
}

TEST_CASE("bad input: exit status 2, the message on standard error, nothing on standard output") {
  struct Case {
    const char* args;
    const char* command;  // the prefix of the message: "moon perft", "moon show" or "moon"
    const char* names;    // a part of the message that names the problem
  };
  const Case cases[] = {
      {"perft --fen 'x/5/5/5/5 x' 3", "moon perft", "rank 5"},
      {"perft --fen '5/5/5/5/5 x 13 13 0 1' 3", "moon perft", "x in hand"},
      {"perft --fen '5/5/2x2/5/5 o 11 12 0 1' 3", "moon perft", "c3"},
      {"perft --fen 'xx3/oo3/5/5/5 x 0 0 11 1' --clock-limit 10 3", "moon perft", "clock"},
      {"perft --fen", "moon perft", "--fen"},
      {"perft 3 --fen", "moon perft", "--fen"},
      {"perft", "moon perft", "DEPTH"},
      {"perft --fen 2", "moon perft", "position string '2' has 1 field"},  // --fen took the depth
      // A flag whose value was forgotten is told so, not handed the next option as its value.
      {"show --fen --slide", "moon show", "--fen needs a value, not the option '--slide'"},
      {"analyze --depth --movetime 5", "moon analyze", "--depth needs a value, not the option '--movetime'"},
      {"perft abc", "moon perft", "DEPTH"},
      {"perft 256", "moon perft", "DEPTH"},
      {"perft 3x", "moon perft", "DEPTH"},
      {"perft 99999999999999999999999", "moon perft", "DEPTH"},
      {"perft -1", "moon perft", "-1"},
      {"perft 3 4", "moon perft", "more than one DEPTH given ('4')"},
      // After the depth, a dash and a digit is no move (it once left perft reading it for ever).
      {"perft 3 -1", "moon perft", "unknown option '-1'"},
      {"perft 3 b4 -5", "moon perft", "unknown option '-5'"},
      {"perft 3 ''", "moon perft", "move 1: '' is not a move"},
      {"perft 3 zz", "moon perft", "move 1: 'zz' is not a move"},
      {"perft 2 b4 b4", "moon perft", "move 2: 'b4' is illegal"},
      {"perft --bogus 3", "moon perft", "--bogus"},
      {"perft --threads 0 3", "moon perft", "--threads"},
      {"perft --threads 257 3", "moon perft", "--threads"},
      {"perft --threads", "moon perft", "--threads"},
      {"perft --hash x 3", "moon perft", "--hash"},
      {"perft --clock-limit 0 3", "moon perft", "--clock-limit"},
      {"perft --clock-limit 256 3", "moon perft", "--clock-limit"},
      // A flag given twice is refused, not silently overridden by its last value.
      {"perft --threads 1 --threads=2 3", "moon perft", "--threads is given more than once"},
      {"perft --fen '5/5/5/5/5 x 12 12 0 1' --fen '5/5/5/5/5 x 12 12 0 1' 2", "moon perft", "--fen is given more"},
      {"analyze --depth 2 --depth 3", "moon analyze", "--depth is given more than once"},
      {"solve --clock-limit 1 --clock-limit 2", "moon solve", "--clock-limit is given more than once"},
      {"match --games 2 --depth 1 --a plain --a full", "moon match", "--a is given more than once"},
      // A flag that takes no value is not taken for itself when given one (--slide=false).
      {"show --slide=false", "moon show", "unknown option '--slide=false' (--slide takes no value)"},
      // Options and other arguments are named as what they are, by every command.
      {"bench --fen x", "moon bench", "unknown option '--fen'"},
      {"match b4", "moon match", "unknown argument 'b4'"},
      {"analyze --depth 1 b4 zz", "moon analyze", "move 2: 'zz' is not a move"},
      {"match --frobnicate", "moon match", "unknown option '--frobnicate'"},
      {"match --fen 'x4/1o3/2x2/5/5 x'", "moon match", "the position to play from is already over"},
      {"perft --divide=no 2", "moon perft", "(--divide takes no value)"},
      {"solve --no-distance=no", "moon solve", "(--no-distance takes no value)"},
      {"solve --quiet=1", "moon solve", "(--quiet takes no value)"},
      {"match --quiet=yes", "moon match", "(--quiet takes no value)"},
      {"play --diagonal=0", "moon play", "(--diagonal takes no value)"},
      {"analyze --help=1", "moon analyze", "(--help takes no value)"},
      // Lists of settings with an empty item are refused, not read as if it were not there.
      {"match --a full:", "moon match", "the feature list '' has an empty item"},
      {"match --a full:+history,", "moon match", "the feature list '+history,' has an empty item"},
      {"match --a-eval ''", "moon match", "the weight list '' has an empty item"},
      {"match --b-eval mobility=3,,material=5", "moon match", "has an empty item"},
      {"bench --engine full:+history,", "moon bench", "has an empty item"},
      {"solve b4 b4", "moon solve", "move 2: "},  // numbered, as moon show does
      // The same largest limits as the protocol's; numbers past int64 refused, not wrapped.
      {"analyze --movetime 1000000000001", "moon analyze", "from 1 to 1000000000000, not '1000000000001'"},
      {"analyze --nodes 9223372036854775808", "moon analyze", "from 1 to 1000000000000000000"},
      {"show c3", "moon show", "c3"},
      {"show b4 b4", "moon show", "occupied"},
      {"show b4 b3c3", "moon show", "in hand"},
      {"show b4x", "moon show", "not a move"},
      {"show --fen 'oo3/5/5/x4/1o1ox x 0 0 4 5' a2a4", "moon show", "one square"},
      {"show --fen 'oo3/5/5/x4/1o1ox x 0 0 4 5' 0000", "moon show", "not blocked"},
      {"show --fen 'oo3/o4/5/x4/1o1ox x 0 0 20 5' a2a3", "moon show", "over"},
      {"show --fen '5/5/5/5/5 q'", "moon show", "side to move"},
      {"show --nonsense", "moon show", "--nonsense"},
      {"frobnicate", "moon", "frobnicate"},
      // A slip of the keyboard away from a name the command knows: the name is suggested.
      {"prft 3", "moon", "unknown command 'prft'; did you mean 'perft'? (see 'moon --help')"},
      {"--verison", "moon", "unknown command '--verison'; did you mean '--version'? (see 'moon --help')"},
      {"--hlep", "moon", "unknown command '--hlep'; did you mean '--help'? (see 'moon --help')"},
      {"hlep", "moon", "unknown command 'hlep'; did you mean 'help'? (see 'moon --help')"},
      {"version", "moon", "unknown command 'version'; did you mean '--version'? (see 'moon --help')"},
      {"perft --devide 3", "moon perft", "unknown option '--devide' (did you mean '--divide'?)"},
      {"analyze --movetim=5", "moon analyze", "unknown option '--movetim=5' (did you mean '--movetime'?)"},
      {"solve -hash 8", "moon solve", "unknown option '-hash' (did you mean '--hash'?)"},
      {"play --diagnoal", "moon play", "(did you mean '--diagonal'?)"},
      {"match --gmaes 2", "moon match", "(did you mean '--games'?)"},
  };
  for (const Case& c : cases) {
    INFO("moon ", c.args);
    const Run run = run_moon(c.args);
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    const auto err = lines(run.err);
    INFO("stderr: ", run.err);
    REQUIRE_FALSE(err.empty());
    // One line with the message; at most a second line, the hint pointing to --help.
    CHECK(err.front().rfind(std::string(c.command) + ": ", 0) == 0);
    CHECK(err.front().find(c.names) != std::string::npos);
    CHECK(err.size() <= 2);
    if (err.size() == 2) CHECK(err.back().find("--help") != std::string::npos);
  }
  // No command at all: the usage on standard error, status 2.
  const Run none = run_moon("");
  CHECK(none.status == 2);
  CHECK(none.out.empty());
  CHECK(none.err.find("Usage") != std::string::npos);
}

TEST_CASE("hash sizes above the machine's memory: one line on standard error, exit status 2" *
          doctest::skip(test::over_memory_mb() == 0)) {
  const std::size_t over = test::over_memory_mb();
  const std::string hash = " --hash " + std::to_string(over);
  struct Case {
    std::string args, command, message;
  };
  // A match holds two engines' tables per concurrent game: each fits, both together do not.
  const std::size_t half = test::meminfo_total_mb() / 2 + 1;
  const Case cases[] = {
      {"solve" + hash, "moon solve", test::over_memory_message(over)},
      {"solve --fen 'xo3/5/5/5/3ox x'" + hash + " --threads 2", "moon solve", test::over_memory_message(over)},
      {"analyze --depth 3" + hash, "moon analyze", test::over_memory_message(over)},
      {"play" + hash, "moon play", test::over_memory_message(over)},
      {"perft 3" + hash, "moon perft", test::over_memory_message(over)},
      {"match --games 2 --hash " + std::to_string(half), "moon match",
       "2 engines (2 per concurrent game) with --hash " + std::to_string(half) + ": " +
           test::over_memory_message(2 * half)},
  };
  for (const Case& c : cases) {
    INFO("moon ", c.args);
    // Were a size not refused, the allocation would fail in the child instead of killing it.
    const Run run = run_moon(c.args, "", test::address_space_limit_prefix());
    CHECK(run.status == 2);
    CHECK(run.out.empty());
    const auto err = lines(run.err);
    INFO("stderr: ", run.err);
    REQUIRE(err.size() == 1);
    CHECK(err[0].rfind(c.command + ": " + c.message + " (see '", 0) == 0);
  }
  // Sizes that fit are still taken.
  const Run fits = run_moon("solve --quiet --hash 1 --fen 'xo3/5/5/5/3ox x 0 0 14 1'");
  CHECK(fits.status == 0);
  CHECK(fits.out.rfind("value ", 0) == 0);
}

#ifndef MOON_SANITIZE_BUILD  // the sanitizers' shadow memory does not fit in the limit
TEST_CASE("moon solve under a limit on the address space: smaller thread stacks, then a clear error") {
  // 64 threads of 256 MiB stacks do not fit in 4 GiB with the table, nor of 128 or 64 MiB: all
  // get 32 MiB. (Until all the threads of a call shared one size, the first took 256 MiB each,
  // and 24 threads were already refused.)
  const Run fits = run_moon("solve --quiet --threads 64 --fen '4x/o4/3o1/o4/2o1x x'", "",
                            test::address_space_limit_prefix());
  CHECK(fits.status == 0);
  const auto out = lines(fits.out);
  REQUIRE(out.size() == 5);  // value, distance, bestmove, nodes, time_ms
  CHECK(out[0] == "value loss");
  CHECK(out[1] == "distance 20");
  // 256 do not fit even at the least stack (16 MiB): a failure of the machine, not of the input
  // (status 1, no pointer to --help), with the reason; nothing solved.
  const Run refused = run_moon("solve --quiet --threads 256 --fen '4x/o4/3o1/o4/2o1x x'", "",
                               test::address_space_limit_prefix());
  CHECK(refused.status == 1);
  CHECK(refused.out.empty());
  INFO("stderr: ", refused.err);
  CHECK(refused.err.rfind("moon solve: cannot make 256 solver threads: cannot start a thread with a 16 MiB stack: ", 0) == 0);
  CHECK(lines(refused.err).size() == 1);
  CHECK(refused.err.find("--help") == std::string::npos);
}

TEST_CASE("threads the system will not start: analyze, bench and play fail with status 1 and the reason" *
          doctest::skip(!test::default_thread_stacks_take_2_mib())) {
  // 200 MB of address space does not hold 256 threads' stacks of 2 MiB or more.
  for (const char* args : {"analyze --threads 256 --hash 1 --depth 2", "bench --threads 256 --depth-offset -8"}) {
    INFO("moon ", args);
    const Run run = run_moon(args, "", "ulimit -v 200000; ");
    CHECK(run.status == 1);
    INFO("stderr: ", run.err);
    CHECK(run.err.find("cannot start the 255 helper threads of a 256-thread search (") != std::string::npos);
    CHECK(run.err.find("--help") == std::string::npos);
  }
  // play fails when its engine is to move, and prints the game so far first.
  const Run play = run_moon("play --threads 256 --depth 2", "b4\n", "ulimit -v 200000; ");
  CHECK(play.status == 1);
  CHECK(play.out.find("replay: moon show --fen '5/5/5/5/5 x 12 12 0 1' b4\n") != std::string::npos);
  CHECK(play.err.find("moon play: cannot start the 255 helper threads of a 256-thread search (") != std::string::npos);
}
#endif

TEST_CASE("more search threads than the cores the program may use: analyze and play say so, once") {
  // Pinned to one core (the affinity, not the machine's count, is what the threads get).
  const std::string one_core = "taskset -c 0 ";
  const std::string note = " note: 2 threads on 1 core: the first thread, which alone completes iterations, gets a "
                           "core only in turn with the others, so searches may go less deep than with 1 thread "
                           "(docs/SEARCH.md, \"More threads than cores\")\n";
  const Run analyze = run_moon("analyze --threads 2 --depth 2", "", one_core);
  CHECK(analyze.status == 0);
  CHECK(analyze.err == "analyze:" + note);
  const Run play = run_moon("play --threads 2 --depth 1", "b4\n", one_core);
  CHECK(play.err.rfind("play:" + note, 0) == 0);
  CHECK(play.err.find("note:", 1) == play.err.find(" note:") + 1);  // once
  // As many threads as cores, or fewer: nothing.
  for (const char* args : {"analyze --threads 1 --depth 2", "play --threads 1 --depth 1"}) {
    INFO("moon ", args);
    CHECK(run_moon(args, "b4\n", one_core).err.find("note:") == std::string::npos);
  }
  CHECK(run_moon("analyze --threads 2 --depth 2", "", "taskset -c 0,1 ").err.find("note:") == std::string::npos);
}

TEST_CASE("output that cannot be written is a failure: a message and exit status 1") {
  if (!std::filesystem::exists("/dev/full")) return;  // a device that is always full (Linux)
  const auto err = std::filesystem::temp_directory_path() / ("moon_test_full_" + std::to_string(getpid()));
  for (const char* args : {"perft 2", "show b4", "--help"}) {
    INFO("moon ", args);
    const std::string command =
        std::string("'") + MOON_PROGRAM + "' " + args + " >/dev/full 2>'" + err.string() + "' </dev/null";
    const int raw = std::system(command.c_str());
    CHECK((raw != -1 && WIFEXITED(raw) && WEXITSTATUS(raw) == 1));
    CHECK(test::read_whole_file(err).find("moon: cannot write to standard output") != std::string::npos);
  }
  std::filesystem::remove(err);
}

TEST_CASE("input that cannot be read is a failure, not the end of the input") {
  // Standard input a directory: every read fails (EISDIR), where end of input would end play
  // and protocol with status 0.
  const auto base = std::filesystem::temp_directory_path() / ("moon_test_unreadable_" + std::to_string(getpid()));
  const std::string out = base.string() + ".out", err = base.string() + ".err";
  const auto run_on_directory = [&](const std::string& args) {
    const std::string command = std::string("'") + MOON_PROGRAM + "' " + args + " </ >'" + out + "' 2>'" + err + "'";
    const int raw = std::system(command.c_str());
    return raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  };
  // play: the game so far is kept (its replay line), as at the end of the input.
  CHECK(run_on_directory("play --depth 1 b4") == 1);
  CHECK(test::read_whole_file(out).find("\ngame abandoned\nreplay: moon show --fen '5/5/5/5/5 x 12 12 0 1' b4 ") !=
        std::string::npos);
  CHECK(test::read_whole_file(err).rfind("moon play: cannot read standard input: ", 0) == 0);
  // protocol: an error line, as every error is said there.
  CHECK(run_on_directory("protocol") == 1);
  CHECK(test::read_whole_file(out).rfind("info string error: cannot read standard input: ", 0) == 0);
  for (const auto& f : {out, err}) std::filesystem::remove(f);
}

TEST_CASE("--version prints the version") {
  const Run run = run_moon("--version");
  CHECK(run.status == 0);
  CHECK(run.out.rfind("moon " + std::to_string(MOON_VERSION_MAJOR) + "." + std::to_string(MOON_VERSION_MINOR) + "." +
                          std::to_string(MOON_VERSION_PATCH),
                      0) == 0);
  CHECK(run.out.find("unknown") == std::string::npos);
  CHECK(lines(run.out).size() == 1);
  const Run extra = run_moon("--version 2");
  CHECK(extra.status == 2);
  CHECK(extra.out.empty());
  CHECK(extra.err == "moon: --version takes no arguments (got '2'; see 'moon --help')\n");
  // `moon help --version` says what it does.
  const Run help = run_moon("help --version");
  CHECK(help.status == 0);
  CHECK(help.out == "moon --version prints the program's version: " + run.out);
}

TEST_CASE("--help exits 0 and prints the usage") {
  for (const char* args : {"--help", "-h", "perft --help", "show --help", "perft --help 3"}) {
    INFO("moon ", args);
    const Run run = run_moon(args);
    CHECK(run.status == 0);
    CHECK(run.out.find("Usage") != std::string::npos);
    CHECK(run.err.empty());
  }
  CHECK(run_moon("--help").out.find("perft") != std::string::npos);
  CHECK(run_moon("perft --help").out.find("--divide") != std::string::npos);
  // `moon help COMMAND` (or `moon --help COMMAND`) is that command's help.
  CHECK(run_moon("help solve").out == run_moon("solve --help").out);
  CHECK(run_moon("--help match").out == run_moon("match --help").out);
  const Run unknown = run_moon("help solver");
  CHECK(unknown.status == 2);
  CHECK(unknown.err == "moon: unknown command 'solver'; did you mean 'solve'? (see 'moon --help')\n");
  // Nothing suggested where no known name is that close, or where the option's trouble is
  // another (a value given to a flag that takes none).
  for (const char* args : {"frobnicate", "help xyz", "perft --bogus 3", "perft 3 -1", "match --frobnicate",
                           "match --c 1", "show --slide=false", "bench --fen x"}) {
    INFO("moon ", args);
    const Run run = run_moon(args);
    CHECK(run.status == 2);
    CHECK(run.err.find("did you mean") == std::string::npos);
  }
  CHECK(run_moon("help perft show").status == 2);
  for (const char* args : {"help help", "help --help", "--help -h", "-h help"}) {
    INFO("moon ", args);
    const Run run = run_moon(args);
    CHECK(run.status == 0);
    CHECK(run.out == run_moon("--help").out);
  }
}

TEST_CASE("moon show plays the moves and lists the legal moves with their captures") {
  const Run run = run_moon("show --fen '2x1o/2o2/xo1x1/2o2/2x1o x 0 0 0 9'");
  REQUIRE(run.status == 0);
  CHECK(run.out.find("position: 2x1o/2o2/xo1x1/2o2/2x1o x 0 0 0 9") != std::string::npos);
  CHECK(run.out.find("legal moves (10):") != std::string::npos);
  CHECK(run.out.find("d3c3  captures c2 b3 c4") != std::string::npos);
  const Run played = run_moon("show --fen '2x1o/2o2/xo1x1/2o2/2x1o x 0 0 0 9' d3c3");
  REQUIRE(played.status == 0);
  CHECK(played.out.find("position: 2x1o/5/x1x2/5/2x1o o 0 0 0 9") != std::string::npos);
}

TEST_CASE("the name a mistyped word meant: edits counted, only close names suggested") {
  using cli::closest_name;
  using cli::edit_distance;
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("perft", "perft") == 0);
  CHECK(edit_distance("prft", "perft") == 1);      // a letter left out
  CHECK(edit_distance("perfft", "perft") == 1);    // one too many
  CHECK(edit_distance("porft", "perft") == 1);     // one wrong
  CHECK(edit_distance("sovle", "solve") == 1);     // two swapped
  CHECK(edit_distance("kitten", "sitting") == 3);  // the textbook case
  CHECK(edit_distance("sitting", "kitten") == 3);
  CHECK(edit_distance("ca", "abc") == 3);  // a swapped pair is not edited again
  CHECK(edit_distance("--hash", "--hahs") == 1);

  const std::vector<std::string_view> commands = {"perft", "show", "solve", "analyze", "bench", "match", "play"};
  CHECK(closest_name("prft", commands) == "perft");
  CHECK(closest_name("solver", commands) == "solve");
  CHECK(closest_name("analyse", commands) == "analyze");
  CHECK(closest_name("plya", commands) == "play");
  CHECK_FALSE(closest_name("perft", commands));     // the name itself is no suggestion
  CHECK_FALSE(closest_name("frobnicate", commands));
  CHECK_FALSE(closest_name("", commands));
  CHECK_FALSE(closest_name("x", commands));
  CHECK_FALSE(closest_name("sh", commands));        // two edits from "show", but too short for two
  CHECK(closest_name("shw", commands) == "show");   // one edit in four letters: close enough
  CHECK_FALSE(closest_name("bnch", std::vector<std::string_view>{}));
  CHECK_FALSE(closest_name(std::string(100000, 'p'), commands));  // long: refused at a glance
  // The nearest wins, the first listed among equals.
  const std::vector<std::string_view> flags = {"--depth", "--nodes", "--movetime", "--fen", "--hash"};
  CHECK(closest_name("--deptj", flags) == "--depth");
  CHECK(closest_name("--fan", flags) == "--fen");
  CHECK(closest_name("--has", flags) == "--hash");
  CHECK(closest_name("--nex", std::vector<std::string_view>{"--nfx", "--mex"}) == "--nfx");
  CHECK(closest_name("--nodse", flags) == "--nodes");
  // The dashes are not letters: a word of one or two letters after them is too short for an edit
  // ("--c" is not "--a"), but one that differs from a name in dashes alone is that name.
  const std::vector<std::string_view> short_flags = {"--a", "--b", "--ab", "-h", "--quiet"};
  CHECK_FALSE(closest_name("--c", short_flags));
  CHECK_FALSE(closest_name("--ac", short_flags));
  CHECK_FALSE(closest_name("-1", short_flags));
  CHECK(closest_name("--h", short_flags) == "-h");
  CHECK(closest_name("-a", short_flags) == "--a");
  CHECK(closest_name("--qiet", short_flags) == "--quiet");
  CHECK(cli::without_dashes("--hash") == "hash");
  CHECK(cli::without_dashes("--") == "");
  CHECK(cli::without_dashes("x") == "x");
}
