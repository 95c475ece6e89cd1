// The engine protocol driven in-process: protocol::Engine over string streams.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/perft.hpp"
#include "moon/solver.hpp"
#include "protocol/commands.hpp"
#include "protocol/engine.hpp"
#include "machine_memory.hpp"
#include "text_lines.hpp"

using namespace moon;
using namespace moon::protocol;

namespace {

// The lines again as one text, each ending in a newline: for searches and failure messages.
std::string text_of(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  return text;
}

// An engine writing into a string; output() is read only while no task runs.
class Session {
 public:
  Session() : engine_(out_) {}

  // Sends the lines, waits for a task they started to end by itself, returns the new output.
  std::vector<std::string> send(const std::vector<std::string>& lines) {
    for (const std::string& line : lines) handle(line);
    engine_.wait();
    return take();
  }
  // Sends a line that must start nothing: true if no task runs after it (one that does is
  // stopped, so that a line wrongly taken fails here instead of hanging the test).
  bool starts_nothing(const std::string& line) {
    handle(line);
    if (engine_.wait_for(std::chrono::milliseconds(0))) return true;
    handle("stop");
    engine_.wait();
    return false;
  }
  std::vector<std::string> send(const std::string& line) { return send(std::vector<std::string>{line}); }
  // One line, not waited for; false if it ended the session, as quit() then says.
  bool handle(const std::string& line) {
    const bool goes_on = engine_.handle(line);
    quit_ |= !goes_on;
    return goes_on;
  }
  bool quit() const { return quit_; }  // a line sent ended the session

  std::vector<std::string> take() {
    const std::string all = out_.str();
    std::string fresh = all.substr(read_);
    read_ = all.size();
    return test::lines(fresh);
  }

  // The position string the engine holds, from `d`.
  std::string position() {
    for (const std::string& line : send("d"))
      if (line.rfind("position: ", 0) == 0) return line.substr(10);
    FAIL("d printed no position line");
    return {};
  }

 private:
  std::ostringstream out_;
  Engine engine_;
  std::size_t read_ = 0;
  bool quit_ = false;
};

bool is_error(const std::string& line) { return line.rfind("info string error: ", 0) == 0; }

bool is_number(std::string_view word, bool may_be_negative = false) {
  if (may_be_negative && !word.empty() && word[0] == '-') word.remove_prefix(1);
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The engine still solves: the 4 v 2 win in 13, proven to its distance.
void solves_the_win_in_13(Session& s) {
  s.send("position fen 4x/5/xo2o/3x1/2x2 x");
  const auto solved = s.send("go solve");
  REQUIRE(solved.size() >= 2);
  CHECK(solved[solved.size() - 2].rfind("info solve value win distance 13 ", 0) == 0);
}

// The depth of a well-formed line `info depth D score (cp N|win N|loss N|draw) nodes N nps N
// time N hashfull N pv <moves>`, or -1. With `multipv`, the line must have "multipv K" after the
// depth, and K is written there; `first_move` gets the principal variation's first move.
int info_depth(const std::string& line, const Position& pos, int* multipv = nullptr,
               std::string* first_move = nullptr) {
  const auto words = split_words(line);
  std::size_t i = 0;
  auto take = [&](std::string_view expected) { return i < words.size() && words[i++] == expected; };
  auto number = [&](bool negative = false) { return i < words.size() && is_number(words[i++], negative); };
  if (!take("info") || !take("depth") || !number()) return -1;
  const int depth = std::stoi(std::string(words[2]));
  if (multipv) {  // "multipv K" expected after the depth
    if (!take("multipv") || !number()) return -1;
    *multipv = std::stoi(std::string(words[4]));
  }
  if (!take("score") || i >= words.size()) return -1;
  const std::string_view kind = words[i++];
  if (kind == "cp") {
    if (!number(true)) return -1;
  } else if (kind == "win" || kind == "loss") {
    if (!number()) return -1;
  } else if (kind != "draw") {
    return -1;
  }
  for (std::string_view field : {"nodes", "nps", "time", "hashfull"})
    if (!take(field) || !number()) return -1;
  if (!take("pv") || i == words.size()) return -1;
  if (first_move) *first_move = std::string(words[i]);
  Position p = pos;  // the principal variation is a line of legal moves
  for (; i < words.size(); ++i) {
    const auto move = parse_move(words[i], p);
    if (!move) return -1;
    p.play(*move);
  }
  return depth;
}

// The nodes of an "info depth ..." line, or of the totals line "info nodes N nps R time MS"
// before a search's bestmove; -1 if the line is neither.
long long info_nodes(const std::string& line) {
  const auto words = split_words(line);
  const auto at = std::find(words.begin(), words.end(), "nodes");
  if (words.empty() || words[0] != "info" || at == words.end() || at + 1 == words.end() || !is_number(at[1]))
    return -1;
  return std::stoll(std::string(at[1]));
}
bool is_totals_line(const std::string& line) {
  const auto words = split_words(line);
  return words.size() == 7 && words[0] == "info" && words[1] == "nodes" && is_number(words[2]) &&
         words[3] == "nps" && is_number(words[4]) && words[5] == "time" && is_number(words[6]);
}

Position after(std::initializer_list<std::string_view> moves, Position pos = Position::start()) {
  for (std::string_view m : moves) {
    const auto move = parse_move(m, pos);
    REQUIRE(move.has_value());
    pos.play(*move);
  }
  return pos;
}

// A movement-phase position where x is blocked: its only legal move is the pass.
constexpr std::string_view blocked_x = "5/5/5/oo3/xxo2 x";

}  // namespace

TEST_CASE("protocol: umi declares the engine and its options, then umiok") {
  Session s;
  const auto out = s.send("umi");
  REQUIRE(out.size() >= 4);
  CHECK(out.front().rfind("id name moon ", 0) == 0);
  CHECK(out[1].rfind("id author ", 0) == 0);
  CHECK(out.back() == "umiok");
  const std::string options = text_of(out);
  // Hash goes up to what the machine can hold (the Searcher's limit is 65536 MiB).
  const std::size_t memory = test::meminfo_total_mb();
  const std::size_t hash_max = memory && memory < 65536 ? memory : 65536;
  CHECK(options.find("option name Hash type spin default 16 min 1 max " + std::to_string(hash_max) + "\n") !=
        std::string::npos);
  CHECK(options.find("option name Threads type spin default 1 min 1 max 256\n") != std::string::npos);
  CHECK(options.find("option name Solver Hash type spin default 64 min 0 max " + std::to_string(hash_max) + "\n") !=
        std::string::npos);
  CHECK(options.find("option name Movement type combo default step var step var slide\n") != std::string::npos);
  CHECK(options.find("option name Diagonal Captures type check default false\n") != std::string::npos);
  CHECK(options.find("option name Clock Limit type spin default 20 min 1 max 255\n") != std::string::npos);
  CHECK(options.find("option name MultiPV type spin default 1 min 1 max 64\n") != std::string::npos);
  CHECK(s.send("isready") == std::vector<std::string>{"readyok"});
  // A size outside the library's range is refused with it, and with the maximum declared here
  // where that is less.
  const std::string memory_note =
      hash_max < 65536 ? " (at most " + std::to_string(hash_max) + " here: this machine's memory)" : "";
  CHECK(s.send("setoption name Hash value 65537") ==
        std::vector<std::string>{"info string error: Hash must be a whole number from 1 to 65536, not '65537'" +
                                 memory_note});
  CHECK(s.send("setoption name Solver Hash value x") ==
        std::vector<std::string>{"info string error: Solver Hash must be a whole number from 0 to 65536, not 'x'" +
                                 memory_note});
}

TEST_CASE("protocol: position startpos and fen, with moves") {
  Session s;
  CHECK(s.position() == start_position_string);
  CHECK(s.send("position startpos moves b4 c4").empty());
  // x placed on b4, o on c4: rank 4 reads ".xo..", both hands 11, o's turn ended the first move.
  CHECK(s.position() == "5/1xo2/5/5/5 x 11 11 0 2");

  const std::string fen = "1ooox/1o1xo/3x1/ox1xx/ooxxx o 3 4 0 9";
  CHECK(s.send("position fen " + fen).empty());
  CHECK(s.position() == fen);
  CHECK(s.send("position   fen  " + fen + "  moves a5 ").empty());  // extra blanks are only separators
  CHECK(s.position() == to_string(after({"a5"}, *parse_position(fen))));

  CHECK(s.send("position fen " + std::string(blocked_x) + " moves 0000").empty());
  CHECK(s.position() == "5/5/5/oo3/xxo2 o 0 0 0 1");
  CHECK(s.send("position startpos moves").empty());
  CHECK(s.position() == start_position_string);
}

TEST_CASE("protocol: a rejected position command leaves the previous position") {
  Session s;
  s.send("position startpos moves b4 c4");
  const std::string before = s.position();
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"position startpos moves b4 c4 b4", "move 3"},
      {"position startpos moves b4 c3", "c3"},
      {"position startpos moves b4 b3c3", "move 2"},
      {"position startpos moves zz", "not a move"},
      {"position fen 6/5/5/5/5 x 12 12 0 1", "rank 5"},
      {"position fen 5/5/5/5/5 x 12 11 0 1", "alternation"},
      {"position fen 5/5/5/5/5", "has 1 field;"},
      {"position fen", "position string"},
      {"position fen moves b4", "position string"},
      {"position", "startpos"},
      {"position moves b4", "before 'moves'"},
      {"position startpos b4", "after startpos"},
      {"position start", "startpos"},
      {"position fen " + std::string(blocked_x) + " moves b1c1", "blocked"},
  };
  for (const auto& entry : bad) {
    // Not a structured binding: CAPTURE captures it in a lambda, which clang before 16 refuses.
    const std::string& line = entry.first;
    const std::string& words = entry.second;
    CAPTURE(line);
    const auto out = s.send(line);
    REQUIRE(out.size() == 1);
    CHECK(is_error(out[0]));
    CHECK(out[0].find(words) != std::string::npos);
    CHECK(s.position() == before);
  }
  // Nor is a rejected command kept to be replayed: a rule change replays the last accepted one,
  // quietly (the last rejected, a move where only the pass is legal, would fail and reset to the
  // start).
  CHECK(s.send("setoption name Clock Limit value 30").empty());
  CHECK(s.position() == before);
  // The command is named once ("position: position fen needs ..." it said).
  CHECK(s.send("position fen") == std::vector<std::string>{"info string error: position: fen needs a position string"});
  CHECK(s.send("position") ==
        std::vector<std::string>{"info string error: position: needs 'startpos' or 'fen <position string>'"});
}

