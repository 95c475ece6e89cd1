// The text forms of RULES.md: position strings (round trips, adjacent digits, the short form,
// every refusal rule) and move texts (every refusal reason).
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "moon/display.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "random_positions.hpp"

using namespace moon;

namespace {

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

Position pos(std::string_view text, const Rules& rules = {}) {
  const auto p = parse_position(text, rules);
  REQUIRE_MESSAGE(p.has_value(), (std::string(text) + ": " + (p ? std::string() : p.error().message)));
  return *p;
}

// print then parse gives the same position; the printed text is what it reads back to.
void check_round_trip(const Position& p) {
  const std::string text = to_string(p);
  const auto back = parse_position(text, p.rules());
  INFO(text, " (", test::rules_name(p.rules()), ")");
  REQUIRE_MESSAGE(back.has_value(), (back ? std::string() : back.error().message));
  CHECK(*back == p);
  CHECK(to_string(*back) == text);
}

#ifdef MOON_SANITIZE_BUILD
constexpr int games_per_rule_set = 4;
#else
constexpr int games_per_rule_set = 20;
#endif

}  // namespace

TEST_CASE("the start position string round-trips") {
  const auto pos = parse_position(start_position_string);
  REQUIRE(pos.has_value());
  CHECK(*pos == Position::start());
  CHECK(to_string(*pos) == start_position_string);
}

TEST_CASE("round trips on random reachable positions of every phase and variant") {
  std::mt19937_64 rng(0x5eed0001);
  int placement = 0, movement = 0, over = 0;
  for (const Rules& rules : test::all_rule_sets()) {
    for (int game = 0; game < 3 * games_per_rule_set; ++game) {
      // A third from the start, a third from custom placement setups, a third from movement setups.
      Position p = Position::start(rules);
      if (game % 3) {
        const test::Setup setup = test::random_setup(rng, rules, game % 3 == 1);
        p = pos(setup.text(), rules);
      }
      for (;;) {
        check_round_trip(p);
        const Phase phase = p.phase();
        placement += phase == Phase::placement;
        movement += phase == Phase::movement;
        over += phase == Phase::over;
        if (p.is_over()) break;
        const MoveList moves = legal_moves(p);
        p.play(moves[rng() % moves.size()]);
      }
    }
  }
  MESSAGE("round trips: ", placement, " placement, ", movement, " movement, ", over, " over");
  CHECK(placement > 1000);
  CHECK(movement > 1000);
  CHECK(over > 100);
}

TEST_CASE("random custom setups: canonical text, split digits and the short form all read the same") {
  std::mt19937_64 rng(0x5eed0002);
  int short_forms = 0;
  for (const Rules& rules : test::all_rule_sets()) {
    for (int i = 0; i < 25 * games_per_rule_set; ++i) {
      const test::Setup setup = test::random_setup(rng, rules, i % 2 == 0);
      const std::string canonical = setup.text();
      INFO(canonical, " (", test::rules_name(rules), ")");
      const Position p = pos(canonical, rules);
      CHECK(to_string(p) == canonical);
      CHECK(p.in_hand(x) == setup.x_hand);
      CHECK(p.in_hand(o) == setup.o_hand);
      CHECK(p.clock() == setup.clock);
      CHECK(p.fullmove() == setup.fullmove);
      CHECK(to_string(p.side_to_move())[0] == setup.side);
      for (int k = 0; k < 3; ++k) {
        const std::string split = setup.split_digits_text(rng);
        INFO("split: ", split);
        CHECK(pos(split, rules) == p);
      }
      if (setup.x_hand == 0 && setup.o_hand == 0) {
        // The short form: hands 0, clock 0, fullmove 1.
        const std::string board_and_side = canonical.substr(0, canonical.find(' ') + 2);
        const Position short_form = pos(board_and_side, rules);
        CHECK(to_string(short_form) == board_and_side + " 0 0 0 1");
        CHECK(short_form.pieces(x) == p.pieces(x));
        CHECK(short_form.pieces(o) == p.pieces(o));
        ++short_forms;
      }
    }
  }
  CHECK(short_forms > 100);
}

TEST_CASE("adjacent digits are accepted when reading and merged when printing") {
  CHECK(to_string(pos("23/5/14/41/311 x 12 12 0 1")) == "5/5/5/5/5 x 12 12 0 1");
  CHECK(to_string(pos("11111/212/1112/32/5 x 12 12 0 1")) == "5/5/5/5/5 x 12 12 0 1");
  CHECK(to_string(pos("x13/22x/o11o1/1x111/4o o")) == "x4/4x/o2o1/1x3/4o o 0 0 0 1");
  CHECK(pos("x13/22x/o11o1/1x111/4o o") == pos("x4/4x/o2o1/1x3/4o o"));
}

