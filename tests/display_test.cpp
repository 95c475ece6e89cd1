// The drawn board (moon/display.hpp): each counter on its own square, seen from x's side with
// rank 5 at the top; '+' on c3 while it must stay empty; '*' on the marked squares left empty.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "moon/display.hpp"
#include "moon/notation.hpp"
#include "run_moon.hpp"

namespace {

using namespace moon;

Position parsed(const std::string& text) {
  const auto p = parse_position(text);
  REQUIRE(p.has_value());
  return *p;
}

// What draw() shows on square (file 0-4, rank 1-5): the character between its bars.
char shown(const std::vector<std::string>& lines, int file, int rank) {
  // Line 0: the files; then a border and a rank line for each rank from 5 down.
  const std::string& line = lines[std::size_t(2 + 2 * (5 - rank))];
  return line[std::size_t(4 + 4 * file)];
}

}  // namespace

TEST_CASE("draw() puts every counter on its square, rank 5 at the top, files a to e") {
  const std::string board = draw(parsed("x3o/5/2o2/1x3/o3x x 0 0 3 9"));
  const std::vector<std::string> lines = test::lines(board);
  REQUIRE(lines.size() == 13);
  CHECK(lines.front() == "    a   b   c   d   e");
  CHECK(lines.back() == "    a   b   c   d   e");
  CHECK(lines[1] == "  +---+---+---+---+---+");
  CHECK(lines[2] == "5 | x |   |   |   | o | 5");
  const std::string expected[5] = {"x   o", "     ", "  o  ", " x   ", "o   x"};  // ranks 5 to 1
  for (int rank = 5; rank >= 1; --rank)
    for (int file = 0; file < 5; ++file) {
      INFO("file ", file, " rank ", rank);
      CHECK(shown(lines, file, rank) == expected[5 - rank][std::size_t(file)]);
    }
}

TEST_CASE("draw(): '+' on c3 while placing, '*' on marked empty squares only") {
  const std::vector<std::string> placing = test::lines(draw(parsed("5/5/5/5/x4 o 11 12 0 1")));
  CHECK(shown(placing, 2, 3) == '+');
  CHECK(shown(placing, 0, 1) == 'x');
  const std::vector<std::string> moving = test::lines(draw(parsed("x3o/5/5/5/o3x x 0 0 3 9")));
  CHECK(shown(moving, 2, 3) == ' ');  // c3 is a square like any other once the counters move
  // b1 (empty) and a1 (occupied) marked: the star only where nothing stands.
  const Bitboard marked = Bitboard{1} << 1 | Bitboard{1} << 0;
  const std::vector<std::string> starred = test::lines(draw(parsed("x3o/5/5/5/o3x x 0 0 3 9"), marked));
  CHECK(shown(starred, 1, 1) == '*');
  CHECK(shown(starred, 0, 1) == 'o');
  int stars = 0;
  for (const std::string& line : starred)
    for (char c : line) stars += c == '*';
  CHECK(stars == 1);
}

TEST_CASE("status_line() says whose turn, the phase, the clock and the move; the result when over") {
  CHECK(status_line(parsed("x3o/5/5/5/o3x x 0 0 3 9")) == "x to move, movement phase; clock 3/20; move 9");
  const std::string over = status_line(parsed("4o/5/5/2x2/x4 o"));
  CHECK(over == "game over: x wins (x 2, o 1 counters); clock 0/20; move 1");
}