TEST_CASE("protocol: malformed and unknown lines are answered with one error and change nothing") {
  Session s;
  s.send("position startpos moves b4");
  const std::string before = s.position();
  // Each with the start of the error it must give (after "info string error: ").
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"foo", "unknown command 'foo'"},
      {"UMI", "unknown command 'UMI'"},
      {"isready now", "isready takes no arguments"},
      {"umi please", "umi takes no arguments"},
      {"d 3", "d takes no arguments"},
      {"stop now", "stop takes no arguments"},
      {"uminewgame x", "uminewgame takes no arguments"},
      {"quit now", "quit takes no arguments"},
      {"go depth", "go: depth needs a value"},
      {"go depth 0", "go: depth must be a whole number from 1 to 100, not '0'"},
      {"go depth 101", "go: depth must be a whole number from 1 to 100, not '101'"},
      {"go depth -1", "go: depth must be a whole number from 1 to 100, not '-1'"},
      {"go depth 3x", "go: depth must be a whole number from 1 to 100, not '3x'"},
      {"go depth 99999999999999999999", "go: depth must be a whole number from 1 to 100, not '99999999999999999999'"},
      {"go nodes 0", "go: nodes must be a whole number from 1 to 1000000000000000000, not '0'"},
      {"go movetime", "go: movetime needs a value"},
      {"go foo 3", "go: unknown go parameter 'foo'"},
      {"go depth 3 depth 4", "go: depth is given twice"},
      {"go infinite depth 3", "go: infinite takes no other limit"},
      {"go infinite infinite", "go: infinite is given twice"},
      {"go perft", "go: perft needs a value"},
      {"go perft -1", "go: perft must be a whole number from 0 to 255, not '-1'"},
      {"go perft 256", "go: perft must be a whole number from 0 to 255, not '256'"},
      {"go perft 2 depth 2", "go: perft takes no other parameter"},
      {"go xinc 10 xtime", "go: xtime needs a value"},
      {"go xinc 10", "go: xinc needs xtime"},
      {"go solve depth 3", "go: solve takes no other parameter but moves"},
      {"go depth 3 solve", "go: solve takes no other parameter but moves"},
      {"go solve solve", "go: solve is given twice"},
      {"go infinite solve", "go: solve takes no other parameter but moves"},
      {"go perft 2 solve", "go: perft takes no other parameter"},
      {"go solve 3", "go: unknown go parameter '3'"},
      {"go moves", "go: moves goes after solve"},
      {"go depth 3 moves", "go: moves goes after solve"},
      {"go solve moves moves", "go: moves is given twice"},
      {"go perft 2 moves", "go: moves goes after solve"},
      {"go solve moves 3", "go: unknown go parameter '3'"},
      {"go moves solve", "go: moves goes after solve"},
      {"go xtime 1000", "go: o is to move, so otime is needed with the clocks"},
      {"setoption", "setoption needs 'name <name> value <value>'"},
      {"setoption Hash value 1", "setoption needs 'name <name> value <value>'"},
      {"setoption NAME Hash value 1",
       "setoption needs 'name <name> value <value>' (the keywords name and value are lower case)"},
      {"setoption name", "setoption needs an option name after 'name'"},
      {"setoption name value 3", "setoption needs an option name after 'name'"},
      {"setoption name Hash", "setoption name 'Hash' needs 'value <value>'"},
      {"setoption name Hash value", "setoption name 'Hash' needs 'value <value>'"},
      {"setoption name HASH VALUE 3",
       "setoption name 'HASH VALUE 3' needs 'value <value>' (the keywords name and value are lower case)"},
      {"setoption name Hash value 0", "Hash must be a whole number from 1 to 65536, not '0'"},
      {"setoption name Hash value 65537", "Hash must be a whole number from 1 to 65536, not '65537'"},
      {"setoption name Hash value big", "Hash must be a whole number from 1 to 65536, not 'big'"},
      {"setoption name Threads value 0", "Threads must be a whole number from 1 to 256, not '0'"},
      {"setoption name Movement value fly", "Movement must be step or slide, not 'fly'"},
      {"setoption name Diagonal Captures value yes", "Diagonal Captures must be true or false, not 'yes'"},
      {"setoption name Clock Limit value 0", "Clock Limit must be a whole number from 1 to 255, not '0'"},
      {"setoption name Clock Limit value 256", "Clock Limit must be a whole number from 1 to 255, not '256'"},
      {"setoption name Colour value red", "unknown option 'Colour'"},
      {"setoption name Move Overhead value -1", "Move Overhead must be a whole number from 0 to 5000, not '-1'"},
      {"setoption name Solver Hash value -1", "Solver Hash must be a whole number from 0 to 65536, not '-1'"},
      {"setoption name Solver Hash value 65537", "Solver Hash must be a whole number from 0 to 65536, not '65537'"},
      {"setoption name Solver Hash", "setoption name 'Solver Hash' needs 'value <value>'"},
      {"setoption name MultiPV value 0", "MultiPV must be a whole number from 1 to 64, not '0'"},
      {"setoption name MultiPV value 65", "MultiPV must be a whole number from 1 to 64, not '65'"},
      {"setoption name MultiPV value two", "MultiPV must be a whole number from 1 to 64, not 'two'"},
  };
  for (const auto& entry : bad) {
    const std::string& line = entry.first;  // not a structured binding (CAPTURE and clang before 16)
    CAPTURE(line);
    CHECK(s.starts_nothing(line));
    const auto out = s.take();
    REQUIRE(out.size() == 1);
    CHECK(out[0].rfind("info string error: " + entry.second, 0) == 0);
    CHECK_FALSE(s.quit());  // `quit now` included: refused, the session goes on
  }
  // Bytes no command has: refused, and the echo stays printable.
  for (const std::string& line : {std::string("go \x01\x02 depth 3"), std::string("pos\xffition startpos"),
                                  std::string(1, '\0'), std::string("setoption name \x1b[2J\x07"),
                                  std::string("setoption name Ha\x1bsh value 1")}) {
    CAPTURE(line);
    const auto out = s.send(line);
    REQUIRE(out.size() == 1);
    CHECK(is_error(out[0]));
    for (char c : out[0]) CHECK((c >= 0x20 && c < 0x7f));
  }
  CHECK(s.position() == before);
  // The options are unchanged too: the rules still have the default clock limit.
  bool default_rules = false;
  for (const auto& line : s.send("d")) default_rules |= line == "rules: step movement, orthogonal captures, clock limit 20";
  CHECK(default_rules);
  CHECK(s.send("isready") == std::vector<std::string>{"readyok"});
}