TEST_CASE("the short two-field form") {
  const Position p = pos("xx3/oo3/5/5/5 o");
  CHECK(to_string(p) == "xx3/oo3/5/5/5 o 0 0 0 1");
  CHECK(p == pos("xx3/oo3/5/5/5 o 0 0 0 1"));
  CHECK(p.phase() == Phase::movement);
  // c3 may be occupied in the movement phase, also in the short form.
  CHECK(to_string(pos("5/5/2x2/o4/o3x x")) == "5/5/2x2/o4/o3x x 0 0 0 1");
  // The short form of a game already over is read and reported as over.
  CHECK(pos("5/5/2x2/5/o3x o").phase() == Phase::over);
}

TEST_CASE("malformed position strings are refused with a message naming the problem") {
  struct Case {
    const char* text;
    const char* names;  // a part of the message that names the problem
    int clock_limit = 20;
  };
  const Case cases[] = {
      // Fields: only six, or two (the last four left out together).
      {"", "the position string is empty"},
      {"5/5/5/5/5", "has 1 field;"},
      {"5/5/5/5/5 x 12", "fields"},
      {"5/5/5/5/5 x 12 12", "fields"},
      {"5/5/5/5/5 x 12 12 0", "fields"},
      {"5/5/5/5/5 x 12 12 0 1 1", "fields"},
      {"5/5/5/5/5 x 12 12 0 1 x", "fields"},
      {"5/5/5/5/5  x", "has two spaces in a row: fields are separated by single spaces"},
      {" 5/5/5/5/5 x", "starts with a space: fields are separated by single spaces"},
      {"5/5/5/5/5 x ", "ends with a space: fields are separated by single spaces"},
      {"5/5/5/5/5 x 12  12 0 1", "has two spaces in a row"},
      {"5/5/5/5/5\tx", "has a tab: fields are separated by single spaces"},
      {"5/5/5/5/5 x\r", "has a carriage return"},
      {"5/5/5/5/5 x\n", "has a line break"},
      {" ", "the position string ' ' is only spaces"},
      {"5/5/5/5/5  x ", "has two spaces in a row and ends with a space: fields are separated by single spaces"},
      // Ranks: exactly five, each covering exactly 5 squares.
      {"5/5/5/5 x", "ranks"},
      {"5/5/5/5/5/5 x", "ranks"},
      {"5/5//5/5/5 x", "ranks"},
      {"55555 x", "board '55555' has 1 rank; it needs exactly 5"},
      {"5/5/5/5 x", "board '5/5/5/5' has 4 ranks; it needs exactly 5"},
      {"5/5/5/5/ x", "rank 1"},
      {"4/5/5/5/5 x", "rank 5 '4' covers only 4 squares; each rank covers exactly 5"},
      {"x/5/5/5/5 x", "rank 5 'x' covers only 1 square; each rank covers exactly 5"},
      {"5/33/5/5/5 x", "rank 4"},
      {"5/5/42/5/5 x", "rank 3"},
      {"5/5/5/xxxxxx/5 x", "rank 2"},
      {"5/5/5/5/xo x", "rank 1"},
      {"5/5/5/5/55 x", "rank 1"},
      {"5/5/5/5/x5 x", "rank 1"},
      {"5/5/5/5/4x1 x", "rank 1"},
      // Unknown characters, 0 and 6-9 included.
      {"5/5/0/5/5 x", "character '0'"},
      {"5/5/5/5/6 x", "character '6'"},
      {"5/5/5/5/1x7 x", "character '7'"},
      {"8/5/5/5/5 x", "character '8'"},
      {"5/5/5/5/9 x", "character '9'"},
      {"5/5/5/5/X4 x", "character 'X'"},
      {"5/5/5/5/O4 x", "character 'O'"},
      {"5/5/5/5/.4 x", "character '.'"},
      {"5/5/5/5/4- x", "character '-'"},
      {"5/5/5/5/p4 x", "character 'p'"},
      // The side to move.
      {"5/5/5/5/5 y", "side to move"},
      {"5/5/5/5/5 X", "side to move"},
      {"5/5/5/5/5 xo", "side to move"},
      {"5/5/5/5/5 - 12 12 0 1", "side to move"},
      // Counts: whole numbers in range.
      {"5/5/5/5/5 x 13 13 0 1", "x in hand"},
      {"5/5/5/5/5 x -1 -1 0 1", "x in hand"},
      {"5/5/5/5/5 x a 12 0 1", "x in hand"},
      {"5/5/5/5/5 x 1.5 12 0 1", "x in hand"},
      {"5/5/5/5/5 x +12 12 0 1", "x in hand"},
      {"5/5/5/5/5 x 12 13 0 1", "o in hand"},
      {"5/5/5/5/5 x 12 twelve 0 1", "o in hand"},
      {"5/5/5/5/5 x 12 99999999999999999999 0 1", "o in hand"},
      {"xx3/oo3/5/5/5 x 0 0 21 1", "clock"},
      {"xx3/oo3/5/5/5 x 0 0 11 1", "clock", 10},
      {"xx3/oo3/5/5/5 x 0 0 2 1", "clock", 1},
      {"xx3/oo3/5/5/5 x 0 0 -1 1", "clock"},
      {"xx3/oo3/5/5/5 x 0 0 1e1 1", "clock"},
      {"xx3/oo3/5/5/5 x 0 0 0 0", "fullmove"},
      {"xx3/oo3/5/5/5 x 0 0 0 -4", "fullmove"},
      {"xx3/oo3/5/5/5 x 0 0 0 one", "fullmove"},
      {"xx3/oo3/5/5/5 x 0 0 0 99999999999999999999", "fullmove"},
      // At most 12 counters a player, on the board and in hand.
      {"xxxxx/xxxxx/xxx2/5/5 o", "13"},
      {"ooooo/ooooo/ooo2/5/5 x", "13"},
      {"xxxxx/xxxxx/xx3/5/5 x 1 1 0 1", "x would own 13"},
      {"ooooo/ooooo/o4/5/5 o 1 2 0 1", "o would own 13"},
      {"5/5/5/5/x4 x 12 12 0 1", "x would own 13"},
      // While counters are in hand: c3 empty, clock 0, hands fitting the alternation.
      {"5/5/2x2/5/5 o 11 12 0 1", "c3"},
      {"5/5/2o2/5/5 x 11 11 0 1", "c3"},
      {"x4/5/5/5/4o x 11 11 3 1", "clock"},
      {"5/5/5/5/5 x 12 11 0 1", "alternation"},
      {"5/5/5/5/5 x 11 12 0 1", "alternation"},
      {"5/5/5/5/5 o 12 12 0 1", "alternation"},
      {"5/5/5/5/5 o 10 12 0 1", "alternation"},
      {"5/5/5/5/5 o 1 0 0 1", "alternation"},
      {"5/5/5/5/5 x 0 1 0 1", "alternation"},
  };
  for (const Case& c : cases) {
    Rules rules;
    rules.clock_limit = c.clock_limit;
    const auto p = parse_position(c.text, rules);
    INFO("'", std::string(c.text), "' clock limit ", c.clock_limit);
    REQUIRE_FALSE(p.has_value());
    INFO("message: ", p.error().message);
    CHECK(contains(p.error().message, c.names));
  }
}