TEST_CASE("protocol: blank lines are ignored and run() accepts CRLF and a last line without newline") {
  std::istringstream in("\n   \t\r\nisready\r\nposition startpos moves b4\r\n\nd");
  std::ostringstream out;
  Engine engine(out);
  CHECK(engine.run(in) == 0);
  const auto lines = test::lines(out.str());
  REQUIRE(!lines.empty());
  CHECK(lines[0] == "readyok");
  CHECK(out.str().find("position: 5/1x3/5/5/5 o 11 12 0 1\n") != std::string::npos);
  CHECK(out.str().find("error") == std::string::npos);
}

TEST_CASE("protocol: an overlong line is refused whole, and the session goes on") {
  std::string input(max_line_length + 10, 'a');
  input += "\nisready\n";
  std::istringstream in(input);
  std::ostringstream out;
  Engine engine(out);
  CHECK(engine.run(in) == 0);
  const auto lines = test::lines(out.str());
  REQUIRE(lines.size() == 2);
  CHECK(is_error(lines[0]));
  CHECK(lines[1] == "readyok");

  // The longest line taken, with or without the '\r' of a CRLF (which does not count), and one
  // character more, refused.
  for (const std::string ending : {"\n", "\r\n"}) {
    std::string longest = "isready" + std::string(max_line_length - 7, ' ');
    std::istringstream fits(longest + ending + longest + "x" + ending);
    std::ostringstream answers;
    Engine again(answers);
    CHECK(again.run(fits) == 0);
    const auto said = test::lines(answers.str());
    REQUIRE(said.size() == 2);
    CHECK(said[0] == "readyok");
    CHECK(said[1] == "info string error: line longer than " + std::to_string(max_line_length) + " characters");
  }
}

TEST_CASE("protocol: setoption changes the rules and replays the position under them") {
  Session s;
  s.send("position startpos moves b4");
  CHECK(s.send("setoption name Clock Limit value 40").empty());
  CHECK(s.send("setoption name movement value SLIDE").empty());  // names and values ignore case
  CHECK(s.send("setoption name Diagonal Captures value true").empty());
  const auto d = s.send("d");
  const std::string all = text_of(d);
  CHECK(all.find("rules: slide movement, orthogonal and diagonal captures, clock limit 40\n") != std::string::npos);
  CHECK(all.find("position: 5/1x3/5/5/5 o 11 12 0 1\n") != std::string::npos);

  // A clock of 30 exists under a limit of 40, not under 20: lowering the limit resets to the start.
  CHECK(s.send("position fen oo3/5/5/5/3xx x 0 0 30 40").empty());
  const auto out = s.send("setoption name Clock Limit value 20");
  REQUIRE(out.size() == 1);
  CHECK(out[0].rfind("info string ", 0) == 0);
  CHECK(out[0].find("start") != std::string::npos);
  CHECK(s.position() == start_position_string);
  // The start is now the position replayed: raising the limit again does not bring the other back.
  CHECK(s.send("setoption name Clock Limit value 40").empty());
  CHECK(s.position() == start_position_string);
  CHECK(s.send("setoption name MOVEMENT value STEP").empty());  // any case, the value too
  CHECK(text_of(s.send("d")).find("rules: step movement, orthogonal and diagonal captures, clock limit 40\n") !=
        std::string::npos);
  CHECK(s.send("setoption name Hash value 2").empty());
  CHECK(s.send("setoption name Threads value 2").empty());
  CHECK(s.send("setoption name Move Overhead value 0").empty());
  CHECK(s.send("uminewgame").empty());
}

TEST_CASE("protocol: a Hash above the machine's memory is refused with one error; the engine goes on" *
          doctest::skip(test::over_memory_mb() == 0)) {
  const std::size_t over = test::over_memory_mb();
  const test::AddressSpaceGuard guard;  // were it not refused, the allocation would fail, not kill
  Session s;
  CHECK(s.send("setoption name Hash value 2").empty());
  s.send("position startpos moves b4");
  const std::string before = s.position();
  const auto out = s.send("setoption name Hash value " + std::to_string(over));
  REQUIRE(out.size() == 1);
  CHECK(out[0] == "info string error: " + test::over_memory_message(over));
  CHECK(s.position() == before);
  const auto searched = s.send("go depth 3");
  REQUIRE(!searched.empty());
  CHECK(searched.back().rfind("bestmove ", 0) == 0);
  int depths = 0;
  for (const std::string& line : searched) depths += info_depth(line, after({"b4"})) > 0;
  CHECK(depths == 3);
  CHECK(s.send("setoption name Hash value 4").empty());  // a size that fits is still taken

  // The solver's table: refused before its first solve (the size is only checked then) and after.
  for (int solves = 0; solves < 2; ++solves) {
    const auto refused = s.send("setoption name Solver Hash value " + std::to_string(over));
    REQUIRE(refused.size() == 1);
    CHECK(refused[0] == "info string error: " + test::over_memory_message(over));
    solves_the_win_in_13(s);
  }
  CHECK(s.send("setoption name Solver Hash value 8").empty());
}

#ifndef MOON_SANITIZE_BUILD  // the guard does nothing under the sanitizers: no unguarded try
TEST_CASE("protocol: Hash and Solver Hash above the memory available now are refused; the engine goes on" *
          doctest::skip(test::over_available_mb() == 0)) {
  const std::size_t size = test::over_available_mb();
  const test::AddressSpaceGuard guard;  // were it not refused, the allocation would fail, not kill
  Session s;
  CHECK(s.send("setoption name Hash value 2").empty());
  for (const char* option : {"Hash", "Solver Hash"}) {
    INFO(option);
    const auto out = s.send(std::string("setoption name ") + option + " value " + std::to_string(size));
    REQUIRE(out.size() == 1);
    CHECK(out[0].starts_with("info string error: hash size " + std::to_string(size) +
                             " MiB is more than the memory available now ("));
  }
  solves_the_win_in_13(s);
}

// The other order needs no test of its own: the search's table is made at once, and the solver's
// size is then checked against the memory left (the test above).
TEST_CASE("protocol: a new Hash must fit beside a Solver Hash whose table is not made yet" *
          doctest::skip(test::three_fifths_available_mb() == 0)) {
  const std::size_t size = test::three_fifths_available_mb();
  const std::string mb = std::to_string(size);
  const test::AddressSpaceGuard guard;  // were it not refused, the allocation would fail, not kill
  Session s;
  CHECK(s.send("setoption name Solver Hash value " + mb).empty());  // fits beside the 16 MiB search table
  const auto out = s.send("setoption name Hash value " + mb);
  REQUIRE(out.size() == 1);
  CHECK(out[0].starts_with("info string error: hash size " + mb + " MiB and the solver's " + mb +
                           " MiB table together are more than the memory available now ("));
  CHECK(s.send("setoption name Hash value 32").empty());  // a small one fits beside it
  // With a small solver the engine solves as before.
  CHECK(s.send("setoption name Solver Hash value 2").empty());
  solves_the_win_in_13(s);
}
#endif

#ifndef MOON_SANITIZE_BUILD  // the sanitizers' shadow memory leaves no address-space limit to set
TEST_CASE("protocol: a go solve whose table cannot be made says why and still ends with bestmove" *
          doctest::skip(test::meminfo_total_mb() <= 512)) {  // else the size itself is refused
  Session s;
  CHECK(s.send("setoption name Solver Hash value 512").empty());  // checked against memory only
  s.send("position fen 4x/5/xo2o/3x1/2x2 x");
  {
    const test::AddressSpaceGuard guard(256);  // the 512 MiB table cannot be had
    const auto out = s.send("go solve");
    REQUIRE(out.size() >= 2);
    CHECK(out[out.size() - 2].rfind("info string error: go solve: cannot allocate a 512 MiB", 0) == 0);
    CHECK(out.back() == "bestmove (none)");
  }
  // The engine goes on, and the next solve makes its table.
  CHECK(s.send("setoption name Solver Hash value 8").empty());
  solves_the_win_in_13(s);
}
#endif

TEST_CASE("protocol: a change of rule clears the tables and history at once: the next search is a fresh engine's") {
  // Cleared at the setoption, like uminewgame (the table and the history); before, the next
  // search cleared only the table, on its own clock, and kept the history of the old rules.
  const std::vector<std::string> movement_search = {"position fen oxoox/xxooo/ox1xx/xxoox/oxoxo x 0 0 0 13",
                                                     "go depth 7"};
  Session used;
  used.send(movement_search);  // under the default rules: step
  CHECK(used.send("setoption name Movement value slide").empty());
  const auto after_change = used.send(movement_search);
  Session fresh;
  CHECK(fresh.send("setoption name Movement value slide").empty());
  const auto from_fresh = fresh.send(movement_search);
  REQUIRE(after_change.size() >= 2);
  REQUIRE(from_fresh.size() >= 2);
  const auto nodes_of = [](const std::string& info) {
    const auto from = info.find(" nodes ");
    return info.substr(from, info.find(" nps ") - from);
  };
  CHECK(nodes_of(after_change[after_change.size() - 2]) == nodes_of(from_fresh[from_fresh.size() - 2]));
  CHECK(after_change.back() == from_fresh.back());
  // Changed while a search runs, the next search forgets both itself (it once cleared only the
  // table, and searched on with the old rules' history).
  Session busy;
  busy.send(movement_search);
  REQUIRE(busy.handle("go infinite"));
  REQUIRE(busy.handle("setoption name Movement value slide"));
  const auto stopped = busy.send("stop");
  REQUIRE_FALSE(stopped.empty());
  CHECK(stopped.back().starts_with("bestmove "));
  const auto after_busy_change = busy.send(movement_search);
  REQUIRE(after_busy_change.size() >= 2);
  CHECK(nodes_of(after_busy_change[after_busy_change.size() - 2]) == nodes_of(from_fresh[from_fresh.size() - 2]));
  CHECK(after_busy_change.back() == from_fresh.back());
}