TEST_CASE("messages about any input stay one printable line") {
  // A terminal control sequence and a bell in a position string, and a very long move text.
  const auto bad_fen = parse_position("\x1b[31mxx\a x");
  REQUIRE_FALSE(bad_fen.has_value());
  const auto bad_move = parse_move(std::string(500, 'b'), Position::start());
  REQUIRE_FALSE(bad_move.has_value());
  for (const std::string& message : {bad_fen.error().message, bad_move.error().message}) {
    INFO(message);
    CHECK(std::all_of(message.begin(), message.end(), [](char c) { return c >= 0x20 && c < 0x7f; }));
    CHECK(message.size() < 200);
  }
  CHECK(bad_fen.error().message.find("'\\x1b[31mxx\\x07'") != std::string::npos);
  // Not '?', which the user may not have typed: "é" is two bytes, each named; a backslash doubled.
  CHECK(moon::quoted("\xc3\xa9" "4\\") == "'\\xc3\\xa94\\\\'");
  // A quote inside after a backslash, so that the closing quote is the only bare one.
  CHECK(moon::quoted("it's") == "'it\\'s'");
  const auto quote_in_rank = parse_position("4'/5/5/5/5 x");
  REQUIRE_FALSE(quote_in_rank.has_value());
  CHECK(quote_in_rank.error().message.find("the unknown character '\\''") != std::string::npos);
  const auto accented = parse_position("\xc3\xa9" "4/5/5/5/5 x");
  REQUIRE_FALSE(accented.has_value());
  CHECK(accented.error().message.find("the unknown character '\\xc3'") != std::string::npos);
  CHECK(moon::quoted(std::string(81, 'b')) == "'" + std::string(80, 'b') + "...'");
}