TEST_CASE("protocol: go depth reports each iteration, then a legal best move") {
  Session s;
  s.send("position startpos moves b4 c4 d4");
  const Position pos = after({"b4", "c4", "d4"});
  const auto out = s.send("go depth 3");
  REQUIRE(out.size() == 5);
  int depth = 0;
  for (std::size_t i = 0; i + 2 < out.size(); ++i) {
    CAPTURE(out[i]);
    CHECK(info_depth(out[i], pos) == ++depth);
  }
  CHECK(depth == 3);
  // Then the whole search's totals: at least the last iteration's nodes.
  CAPTURE(out[3]);
  CHECK(is_totals_line(out[3]));
  CHECK(info_nodes(out[3]) >= info_nodes(out[2]));
  CHECK(info_nodes(out[2]) > 0);
  REQUIRE(out.back().rfind("bestmove ", 0) == 0);
  CHECK(parse_move(out.back().substr(9), pos).has_value());
}

TEST_CASE("protocol: MultiPV reports that many lines per iteration, best first, each its own move") {
  Session s;
  s.send("position startpos moves b4 c4 d4");
  const Position pos = after({"b4", "c4", "d4"});
  CHECK(s.send("setoption name multipv value 3").empty());
  const auto out = s.send("go depth 3");
  REQUIRE(out.size() == 3 * 3 + 2);
  CHECK(is_totals_line(out[9]));
  std::string best_of_last;
  for (int depth = 1; depth <= 3; ++depth) {
    std::vector<std::string> firsts;
    for (int k = 1; k <= 3; ++k) {
      const std::string& line = out[std::size_t((depth - 1) * 3 + k - 1)];
      CAPTURE(line);
      int multipv = 0;
      std::string first;
      CHECK(info_depth(line, pos, &multipv, &first) == depth);
      CHECK(multipv == k);
      CHECK(std::find(firsts.begin(), firsts.end(), first) == firsts.end());
      firsts.push_back(first);
    }
    best_of_last = firsts.front();
  }
  CHECK(out.back() == "bestmove " + best_of_last);
  // Back to one line: no multipv field.
  CHECK(s.send("setoption name MultiPV value 1").empty());
  const auto one = s.send("go depth 2");
  REQUIRE(one.size() == 4);
  CHECK(info_depth(one[0], pos) == 1);
  CHECK(info_depth(one[1], pos) == 2);
}

TEST_CASE("protocol: go nodes and movetime end by themselves") {
  Session s;
  // Each ends with a legal move of the start position (parse_move accepts only legal moves).
  for (const char* go : {"go nodes 2000", "go movetime 50"}) {
    CAPTURE(go);
    const auto out = s.send(go);
    REQUIRE(!out.empty());
    REQUIRE(out.back().rfind("bestmove ", 0) == 0);
    CHECK(parse_move(out.back().substr(9), Position::start()).has_value());
  }
}

TEST_CASE("protocol: a game that is over, and a forced move under time control") {
  Session s;
  s.send("position fen xx3/5/5/5/4o x");  // o has one counter left: x has won
  CHECK(s.send("go depth 3") == std::vector<std::string>{"info string the game is over: x wins", "bestmove (none)"});
  // go infinite answers only after stop, even with nothing to search.
  CHECK(s.handle("go infinite"));
  CHECK(s.handle("isready"));
  CHECK(s.take() == std::vector<std::string>{"info string the game is over: x wins", "readyok"});
  CHECK(s.handle("go depth 1"));  // refused: the infinite "search" runs until stop
  CHECK(s.handle("stop"));
  const auto stopped = s.take();
  REQUIRE(stopped.size() == 2);
  CHECK(is_error(stopped[0]));
  CHECK(stopped[1] == "bestmove (none)");

  s.send("position fen " + std::string(blocked_x));
  // With a clock there is nothing to think about; with a depth the search runs.
  auto out = s.send("go xtime 60000 otime 60000");
  CHECK(out == std::vector<std::string>{"info string the only legal move", "bestmove 0000"});
  out = s.send("go depth 2");
  REQUIRE(out.size() >= 2);
  CHECK(out.front().rfind("info depth 1 ", 0) == 0);
  CHECK(out.back() == "bestmove 0000");
  // A time with the depth: a move to play, at once.
  out = s.send("go depth 3 movetime 500");
  CHECK(out == std::vector<std::string>{"info string the only legal move", "bestmove 0000"});
}

TEST_CASE("protocol: go infinite runs until stop; isready, d and position are answered meanwhile") {
  Session s;
  s.send("position startpos moves b4");
  CHECK(s.handle("go infinite"));
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  CHECK(s.handle("isready"));
  CHECK(s.handle("go depth 1"));                   // refused: a search runs
  CHECK(s.handle("setoption name Hash value 1"));  // refused
  CHECK(s.handle("uminewgame"));                   // refused
  CHECK(s.handle("setoption name Move Overhead value 10"));  // for the next search
  CHECK(s.handle("position startpos moves a1"));   // for the next search; this one goes on
  CHECK(s.handle("d"));
  CHECK(s.handle("stop"));                         // returns once bestmove is written
  const auto out = s.take();
  int errors = 0, ready = 0, best = 0;
  for (const auto& line : out) {
    errors += is_error(line) && line.find("send stop first") != std::string::npos;
    ready += line == "readyok";
    best += line.rfind("bestmove ", 0) == 0;
  }
  CHECK(errors == 3);
  CHECK(ready == 1);
  REQUIRE(best == 1);
  CHECK(out.back().rfind("bestmove ", 0) == 0);
  CHECK(parse_move(out.back().substr(9), after({"b4"})).has_value());  // the move of the searched position
  CHECK(s.position() == "5/5/5/5/x4 o 11 12 0 1");
  CHECK(s.send("stop").empty());  // nothing runs: nothing to say
}

TEST_CASE("protocol: stop at once after go still gives one bestmove") {
  // The stop may come before the worker has begun its search or solve: it still ends it (a solve
  // of the start is far out of reach, so only the stop can).
  Session s;
  for (const char* go : {"go infinite", "go solve", "go solve moves"}) {
    for (int i = 0; i < 20; ++i) {
      INFO(go);
      s.handle(go);
      s.handle("stop");
      const auto out = s.take();
      REQUIRE(!out.empty());
      CHECK(out.back().rfind("bestmove ", 0) == 0);
      const auto is_bestmove = [](const std::string& line) { return line.rfind("bestmove", 0) == 0; };
      CHECK(std::count_if(out.begin(), out.end(), is_bestmove) == 1);
    }
  }
}

TEST_CASE("protocol: quit and the end of input during a search write bestmove and end") {
  {
    Session s;
    CHECK(s.handle("go infinite"));
    CHECK_FALSE(s.handle("quit"));
    const auto out = s.take();
    REQUIRE(!out.empty());
    CHECK(out.back().rfind("bestmove ", 0) == 0);
  }
  {
    std::istringstream in("position startpos\ngo infinite\n");
    std::ostringstream out;
    Engine engine(out);
    CHECK(engine.run(in) == 0);
    const auto lines = test::lines(out.str());
    REQUIRE(!lines.empty());
    CHECK(lines.back().rfind("bestmove ", 0) == 0);
  }
  {
    std::istringstream in("quit\nisready\n");  // nothing after quit is read
    std::ostringstream out;
    Engine engine(out);
    CHECK(engine.run(in) == 0);
    CHECK(out.str().empty());
  }
}

TEST_CASE("protocol: go perft prints the divide and the total, as moon perft does") {
  Session s;
  // From the start perft(n) = 24!/(24-n)! (RULES.md): every placement has 23 * 22 replies at depth 3.
  auto out = s.send("go perft 3");
  REQUIRE(out.size() == 25);
  for (std::size_t i = 0; i < 24; ++i) CHECK(out[i].substr(out[i].find(':')) == ": 506");
  CHECK(out.back() == "Nodes searched: 12144");
  out = s.send("go perft 6");  // deeper than the unchecked subtrees
  CHECK(out.back() == "Nodes searched: " + std::to_string(24ull * 23 * 22 * 21 * 20 * 19));
  CHECK(s.send("go perft 0") == std::vector<std::string>{"Nodes searched: 1"});

  const std::string fen = "1ooox/1o1xo/3x1/ox1xx/ooxxx o 3 4 0 9";
  s.send("position fen " + fen);
  out = s.send("go perft 5");
  const auto expected = perft(*parse_position(fen), 5, {});
  REQUIRE(expected.has_value());
  REQUIRE(out.size() == expected->divide.size() + 1);
  for (std::size_t i = 0; i < expected->divide.size(); ++i)
    CHECK(out[i] == to_string(expected->divide[i].move) + ": " + to_string(expected->divide[i].nodes));
  CHECK(out.back() == "Nodes searched: " + to_string(expected->nodes));
  CHECK(out.back() == "Nodes searched: 2520");  // ../shared/perft-reference.txt, from another implementation
}

TEST_CASE("protocol: go perft counts on Threads threads, the lines in generation order") {
  Session s;
  const std::string fen = "oxoox/xxooo/ox1xx/xxoox/oxoxo x 0 0 0 13";
  const auto expected = perft(*parse_position(fen), 7, {});
  REQUIRE(expected.has_value());
  REQUIRE(expected->divide.size() > 1);
  CHECK(s.send("setoption name Threads value 3").empty());
  s.send("position fen " + fen);
  const auto out = s.send("go perft 7");
  REQUIRE(out.size() == expected->divide.size() + 1);
  for (std::size_t i = 0; i < expected->divide.size(); ++i)
    CHECK(out[i] == to_string(expected->divide[i].move) + ": " + to_string(expected->divide[i].nodes));
  CHECK(out.back() == "Nodes searched: " + to_string(expected->nodes));

  // While a long count runs, the process has Threads - 1 more threads than the worker alone
  // would add (Linux lists them in /proc/self/task).
  const auto process_threads = [] {
    std::error_code error;
    const std::filesystem::directory_iterator tasks("/proc/self/task", error);
    return error ? -1 : int(std::distance(tasks, std::filesystem::directory_iterator{}));
  };
  const int before = process_threads();
  s.send("position startpos");
  s.handle("go perft 30");
  int during = process_threads();  // up to 10 s for the threads to start (slow under the sanitizers)
  for (int i = 0; i < 1000 && during < before + 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    during = process_threads();
  }
  s.handle("stop");
  if (before > 0) CHECK(during >= before + 2);
  const auto stopped = s.take();
  REQUIRE(!stopped.empty());
  const auto words = split_words(stopped.back());
  REQUIRE(words.size() == 10);
  CHECK(words[3] == "stopped");
  CHECK(words[5] == std::to_string(stopped.size() - 1));
}

TEST_CASE("protocol: a long perft is stopped by stop") {
  Session s;
  s.handle("go perft 30");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  s.handle("stop");
  const auto out = s.take();
  REQUIRE(!out.empty());
  CHECK(out.back().rfind("info string perft stopped", 0) == 0);
  // "perft stopped after I of N root moves": I counts the root moves whose lines came before.
  const auto words = split_words(out.back());
  REQUIRE(words.size() == 10);
  CHECK(words[5] == std::to_string(out.size() - 1));
  CHECK(words[7] == "24");
}

namespace {

// The fields of `info solve value V distance D nodes N time T`, checked for form.
struct SolveLine {
  std::string value;
  int distance = -1;
};
std::optional<SolveLine> solve_line(const std::string& line) {
  const auto words = split_words(line);
  if (words.size() != 10 || words[0] != "info" || words[1] != "solve" || words[2] != "value" ||
      words[4] != "distance" || words[6] != "nodes" || words[8] != "time")
    return std::nullopt;
  if (!is_number(words[5]) || !is_number(words[7]) || !is_number(words[9])) return std::nullopt;
  return SolveLine{std::string(words[3]), std::stoi(std::string(words[5]))};
}

}  // namespace

TEST_CASE("protocol: go solve proves the value and the distance, as the Solver does, under the rules in force") {
  Session s;
  struct Case {
    std::vector<std::string> setup;
    std::string fen;
    Rules rules;
    std::string value;  // as docs/SOLVER.md records them
    int distance;
  };
  const Rules diagonal{Movement::step, CaptureLines::orthogonal_and_diagonal, 20};
  const std::vector<Case> cases = {
      {{}, "4x/5/xo2o/3x1/2x2 x", Rules{}, "win", 13},
      {{}, "5/2o1x/3o1/o4/x1o2 x", Rules{}, "loss", 12},
      {{}, "5/1x2o/2o2/5/3x1 x", Rules{}, "draw", 20},
      {{"setoption name Diagonal Captures value true"}, "4x/5/xo2o/3x1/2x2 x", diagonal, "win", 5},
      {{"setoption name Threads value 2"}, "1x1x1/4x/1x3/ox1ox/2o2 x", diagonal, "win", 15},
  };
  for (const Case& c : cases) {
    CAPTURE(c.fen);
    for (const std::string& line : c.setup) CHECK(s.send(line).empty());
    s.send("position fen " + c.fen);
    const auto out = s.send("go solve");
    REQUIRE(out.size() >= 2);
    for (std::size_t i = 0; i + 2 < out.size(); ++i) CHECK(out[i].rfind("info string solve: ", 0) == 0);
    const auto line = solve_line(out[out.size() - 2]);
    REQUIRE_MESSAGE(line.has_value(), out[out.size() - 2]);

    const Position pos = *parse_position(c.fen, c.rules);
    Solver solver;
    const auto expected = solver.solve(pos);
    REQUIRE(expected.has_value());
    CHECK(line->value == to_string(expected->outcome));
    CHECK(line->distance == expected->plies);
    CHECK(line->value == c.value);
    CHECK(line->distance == c.distance);
    // The best move is legal and keeps the value: one ply less to the same end.
    REQUIRE(out.back().rfind("bestmove ", 0) == 0);
    const auto best = parse_move(out.back().substr(9), pos);
    REQUIRE(best.has_value());
    const auto child = solver.solve(pos.after(*best));
    REQUIRE(child.has_value());
    CHECK(child->plies == expected->plies - 1);
    CHECK(child->outcome == opposite(expected->outcome));
  }
  // A game that is over: its value, distance 0 and no move, answered at once (no task runs after
  // the line), as `go` answers it: a fresh engine makes no solver table for it.
  Session fresh;
  for (Session* session : {&s, &fresh}) {
    session->send("position fen 5/5/5/5/x1o2 x");
    for (const char* go : {"go solve", "go solve moves"}) {
      CAPTURE(go);
      REQUIRE(session->starts_nothing(go));
      const auto over = session->take();
      REQUIRE(over.size() == 3);
      CHECK(over[0] == "info string the game is over: draw");
      const auto line = solve_line(over[1]);
      REQUIRE(line.has_value());
      CHECK(line->value == "draw");
      CHECK(line->distance == 0);
      CHECK(over[1].ends_with(" nodes 0 time 0"));
      CHECK(over[2] == "bestmove (none)");
    }
  }
}