TEST_CASE("the edges of the ranges are accepted") {
  CHECK(pos("5/5/5/5/5 o 0 1 0 1").in_hand(o) == 1);
  CHECK(pos("xx3/oo3/5/5/5 x 0 0 20 999999999").clock() == 20);
  // One past the edge: the message says where the edge comes from.
  const auto past = parse_position("xx3/oo3/5/5/5 x 0 0 21 1");
  REQUIRE_FALSE(past.has_value());
  CHECK(past.error().message == "clock '21' must be a whole number from 0 to 20 (the rules' clock limit)");
  // A game may count past the largest fullmove read; it is written as that, and reads back.
  Position counting = pos("xx3/oo3/5/5/5 o 0 0 0 999999999");
  counting.play(*parse_move("a4a3", counting));
  CHECK(counting.fullmove() == 1'000'000'000);
  CHECK(to_string(counting) == "xx3/1o3/o4/5/5 x 0 0 1 999999999");
  CHECK(parse_position(to_string(counting)).has_value());
  CHECK(shown_fullmove(counting) == 999'999'999);
  CHECK(status_line(counting).ends_with("; move 999999999"));
  Rules limit_255;
  limit_255.clock_limit = 255;
  CHECK(pos("xx3/oo3/5/5/5 x 0 0 255 7", limit_255).is_over());
  CHECK(pos("xxxxx/xxxxx/xx3/5/5 x").count(x) == 12);
  const Position last = pos("xxxxx/xxxxx/xx1oo/ooooo/oooo1 o 0 1 0 12");
  CHECK(last.phase() == Phase::placement);
  CHECK(legal_moves(last).size() == 1);
}

TEST_CASE("invalid rules are refused before the text is read") {
  for (int limit : {0, -1, 256, 1000}) {
    Rules rules;
    rules.clock_limit = limit;
    const auto p = parse_position(start_position_string, rules);
    REQUIRE_FALSE(p.has_value());
    CHECK(contains(p.error().message, "clock limit"));
    CHECK_FALSE(make_rules(Movement::step, CaptureLines::orthogonal, limit).has_value());
  }
  CHECK(make_rules(Movement::slide, CaptureLines::orthogonal_and_diagonal, 1).has_value());
  CHECK(make_rules(Movement::step, CaptureLines::orthogonal, 255).has_value());
}

TEST_CASE("move texts that are malformed or illegal are refused with the reason") {
  struct Case {
    const char* position;
    const char* move;
    const char* names;
    bool slide = false;
  };
  const char* placement = "5/1xo2/5/5/1x1ox o 9 10 0 3";
  const char* movement = "oo3/5/5/x4/1o1ox x 0 0 4 5";
  const char* blocked = "3ox/4o/5/o4/xo3 x 0 0 5 20";
  const char* over = "oo3/o4/5/x4/1o1ox x 0 0 20 5";
  const Case cases[] = {
      // Malformed.
      {placement, "", "not a move"},
      {placement, "b", "not a move"},
      {placement, "b44", "not a move"},
      {placement, "b4c", "not a move"},
      {placement, "b4c3d", "not a move"},
      {placement, "00000", "not a move"},
      {placement, "000", "not a move"},
      {blocked, "pass", "'pass' is not move text: the pass is written 0000"},
      {placement, "f1", "not a square"},
      {placement, "a0", "not a square"},
      {placement, "a6", "not a square"},
      {placement, "B4", "'B4' is not a move: 'B4' is not a square: squares are written in lower case (b4)"},
      {movement, "a2A1", "'A1' is not a square: squares are written in lower case (a1)"},
      {placement, "F4", "'F4' is not a square (a1 to e5)"},
      {placement, "B6", "'B6' is not a square (a1 to e5)"},
      {placement, " b4", "not a move"},
      {movement, "b3-c3", "not a move"},
      {movement, "a2a0", "not a square"},
      {movement, "z9a1", "not a square"},
      {movement, "a2 a1", "not a move"},
      {movement, "0001", "not a square"},
      // Wrong phase.
      {placement, "b3c3", "in hand"},
      {placement, "0000", "in hand"},
      {movement, "a3", "all counters are placed"},
      // Placement targets.
      {placement, "c3", "c3"},
      {placement, "b4", "occupied"},
      {placement, "e1", "occupied"},
      // Not the mover's counter.
      {movement, "b1c1", "o's counter"},
      {movement, "a3a4", "no x counter on a3"},
      {movement, "c3c4", "no x counter on c3"},
      // Where the counter may go.
      {movement, "a2a2", "another square"},
      {"oo3/5/5/x4/xo1ox x 0 0 4 5", "a2a1", "occupied"},
      {movement, "a2b3", "diagonally"},
      {movement, "e1d2", "diagonally"},
      {movement, "a2a4", "one square at a time"},
      {movement, "a2c2", "one square at a time"},
      {movement, "a2c4", "diagonally", true},
      {movement, "a2b4", "along a rank or a file, and a2 and b4 share neither"},
      {movement, "a2c3", "a2 and c3 share neither", true},
      {"oo3/5/5/x4/xo1ox x 0 0 4 5", "a1c1", "blocked", true},
      {"oo3/x4/5/o4/x1o1x x 0 0 4 5", "a1a3", "blocked", true},
      {"oo3/x4/5/o4/x1o1x x 0 0 4 5", "e1b1", "blocked", true},
      // The pass, and moving while blocked.
      {movement, "0000", "not blocked"},
      {"oo3/5/5/x4/1o1ox x 0 0 4 5", "0000", "not blocked", true},
      {blocked, "a1a2", "blocked and must pass"},
      {blocked, "e5e4", "blocked and must pass"},
      {blocked, "d5d4", "blocked and must pass"},
      // Game over.
      {over, "a2a3", "over"},
      {over, "0000", "over"},
      {"5/1x3/2o2/3x1/5 o", "c3c4", "over"},
  };
  for (const Case& c : cases) {
    Rules rules;
    if (c.slide) rules.movement = Movement::slide;
    const Position before = pos(c.position, rules);
    const Position copy = before;
    const auto m = parse_move(c.move, before);
    INFO("'", std::string(c.move), "' in ", std::string(c.position), (c.slide ? " (slide)" : ""));
    REQUIRE_FALSE(m.has_value());
    INFO("message: ", m.error().message);
    CHECK(contains(m.error().message, c.names));
    CHECK(before == copy);
    CHECK(to_string(before) == to_string(copy));
  }
}

TEST_CASE("every legal move's text reads back as that move, in random games of every variant") {
  std::mt19937_64 rng(0x5eed0003);
  for (const Rules& rules : test::all_rule_sets()) {
    for (int game = 0; game < games_per_rule_set / 2; ++game) {
      Position p = Position::start(rules);
      while (!p.is_over()) {
        const MoveList moves = legal_moves(p);
        for (Move m : moves) {
          const auto back = parse_move(to_string(m), p);
          INFO(to_string(p), " move ", to_string(m));
          REQUIRE(back.has_value());
          CHECK(*back == m);
        }
        p.play(moves[rng() % moves.size()]);
      }
    }
  }
}

TEST_CASE("squares, colours, results and phases as text") {
  CHECK(square_name(0) == "a1");
  CHECK(square_name(centre) == "c3");
  CHECK(square_name(24) == "e5");
  CHECK(square_name(9) == "e2");
  for (Square s = 0; s < square_count; ++s) {
    const auto back = parse_square(square_name(s));
    REQUIRE(back.has_value());
    CHECK(*back == s);
  }
  CHECK(to_string(Move::placement(21)) == "b5");
  CHECK(to_string(Move::movement(7, 12)) == "c2c3");
  CHECK(to_string(Move::pass()) == "0000");
  CHECK(squares_text(0) == "");
  CHECK(squares_text(square_bb(1) | square_bb(6) | square_bb(24)) == "b1 b2 e5");
  CHECK(to_string(Result::x_wins) == "x wins");
  CHECK(to_string(Result::draw) == "draw");
  CHECK(to_string(Phase::over) == "over");
}

TEST_CASE("Expected: the value it holds can be changed in place, and moved out") {
  auto pos = parse_position("5/5/5/5/5 x 12 12 0 1");
  REQUIRE(pos);
  const auto b4 = parse_move("b4", *pos);
  REQUIRE(b4);
  pos->play(*b4);  // through operator->, on the value held
  CHECK(to_string(*pos) == "5/1x3/5/5/5 o 11 12 0 1");
  (*pos).play(*parse_move("d2", *pos));  // through operator*
  CHECK(to_string(pos.value()) == "5/1x3/5/3o1/5 x 11 11 0 2");
  // A value that can only be moved comes out of a temporary Expected with operator*.
  Expected<std::unique_ptr<int>> owner = std::make_unique<int>(7);
  const std::unique_ptr<int> taken = *std::move(owner);
  CHECK(*taken == 7);
}