TEST_CASE("protocol: go solve moves proves every move, best first, then the position's value") {
  Session s;
  const std::string fen = "4x/o4/3o1/o4/2o1x x";  // a loss in 20
  s.send("position fen " + fen);
  const auto out = s.send("go solve moves");
  std::vector<std::string> results;
  for (const auto& line : out)
    if (line.rfind("info string solve: ", 0) != 0) results.push_back(line);
  const Position pos = *parse_position(fen);
  const MoveList legal = legal_moves(pos);
  REQUIRE(results.size() == legal.size() + 2);
  Solver solver(SolveOptions{16, 1, true, {}});
  for (std::size_t i = 0; i < legal.size(); ++i) {
    const std::string& line = results[i];
    CAPTURE(line);
    REQUIRE(line.rfind("info solve move ", 0) == 0);
    const auto move = parse_move(line.substr(16, line.find(' ', 16) - 16), pos);
    REQUIRE(move.has_value());
    const auto child = solver.solve(pos.after(*move));
    REQUIRE(child.has_value());
    const std::string mine = child->outcome == Outcome::win ? "loss" : child->outcome == Outcome::loss ? "win" : "draw";
    CHECK(line == "info solve move " + to_string(*move) + " value " + mine + " distance " + std::to_string(child->plies + 1));
  }
  const auto line = solve_line(results[legal.size()]);
  REQUIRE(line.has_value());
  CHECK(line->value == "loss");
  CHECK(line->distance == 20);
  CHECK(results.back() == "bestmove " + results[0].substr(16, results[0].find(' ', 16) - 16));
  // A game that is over has no moves: the plain answer.
  s.send("position fen 5/5/5/5/x1o2 x");
  const auto over = s.send("go solve moves");
  REQUIRE(over.size() >= 3);
  CHECK(over[over.size() - 3] == "info string the game is over: draw");
  REQUIRE(solve_line(over[over.size() - 2]).has_value());
  CHECK(solve_line(over[over.size() - 2])->distance == 0);
  CHECK(over.back() == "bestmove (none)");
}

TEST_CASE("protocol: go solve says when it makes a large table; setting the size frees the old one") {
  Session s;
  const auto has_line = [](const std::vector<std::string>& out, const std::string& start) {
    return std::any_of(out.begin(), out.end(), [&](const std::string& line) { return line.rfind(start, 0) == 0; });
  };
  s.send("position fen 4x/5/xo2o/3x1/2x2 x");  // a win in 13
  const auto small = s.send("go solve");
  CHECK_FALSE(has_line(small, "info string solve: making"));
  CHECK(solve_line(small[small.size() - 2]).has_value());

  const std::string large = std::to_string(announced_solve_table_mb);
  CHECK(s.send("setoption name Solver Hash value " + large).empty());
  const auto first = s.send("go solve");
  REQUIRE(first.size() >= 4);
  CHECK(first[0] == "info string solve: making the " + large + " MiB table");
  CHECK(first[1].rfind("info string solve: table made in ", 0) == 0);
  CHECK(solve_line(first[first.size() - 2]).has_value());
  // The table is kept: the next solve makes none.
  const auto second = s.send("go solve");
  CHECK_FALSE(has_line(second, "info string solve: making"));
  CHECK(solve_line(second[second.size() - 2]).has_value());
  // A new size is made by the next solve, said only if large.
  CHECK(s.send("setoption name Solver Hash value 8").empty());
  const auto smaller = s.send("go solve");
  CHECK_FALSE(has_line(smaller, "info string solve: making"));
  CHECK(solve_line(smaller[smaller.size() - 2]).has_value());
}

TEST_CASE("protocol: stop ends the making of a large solver table; the next go solve makes it again") {
  Session s;
  s.send("position fen 4x/5/xo2o/3x1/2x2 x");  // a win in 13
  const std::string large = std::to_string(announced_solve_table_mb);
  CHECK(s.send("setoption name Solver Hash value " + large).empty());
  // The stop comes at once, within the first of the table's 64 MiB parts (making it takes
  // hundreds of milliseconds here, tens on the fastest machines).
  s.handle("go solve");
  s.handle("stop");
  CHECK(s.take() == std::vector<std::string>{"info string solve: making the " + large + " MiB table",
                                              "info string stopped while making the " + large + " MiB table",
                                              "bestmove (none)"});
  const auto again = s.send("go solve");
  REQUIRE(again.size() >= 4);
  CHECK(again[0] == "info string solve: making the " + large + " MiB table");
  CHECK(again[again.size() - 2].rfind("info solve value win distance 13 ", 0) == 0);
}

TEST_CASE("protocol: a solve out of reach is ended by stop; options wait for it; the engine goes on") {
  Session s;
  // The solver's table made first, by a small solve: a stop while the first `go solve` makes it
  // (under the sanitizers on a busy machine, more than the 50 ms below) ends that instead, with
  // "stopped while making the 64 MiB table". The same size again is not made again.
  REQUIRE(s.send("position fen 4x/5/xo2o/3x1/2x2 x").empty());
  const auto small = s.send("go solve");
  REQUIRE(small.size() >= 2);
  REQUIRE(small[small.size() - 2].rfind("info solve value win distance 13 ", 0) == 0);
  REQUIRE(s.send("position startpos").empty());
  s.handle("go solve");  // the start position under the default rules
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  s.handle("setoption name Solver Hash value 8");  // refused: a solve runs
  s.handle("go solve");                            // refused
  s.handle("isready");
  s.handle("stop");  // returns once bestmove is written; the output is read after it
  const auto out = s.take();
  INFO(text_of(out));  // shown if a check fails
  std::vector<std::string> errors, others;
  for (const auto& line : out)
    if (is_error(line)) errors.push_back(line);
    else if (line.rfind("info string solve: ", 0) != 0) others.push_back(line);
  REQUIRE(errors.size() == 2);
  CHECK(errors[0] == "info string error: setoption name Solver Hash is not allowed while a solve runs; send stop first");
  CHECK(errors[1] == "info string error: go is not allowed while a solve runs; send stop first");
  CHECK(others == std::vector<std::string>{"readyok", "info string the solve was stopped before the proof was complete",
                                           "bestmove (none)"});
  // Idle again: the option is taken and the next solve runs to its end.
  CHECK(s.send("setoption name Solver Hash value 8").empty());
  solves_the_win_in_13(s);
  CHECK(s.send("uminewgame").empty());
}

TEST_CASE("protocol: search limits from the clocks keep the move overhead back") {
  const auto go = [](std::vector<std::string_view> words) {
    const auto g = parse_go(words);
    REQUIRE(g.has_value());
    return *g;
  };
  auto limits = search_limits(go({"xtime", "10000", "otime", "5000", "xinc", "100", "oinc", "200"}), x, 30);
  REQUIRE(limits.has_value());
  CHECK(limits->time_left_ms == 9970);
  CHECK(limits->increment_ms == 70);
  limits = search_limits(go({"xtime", "10000", "otime", "5000", "oinc", "200"}), o, 30);
  REQUIRE(limits.has_value());
  CHECK(limits->time_left_ms == 4970);
  CHECK(limits->increment_ms == 170);
  limits = search_limits(go({"xtime", "10000", "otime", "5000", "oinc", "20"}), o, 30);
  REQUIRE(limits.has_value());
  CHECK(limits->increment_ms == 0);  // the overhead eats it all
  // An empty clock is still a clock (1 ms), never "no limit".
  limits = search_limits(go({"xtime", "0", "otime", "0"}), x, 30);
  REQUIRE(limits.has_value());
  CHECK(limits->time_left_ms == 1);
  limits = search_limits(go({"movetime", "500"}), x, 30);
  REQUIRE(limits.has_value());
  CHECK(limits->movetime_ms == 470);
  CHECK(limits->time_left_ms == 0);
  CHECK_FALSE(search_limits(go({"xtime", "1000"}), o, 30).has_value());
  const GoCommand depth = go({"depth", "7", "nodes", "1000"});
  CHECK_FALSE(depth.timed());
  limits = search_limits(depth, x, 30);
  REQUIRE(limits.has_value());
  CHECK(limits->depth == 7);
  CHECK(limits->nodes == 1000);
  CHECK(go({"infinite"}).infinite);
  // The largest limits, 19 digits for the nodes, are taken; one more, or past int64, is refused.
  CHECK(go({"nodes", "1000000000000000000"}).nodes == 1'000'000'000'000'000'000);
  CHECK(go({"movetime", "1000000000000"}).movetime_ms == 1'000'000'000'000);
  for (const auto& words : {std::vector<std::string_view>{"nodes", "1000000000000000001"},
                            std::vector<std::string_view>{"nodes", "9223372036854775808"},
                            std::vector<std::string_view>{"movetime", "1000000000001"}})
    CHECK_FALSE(parse_go(words).has_value());
}

TEST_CASE("protocol: a command that must wait names the job it waits for") {
  for (const auto& [go, kind] : {std::pair{"go infinite", "search"}, std::pair{"go perft 12", "perft"}}) {
    Session s;
    s.handle(go);
    s.handle("uminewgame");
    s.handle("stop");
    const auto out = s.take();
    CHECK(std::count(out.begin(), out.end(),
                     std::string("info string error: uminewgame is not allowed while a ") + kind +
                         " runs; send stop first") == 1);
  }
}

TEST_CASE("protocol: output that cannot be written stops the running task by itself") {
  // A stream whose every write fails, as standard output does once the frontend closed the pipe
  // (SIGPIPE ignored): a search, perft or solve ends at its next line instead of running on
  // until the next line of input.
  struct Closed : std::streambuf {
    int overflow(int) override { return traits_type::eof(); }
    std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
  } closed;
  for (const char* go : {"go infinite", "go perft 9", "go depth 100"}) {
    CAPTURE(go);
    std::ostream out(&closed);
    Engine engine(out);
    engine.handle("position startpos");
    engine.handle(go);
    CHECK(engine.wait_for(std::chrono::seconds(20)));
    engine.handle("stop");  // what ended it before (nothing to do once it has ended)
  }
}

TEST_CASE("protocol: random lines never break the engine; its position stays valid") {
  // Words of the protocol, moves, numbers, a position string's fields and junk, in random
  // order: mostly malformed lines, some valid ones. Searches stay shallow (small numbers).
  const std::vector<std::string> vocabulary = {
      "umi", "isready", "setoption", "name", "value", "Hash", "Threads", "Clock", "Limit", "Movement", "slide",
      "step", "Diagonal", "Captures", "true", "uminewgame", "position", "startpos", "fen", "moves", "go", "depth",
      "nodes", "movetime", "xtime", "otime", "xinc", "oinc", "infinite", "perft", "solve", "stop", "d", "0", "1", "2", "3",
      "20", "-1", "99999999999999999999", "b4", "c4", "c3", "a1a2", "b3c3", "0000", "5/5/5/5/5", "x", "o", "12",
      "1ooox/1o1xo/3x1/ox1xx/ooxxx", "oo3/5/5/5/3xx", "", "\t", "\x01", "\xff", "é"};
#ifdef MOON_SANITIZE_BUILD
  constexpr int lines = 400;
#else
  constexpr int lines = 3000;
#endif
  std::uint64_t seed = 0x9e3779b97f4a7c15ULL;
  auto next = [&] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  Session s;
  for (int i = 0; i < lines; ++i) {
    std::string line;
    for (std::uint64_t n = next() % 7; n-- > 0;) line += vocabulary[next() % vocabulary.size()] + " ";
    CAPTURE(line);
    CHECK(s.handle(line));
    if (i % 50 == 49) {
      s.handle("stop");  // ends a search the random lines may have started, so d can be read
      s.take();
      const std::string text = s.position();
      bool valid = false;  // under one of the rules the vocabulary can set
      for (Movement m : {Movement::step, Movement::slide})
        for (CaptureLines c : {CaptureLines::orthogonal, CaptureLines::orthogonal_and_diagonal})
          for (int limit : {1, 2, 3, 12, 20}) valid |= parse_position(text, Rules{m, c, limit}).has_value();
      CHECK_MESSAGE(valid, text);
    }
  }
  s.handle("stop");
  s.take();
  CHECK(s.send("isready") == std::vector<std::string>{"readyok"});
}
