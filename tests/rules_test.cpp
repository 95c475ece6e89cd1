// Every rule of RULES.md on hand-made positions, with the outcome worked out by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/position.hpp"

using namespace moon;

namespace {

constexpr Rules slide_rules{Movement::slide, CaptureLines::orthogonal, 20};
constexpr Rules diagonal_rules{Movement::step, CaptureLines::orthogonal_and_diagonal, 20};
constexpr Rules slide_diagonal_rules{Movement::slide, CaptureLines::orthogonal_and_diagonal, 20};

Rules with_limit(int limit, Rules rules = {}) {
  rules.clock_limit = limit;
  return rules;
}

Position pos(std::string_view text, const Rules& rules = {}) {
  const auto p = parse_position(text, rules);
  REQUIRE_MESSAGE(p.has_value(), (std::string(text) + ": " + (p ? std::string() : p.error().message)));
  return *p;
}

Move move(std::string_view text, const Position& p) {
  const auto m = parse_move(text, p);
  REQUIRE_MESSAGE(m.has_value(), (std::string(text) + " in " + to_string(p) + ": " + (m ? std::string() : m.error().message)));
  return *m;
}

// "b1 c1 d1" as a bitboard.
Bitboard bb(std::string_view text) {
  Bitboard b = 0;
  for (std::size_t i = 0; i + 2 <= text.size(); i += 3) {
    const auto s = parse_square(text.substr(i, 2));
    REQUIRE(s.has_value());
    b |= square_bb(*s);
  }
  return b;
}

std::set<std::string> moves_of(const Position& p) {
  std::set<std::string> texts;
  for (Move m : legal_moves(p)) texts.insert(to_string(m));
  return texts;
}

struct Played {
  Position next;
  Bitboard captured;
};

// Plays a legal move given as text; checks that captures_of() announced exactly what play()
// captured and that the captured counters are gone.
Played play(const Position& p, std::string_view text) {
  const Move m = move(text, p);
  Played r{p, 0};
  r.captured = r.next.play(m);
  CHECK(p.captures_of(m) == r.captured);
  CHECK((r.next.occupied() & r.captured) == 0);
  CHECK((p.pieces(~p.side_to_move()) & r.captured) == r.captured);
  CHECK(r.next.side_to_move() == ~p.side_to_move());
  return r;
}

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("the start position: x places first, 24 squares, nothing over") {
  const Position start = Position::start();
  CHECK(start == pos("5/5/5/5/5 x 12 12 0 1"));
  CHECK(start.side_to_move() == x);
  CHECK(start.in_hand(x) == 12);
  CHECK(start.in_hand(o) == 12);
  CHECK(start.placements_left() == 24);
  CHECK(start.after(Move::placement(parse_square("a1").value())).placements_left() == 23);
  CHECK(pos("xo1xo/xxxox/xo1ox/ooxxx/oooox o 0 1 0 12").placements_left() == 1);
  CHECK(pos("xooxo/xxxox/xo1ox/ooxxx/oooox x 0 0 0 13").placements_left() == 0);
  CHECK(start.phase() == Phase::placement);
  CHECK(legal_moves(start).size() == 24);
}

TEST_CASE("placement on c3 is refused") {
  const Position start = Position::start();
  CHECK_FALSE(legal_moves(start).contains(Move::placement(centre)));
  const auto refused = parse_move("c3", start);
  REQUIRE_FALSE(refused.has_value());
  CHECK(contains(refused.error().message, "c3"));

  // Late in the placement only c5 and c3 are empty: c5 is the one legal placement.
  const Position late = pos("xo1xo/xxxox/xo1ox/ooxxx/oooox o 0 1 0 12");
  CHECK(moves_of(late) == std::set<std::string>{"c5"});
  CHECK_FALSE(parse_move("c3", late).has_value());
  // The variants do not change placement.
  CHECK(moves_of(pos("xo1xo/xxxox/xo1ox/ooxxx/oooox o 0 1 0 12", slide_diagonal_rules)) ==
        std::set<std::string>{"c5"});
}

TEST_CASE("placement alternates and never captures, however counters end up sandwiched") {
  SUBCASE("x closes o on b1 between a1 and c1") {
    const auto [next, captured] = play(pos("5/5/5/5/xo3 x 11 11 0 2"), "c1");
    CHECK(captured == 0);
    CHECK(to_string(next) == "5/5/5/5/xox2 o 10 11 0 2");
  }
  SUBCASE("o places between two x") {
    const auto [next, captured] = play(pos("5/5/5/o4/x1x2 o 10 11 0 2"), "b1");
    CHECK(captured == 0);
    CHECK(to_string(next) == "5/5/5/o4/xox2 x 10 10 0 3");
  }
  SUBCASE("with diagonal lines, a placement closing four runs captures nothing") {
    const Position before = pos("5/xo1ox/1o1o1/x3x/5 x 8 8 0 5", diagonal_rules);
    const auto [next, captured] = play(before, "c4");
    CHECK(captured == 0);
    CHECK(next.pieces(o) == before.pieces(o));
    CHECK(next.count(o) == 4);
    CHECK(next.clock() == 0);
  }
}

TEST_CASE("the last placement starts the movement phase with the next player in alternation") {
  const auto [next, captured] = play(pos("xo1xo/xxxox/xo1ox/ooxxx/oooox o 0 1 0 12"), "c5");
  CHECK(captured == 0);
  CHECK(to_string(next) == "xooxo/xxxox/xo1ox/ooxxx/oooox x 0 0 0 13");
  CHECK(next.phase() == Phase::movement);
  CHECK(next.side_to_move() == x);
  // x's counters next to c3 are c4 and c2: the first moves go into the centre.
  CHECK(moves_of(next) == std::set<std::string>{"c4c3", "c2c3"});
}

TEST_CASE("a single capture") {
  // x: a1 d1 e5; o: a5 b5 b1. d1c1 closes b1 against a1.
  const Position before = pos("oo2x/5/5/5/xo1x1 x 0 0 3 10");
  const auto [next, captured] = play(before, "d1c1");
  CHECK(captured == bb("b1"));
  CHECK(to_string(next) == "oo2x/5/5/5/x1x2 o 0 0 0 10");
  CHECK(next.count(o) == 2);
  CHECK_FALSE(next.is_over());
  // The same counter stepping elsewhere captures nothing.
  CHECK(play(before, "d1d2").captured == 0);
  CHECK(play(before, "d1e1").captured == 0);
}

TEST_CASE("a run of several counters is captured whole") {
  SUBCASE("three on rank 1") {
    const auto [next, captured] = play(pos("oo3/5/5/4x/xooo1 x 0 0 0 5"), "e2e1");
    CHECK(captured == bb("b1 c1 d1"));
    CHECK(to_string(next) == "oo3/5/5/5/x3x o 0 0 0 5");
  }
  SUBCASE("two on file a, closed from below") {
    const auto [next, captured] = play(pos("x4/o4/o4/1x3/2o1o x 0 0 0 7"), "b2a2");
    CHECK(captured == bb("a3 a4"));
    CHECK(to_string(next) == "x4/5/5/x4/2o1o o 0 0 0 7");
  }
  SUBCASE("o captures x the same way") {
    const auto [next, captured] = play(pos("xx3/5/5/4o/oxxx1 o 0 0 6 5"), "e2e1");
    CHECK(captured == bb("b1 c1 d1"));
    CHECK(to_string(next) == "xx3/5/5/5/o3o x 0 0 0 6");
  }
}

TEST_CASE("captures in several directions happen together") {
  SUBCASE("three directions") {
    const Position before = pos("2x1o/2o2/xo1x1/2o2/2x1o x 0 0 0 9");
    const auto [next, captured] = play(before, "d3c3");
    CHECK(captured == bb("c2 b3 c4"));
    CHECK(to_string(next) == "2x1o/5/x1x2/5/2x1o o 0 0 0 9");
  }
  SUBCASE("two directions along one line: moving into the gap of x o . o x") {
    const auto [next, captured] = play(pos("oo3/5/5/2x2/xo1ox x 0 0 0 5"), "c2c1");
    CHECK(captured == bb("b1 d1"));
    CHECK(to_string(next) == "oo3/5/5/5/x1x1x o 0 0 0 5");
  }
}

TEST_CASE("an empty square breaks a run") {
  // After a2a1 rank 1 reads x o . o x: nothing is captured.
  const auto [next, captured] = play(pos("oo3/5/5/x4/1o1ox x 0 0 4 5"), "a2a1");
  CHECK(captured == 0);
  CHECK(to_string(next) == "oo3/5/5/5/xo1ox o 0 0 5 5");
  // A run closed by an empty square on a file: a1 x, a2 o, a3 empty, a4 x.
  CHECK(play(pos("oo3/x4/5/o4/1x3 x 0 0 0 5"), "b1a1").captured == 0);
}

TEST_CASE("a run that reaches the edge captures nothing") {
  const Position before = pos("o4/o4/1x3/2x2/3oo x 0 0 0 5");
  CHECK(play(before, "b3a3").captured == 0);  // a4 a5 run to the top edge
  CHECK(play(before, "c2c1").captured == 0);  // d1 e1 run to the right edge
  CHECK(play(pos("o4/o4/1x3/2x2/3oo x 0 0 0 5", diagonal_rules), "c2c1").captured == 0);
}

TEST_CASE("moving into a sandwich is safe: only the mover captures") {
  // o steps into b1 between x on a1 and c1.
  const Position before = pos("xx2o/5/5/1o3/x1x2 o 0 0 0 5");
  const auto [next, captured] = play(before, "b2b1");
  CHECK(captured == 0);
  CHECK((next.pieces(o) & bb("b1")) != 0);
  CHECK(next.count(o) == 2);
  CHECK(next.clock() == 1);
  // x moving another counter later does not capture it either: the sandwich stays.
  for (const char* m : {"a5a4", "b5b4", "c1d1"}) {
    INFO(std::string(m));
    const auto after = play(next, m);
    CHECK(after.captured == 0);
    CHECK((after.next.pieces(o) & bb("b1")) != 0);
  }
  // The mover's own sandwiched counter stays: o on b1 sits between x on a1 and c1 when o plays
  // e1d1, which captures c1; b1 and x's a1 both stay.
  const auto [later, taken] = play(pos("xx2o/5/5/2o2/xox1o o 0 0 0 5"), "e1d1");
  CHECK(taken == bb("c1"));
  CHECK(later.count(o) == 4);
  CHECK((later.pieces(x) & bb("a1")) != 0);
}

TEST_CASE("the blocked player passes, and only then") {
  SUBCASE("x blocked in two corners") {
    const Position before = pos("3ox/4o/5/o4/xo3 x 0 0 5 20");
    CHECK(moves_of(before) == std::set<std::string>{"0000"});
    CHECK(count_moves(before) == 1);
    const auto [next, captured] = play(before, "0000");
    CHECK(captured == 0);
    CHECK(to_string(next) == "3ox/4o/5/o4/xo3 o 0 0 5 20");  // clock and fullmove unchanged
    CHECK(moves_of(next).count("0000") == 0);
    CHECK(moves_of(next).size() == 8);
    // The same position under slide rules: still blocked.
    CHECK(moves_of(pos("3ox/4o/5/o4/xo3 x 0 0 5 20", slide_rules)) == std::set<std::string>{"0000"});
  }
  SUBCASE("o blocked: its pass ends o's turn, so the fullmove goes up") {
    const auto [next, captured] = play(pos("3xo/4x/5/x4/ox3 o 0 0 5 20"), "0000");
    CHECK(captured == 0);
    CHECK(to_string(next) == "3xo/4x/5/x4/ox3 x 0 0 5 21");
  }
  SUBCASE("no pass while a move exists") {
    const Position free = pos("oo3/5/5/x4/1o1ox x 0 0 4 5");
    CHECK_FALSE(legal_moves(free).contains(Move::pass()));
    CHECK_FALSE(parse_move("0000", free).has_value());
    CHECK_FALSE(parse_move("0000", Position::start()).has_value());
  }
}

TEST_CASE("the very first move after placement: x with no counter next to c3 passes, o moves into the centre") {
  // o places its last counter on e1; c3's neighbours b3 c4 d3 c2 are all o.
  const Position last_placement = pos("xxxxx/xxoxx/xo1ox/ooooo/xooo1 o 0 1 0 12");
  CHECK(moves_of(last_placement) == std::set<std::string>{"e1"});
  const auto [first, placed_captures] = play(last_placement, "e1");
  CHECK(placed_captures == 0);
  CHECK(to_string(first) == "xxxxx/xxoxx/xo1ox/ooooo/xoooo x 0 0 0 13");
  CHECK(first.phase() == Phase::movement);
  CHECK(moves_of(first) == std::set<std::string>{"0000"});
  const auto [second, pass_captures] = play(first, "0000");
  CHECK(pass_captures == 0);
  CHECK(to_string(second) == "xxxxx/xxoxx/xo1ox/ooooo/xoooo o 0 0 0 13");
  CHECK(moves_of(second) == std::set<std::string>{"b3c3", "c4c3", "d3c3", "c2c3"});
  const auto [third, captured] = play(second, "c2c3");
  CHECK(captured == 0);
  CHECK(to_string(third) == "xxxxx/xxoxx/xooox/oo1oo/xoooo x 0 0 1 14");
}

TEST_CASE("both sides are never blocked at once") {
  // With at least one counter and one empty square on the board, some empty square touches a
  // counter, so some side can move; after a pass the other side must have a real move.
  std::mt19937 rng(20240601);
  int passes = 0;
  for (const Rules& rules : {Rules{}, slide_rules}) {
    for (int game = 0; game < 600; ++game) {
      Position p = Position::start(rules);
      while (!p.is_over()) {
        const MoveList moves = legal_moves(p);
        REQUIRE_FALSE(moves.empty());
        if (moves[0] == Move::pass()) {
          REQUIRE(moves.size() == 1);
          ++passes;
          const Position next = p.after(Move::pass());
          INFO(to_string(p));
          REQUIRE_FALSE(next.is_over());
          CHECK_FALSE(legal_moves(next).contains(Move::pass()));
        }
        p.play(moves[rng() % moves.size()]);
      }
    }
  }
  CHECK(passes >= 20);  // the property was exercised
}

TEST_CASE("the no-capture clock") {
  SUBCASE("a movement move without capture adds 1") {
    CHECK(play(pos("oo3/5/5/x4/1o1ox x 0 0 4 5"), "a2a1").next.clock() == 5);
    CHECK(play(pos("xx2o/5/5/1o3/x1x2 o 0 0 0 5"), "b2b1").next.clock() == 1);
  }
  SUBCASE("a capture sets it to 0") {
    CHECK(play(pos("oo2x/5/5/5/xo1x1 x 0 0 3 10"), "d1c1").next.clock() == 0);
    const auto at_19 = play(pos("oo2x/5/5/5/xo1x1 x 0 0 19 10"), "d1c1");
    CHECK(at_19.next.clock() == 0);
    CHECK_FALSE(at_19.next.is_over());
  }
  SUBCASE("a pass leaves it unchanged") {
    CHECK(play(pos("3ox/4o/5/o4/xo3 x 0 0 13 20"), "0000").next.clock() == 13);
  }
  SUBCASE("placements leave it at 0, through the whole placement phase") {
    std::mt19937 rng(7);
    Position p = Position::start();
    while (p.in_placement()) {
      const MoveList moves = legal_moves(p);
      p.play(moves[rng() % moves.size()]);
      CHECK(p.clock() == 0);
    }
    CHECK(p.phase() == Phase::movement);
  }
  SUBCASE("reaching the limit ends the game") {
    // x: a2 e1; o: a5 b5 b1 d1. A quiet move at clock 19 makes it 20: over, o has more.
    const Position before = pos("oo3/5/5/x4/1o1ox x 0 0 19 5");
    CHECK_FALSE(before.is_over());
    const auto [next, captured] = play(before, "a2a1");
    CHECK(captured == 0);
    CHECK(next.clock() == 20);
    CHECK(next.is_over());
    CHECK(next.phase() == Phase::over);
    CHECK(next.result() == Result::o_wins);
    CHECK(legal_moves(next).empty());
    CHECK(count_moves(next) == 0);
    const auto refused = parse_move("a5a4", next);
    REQUIRE_FALSE(refused.has_value());
    CHECK(contains(refused.error().message, "over"));
  }
}

TEST_CASE("a player down to one counter or none has lost") {
  SUBCASE("one counter left") {
    const auto [next, captured] = play(pos("o4/5/5/5/xo1x1 x 0 0 7 30"), "d1c1");
    CHECK(captured == bb("b1"));
    CHECK(next.clock() == 0);
    CHECK(next.count(o) == 1);
    CHECK(next.is_over());
    CHECK(next.result() == Result::x_wins);
    CHECK(legal_moves(next).empty());
  }
  SUBCASE("none left: the last two captured at once") {
    const auto [next, captured] = play(pos("5/5/5/2x2/xo1ox x 0 0 7 30"), "c2c1");
    CHECK(captured == bb("b1 d1"));
    CHECK(to_string(next) == "5/5/5/5/x1x1x o 0 0 0 30");
    CHECK(next.count(o) == 0);
    CHECK(next.result() == Result::x_wins);
  }
  SUBCASE("o wins the same way") {
    const auto [next, captured] = play(pos("x4/5/5/5/ox1o1 o 0 0 2 30"), "d1c1");
    CHECK(captured == bb("b1"));
    CHECK(next.result() == Result::o_wins);
    CHECK(next.fullmove() == 31);
  }
  SUBCASE("positions already over are read and reported as over") {
    CHECK(pos("5/1x3/2o2/3x1/5 x").result() == Result::x_wins);
    CHECK(pos("5/1o3/2o2/3x1/5 o 0 0 3 9").result() == Result::o_wins);
    CHECK(pos("x4/5/5/5/4o x").result() == Result::draw);  // one each
    CHECK(pos("5/5/5/5/5 x").result() == Result::draw);    // none each
  }
}

TEST_CASE("at the clock limit the counters are counted") {
  SUBCASE("more counters wins") {
    const auto [next, captured] = play(pos("o4/5/5/x4/x1x1o o 0 0 19 30"), "a5b5");
    CHECK(captured == 0);
    CHECK(next.is_over());
    CHECK(next.result() == Result::x_wins);  // 3 to 2
    CHECK(next.fullmove() == 31);
  }
  SUBCASE("equal counts draw") {
    const auto [next, captured] = play(pos("o4/5/5/5/x1x1o x 0 0 19 30"), "a1a2");
    CHECK(captured == 0);
    CHECK(next.is_over());
    CHECK(next.result() == Result::draw);
  }
  SUBCASE("a position read at the limit") {
    const Position at_limit = pos("oo3/o4/5/x4/1o1ox x 0 0 20 5");
    CHECK(at_limit.is_over());
    CHECK(at_limit.result() == Result::o_wins);
    CHECK(moves_of(at_limit).empty());
  }
}

TEST_CASE("the game is never over during placement") {
  // x owns one counter in all, o has not placed yet: over only once placement ends.
  const Position p = pos("5/5/5/5/x4 o 0 1 0 1");
  CHECK_FALSE(p.is_over());
  CHECK(p.phase() == Phase::placement);
  CHECK(p.result() == Result::none);
  CHECK(legal_moves(p).size() == 23);
  const Position next = p.after(move("e5", p));
  CHECK(next.phase() == Phase::over);
  CHECK(next.result() == Result::draw);

  // Under a clock limit of 1 the placement phase still runs to its end.
  Position q = Position::start(with_limit(1));
  for (const char* s : {"a1", "b1", "c1", "d1"}) {
    CHECK_FALSE(q.is_over());
    q.play(move(s, q));
  }
  CHECK(pos("5/5/5/5/5 x 1 1 0 1").phase() == Phase::placement);
}

TEST_CASE("the fullmove goes up after every turn of o") {
  Position p = Position::start();
  p.play(move("a1", p));
  CHECK(p.fullmove() == 1);
  p.play(move("b1", p));
  CHECK(p.fullmove() == 2);

  Position m = pos("oo3/5/5/x4/1o1ox x 0 0 4 5");
  m.play(move("a2a1", m));
  CHECK(m.fullmove() == 5);
  m.play(move("a5a4", m));
  CHECK(m.fullmove() == 6);

  Position blocked_x = pos("3ox/4o/5/o4/xo3 x 0 0 5 20");
  blocked_x.play(Move::pass());
  CHECK(blocked_x.fullmove() == 20);
  Position blocked_o = pos("3xo/4x/5/x4/ox3 o 0 0 5 20");
  blocked_o.play(Move::pass());
  CHECK(blocked_o.fullmove() == 21);
}

TEST_CASE("variant slide: rook moves, blocked paths, captures only where the slide stops") {
  SUBCASE("rook moves along open lines") {
    CHECK(moves_of(pos("oo3/5/5/5/x2ox x", slide_rules)) ==
          std::set<std::string>{"a1b1", "a1c1", "a1a2", "a1a3", "a1a4", "e1e2", "e1e3", "e1e4", "e1e5"});
    CHECK(moves_of(pos("oo3/5/5/5/x2ox x")) == std::set<std::string>{"a1b1", "a1a2", "e1e2"});
    // Across the centre: c1 to c5 in one move.
    CHECK(moves_of(pos("x4/5/5/o3o/2x2 x", slide_rules)).count("c1c5") == 1);
  }
  SUBCASE("no jumping") {
    const Position p = pos("oo3/5/5/5/x1o1x x", slide_rules);
    CHECK(moves_of(p) == std::set<std::string>{"a1b1", "a1a2", "a1a3", "a1a4", "e1d1", "e1e2", "e1e3", "e1e4",
                                               "e1e5"});
    const auto refused = parse_move("a1d1", p);
    REQUIRE_FALSE(refused.has_value());
    CHECK(contains(refused.error().message, "blocked"));
  }
  SUBCASE("a slide captures from where it stops") {
    const Position p = pos("oo3/5/5/5/x2ox x", slide_rules);
    const auto [next, captured] = play(p, "a1c1");
    CHECK(captured == bb("d1"));
    CHECK(to_string(next) == "oo3/5/5/5/2x1x o 0 0 0 1");
    CHECK(play(p, "a1b1").captured == 0);  // c1 empty breaks the run
    CHECK(play(p, "a1a4").captured == 0);  // a5 runs to the edge
    // Passing next to a run does not capture it: a1a2 would take b2, a1a3 goes past.
    const Position q = pos("4o/4o/5/1ox2/x4 x", slide_rules);
    CHECK(play(q, "a1a2").captured == bb("b2"));
    CHECK(play(q, "a1a3").captured == 0);
  }
  SUBCASE("slide with diagonal lines") {
    // e1 slides to e4 and closes d3 against c2 along the diagonal.
    const std::string_view text = "o2o1/5/3o1/2x2/4x x 0 0 3 8";
    const auto [next, captured] = play(pos(text, slide_diagonal_rules), "e1e4");
    CHECK(captured == bb("d3"));
    CHECK(to_string(next) == "o2o1/4x/5/2x2/5 o 0 0 0 8");
    CHECK(play(pos(text, slide_rules), "e1e4").captured == 0);
    CHECK(play(pos(text, slide_diagonal_rules), "e1e3").captured == 0);  // c3 empty breaks the line west
    CHECK(play(pos(text, slide_diagonal_rules), "e1e5").captured == 0);  // c5 empty
    CHECK_FALSE(parse_move("e1e4", pos(text, diagonal_rules)).has_value());
  }
}

TEST_CASE("no position has more legal moves than max_legal_moves(), which a MoveList holds") {
  CHECK(max_legal_moves() == 60);
  CHECK(max_legal_moves() <= int(MoveList::capacity));
  CHECK(legal_moves(Position::start()).size() == 24);  // the first placement
  // The densest positions a search (hill climbing over random boards) found. Step: a
  // checkerboard of x, each of the 11 empty squares reached from all its neighbours (36 by hand).
  const Position step = pos("ox1x1/x1x1x/1x1x1/x1x1x/ox1x1 x");
  CHECK(legal_moves(step).size() == 36);
  CHECK(count_moves(step) == 36);
  const Position slide = pos("x2xo/1x2x/2x2/1x2x/x2xo x", slide_rules);
  CHECK(legal_moves(slide).size() == 44);
  CHECK(count_moves(slide) == 44);
}

TEST_CASE("variant diagonal: diagonal lines capture, movement stays orthogonal") {
  SUBCASE("four runs closed at once, two of them diagonal") {
    const Position before = pos("2x2/xo1ox/1o1o1/x3x/5 x", diagonal_rules);
    const auto [next, captured] = play(before, "c5c4");
    CHECK(captured == bb("b3 d3 b4 d4"));
    CHECK(to_string(next) == "5/x1x1x/5/x3x/5 o 0 0 0 1");
    CHECK(next.result() == Result::x_wins);
    // Default rules: only the orthogonal runs.
    CHECK(play(pos("2x2/xo1ox/1o1o1/x3x/5 x"), "c5c4").captured == bb("b4 d4"));
  }
  SUBCASE("a diagonal run of two through the centre") {
    // a1 x, b2 o, c3 o; x steps d5d4 and closes b2 c3 along the diagonal.
    const Position before = pos("3x1/4o/2o2/1o3/x3o x 0 0 2 12", diagonal_rules);
    CHECK(play(before, "d5d4").captured == bb("b2 c3"));
    CHECK(play(pos("3x1/4o/2o2/1o3/x3o x 0 0 2 12"), "d5d4").captured == 0);
  }
  SUBCASE("diagonal runs broken by an empty square or reaching the edge capture nothing") {
    // d4 <- x: c3 o, b2 empty, a1 x; e5 o at the edge.
    const Position p = pos("3xo/5/2o2/5/x3o x 0 0 2 12", diagonal_rules);
    CHECK(play(p, "d5d4").captured == 0);
  }
  SUBCASE("counters still move orthogonally one square") {
    const Position p = pos("2x2/xo1ox/1o1o1/x3x/5 x", diagonal_rules);
    for (Move m : legal_moves(p)) {
      REQUIRE(m.kind() == MoveKind::movement);
      const int df = std::abs(file_of(m.from()) - file_of(m.to())), dr = std::abs(rank_of(m.from()) - rank_of(m.to()));
      CHECK(df + dr == 1);
    }
    const auto refused = parse_move("a4b5", p);
    REQUIRE_FALSE(refused.has_value());
    CHECK(contains(refused.error().message, "diagonal"));
  }
}

TEST_CASE("variant clock limits 10, 40 and 1") {
  const std::string_view quiet = "oo3/5/5/x4/1o1ox x 0 0 9 5";
  SUBCASE("10") {
    const Rules rules = with_limit(10);
    CHECK(play(pos(quiet, rules), "a2a1").next.is_over());
    CHECK_FALSE(play(pos(quiet), "a2a1").next.is_over());
    CHECK(pos("oo3/5/5/x4/1o1ox x 0 0 10 5", rules).is_over());
    CHECK_FALSE(parse_position("oo3/5/5/x4/1o1ox x 0 0 11 5", rules).has_value());
  }
  SUBCASE("40") {
    const Rules rules = with_limit(40);
    CHECK_FALSE(pos("oo3/5/5/x4/1o1ox x 0 0 25 5", rules).is_over());
    CHECK_FALSE(play(pos("oo3/5/5/x4/1o1ox x 0 0 20 5", rules), "a2a1").next.is_over());
    const auto [next, captured] = play(pos("oo3/5/5/x4/1o1ox x 0 0 39 5", rules), "a2a1");
    CHECK(captured == 0);
    CHECK(next.is_over());
    CHECK(next.result() == Result::o_wins);
    CHECK_FALSE(parse_position("oo3/5/5/x4/1o1ox x 0 0 41 5", rules).has_value());
  }
  SUBCASE("1: any quiet move ends the game, a capture does not") {
    const Rules rules = with_limit(1);
    const Position p = pos("oo2x/5/5/5/xo1x1 x 0 0 0 10", rules);
    const auto capture = play(p, "d1c1");
    CHECK(capture.captured == bb("b1"));
    CHECK_FALSE(capture.next.is_over());
    const auto quiet_move = play(p, "d1d2");
    CHECK(quiet_move.next.is_over());
    CHECK(quiet_move.next.result() == Result::draw);  // 3 to 3
    // Right after placement, every first move either captures or ends the game.
    const Position first = pos("xooxo/xxxox/xo1ox/ooxxx/oooox x 0 0 0 13", rules);
    for (Move m : legal_moves(first)) {
      const Position next = first.after(m);
      CHECK(next.is_over() == (first.captures_of(m) == 0));
    }
  }
}

TEST_CASE("captures_of() and after_movement() match play() for every legal move of random games in every variant") {
  std::mt19937 rng(99);
  int capturing = 0;
  for (const Rules& rules : {Rules{}, slide_rules, diagonal_rules, slide_diagonal_rules}) {
    for (int game = 0; game < 100; ++game) {
      Position p = Position::start(rules);
      while (!p.is_over()) {
        const MoveList moves = legal_moves(p);
        for (Move m : moves) {
          Position next = p;
          const Bitboard captured = next.play(m);
          REQUIRE(p.captures_of(m) == captured);
          CHECK((next.occupied() & captured) == 0);
          CHECK(next.clock() == (m.kind() != MoveKind::movement ? p.clock() : captured ? 0 : p.clock() + 1));
          CHECK(next.count(p.side_to_move()) == p.count(p.side_to_move()) + (m.kind() == MoveKind::placement));
          CHECK(next.count(~p.side_to_move()) == p.count(~p.side_to_move()) - popcount(captured));
          if (m.kind() == MoveKind::movement) REQUIRE(p.after_movement(m, captured) == next);
          capturing += captured != 0;
        }
        p.play(moves[rng() % moves.size()]);
      }
    }
  }
  CHECK(capturing > 1000);
}

TEST_CASE("phase(), result() and key()") {
  SUBCASE("phase and result through a game") {
    CHECK(Position::start().phase() == Phase::placement);
    CHECK(Position::start().result() == Result::none);
    CHECK(pos("oo3/5/5/x4/1o1ox x 0 0 4 5").phase() == Phase::movement);
    CHECK(pos("oo3/5/5/x4/1o1ox x 0 0 4 5").result() == Result::none);
    CHECK(pos("oo3/5/5/x4/1o1ox x 0 0 20 5").phase() == Phase::over);
  }
  SUBCASE("the key tells apart positions that differ only in clock, hands or side") {
    const auto key = [](std::string_view text) { return pos(text).key(); };
    CHECK(key("oo3/5/5/x4/1o1ox x 0 0 4 5") != key("oo3/5/5/x4/1o1ox x 0 0 5 5"));
    CHECK(key("oo3/5/5/x4/1o1ox x 0 0 4 5") != key("oo3/5/5/x4/1o1ox o 0 0 4 5"));
    CHECK(key("5/5/5/5/5 x 12 12 0 1") != key("5/5/5/5/5 x 11 11 0 1"));
    CHECK(key("5/5/5/5/5 x 1 1 0 1") != key("5/5/5/5/5 x 0 0 0 1"));
    // o to place its last counter, against the same board in the movement phase (already over).
    CHECK(key("5/5/5/5/x4 o 0 1 0 1") != key("5/5/5/5/x4 o 0 0 0 1"));
    CHECK(key("xo1xo/xxxox/xo1ox/ooxxx/oooox o 0 1 0 12") != key("xo1xo/xxxox/xo1ox/ooxxx/oooox o 0 0 0 12"));
    // Every clock of the longest limit, 0 to 255, keys apart: the clock's bits are all in the key
    // (a key of the clock's low 7 bits once passed the whole suite, though a search at clock 252
    // then read the table entries of clock 124).
    {
      const Rules longest{Movement::step, CaptureLines::orthogonal, Rules::max_clock_limit};
      std::vector<std::uint64_t> keys;
      for (int clock = 0; clock < Rules::max_clock_limit; ++clock)
        keys.push_back(pos("oo3/5/5/x4/1o1ox x 0 0 " + std::to_string(clock) + " 5", longest).key());
      std::sort(keys.begin(), keys.end());
      CHECK(std::adjacent_find(keys.begin(), keys.end()) == keys.end());
    }
    // The fullmove is informational: same key, but not the same value.
    CHECK(key("oo3/5/5/x4/1o1ox x 0 0 4 5") == key("oo3/5/5/x4/1o1ox x 0 0 4 6"));
    CHECK_FALSE(pos("oo3/5/5/x4/1o1ox x 0 0 4 5") == pos("oo3/5/5/x4/1o1ox x 0 0 4 6"));
  }
  SUBCASE("equal keys mean equal positions, over many random positions and custom hands") {
    std::mt19937 rng(4242);
    std::vector<Position> seen;
    for (int game = 0; game < 300; ++game) {
      // Custom starts with fewer counters make hands and boards overlap in many ways.
      const int hand = int(rng() % 13);
      Position p = pos("5/5/5/5/5 x " + std::to_string(hand) + " " + std::to_string(hand) + " 0 1");
      for (;;) {
        seen.push_back(p);
        if (p.is_over()) break;
        const MoveList moves = legal_moves(p);
        p.play(moves[rng() % moves.size()]);
      }
    }
    std::sort(seen.begin(), seen.end(), [](const Position& a, const Position& b) { return a.key() < b.key(); });
    int equal_keys = 0;
    for (std::size_t i = 1; i < seen.size(); ++i) {
      if (seen[i].key() != seen[i - 1].key()) continue;
      ++equal_keys;
      const auto without_fullmove = [](const Position& p) {
        const std::string s = to_string(p);
        return s.substr(0, s.rfind(' '));
      };
      INFO(to_string(seen[i - 1]), " and ", to_string(seen[i]));
      CHECK(without_fullmove(seen[i]) == without_fullmove(seen[i - 1]));
    }
    CHECK(equal_keys > 0);  // the start positions repeat, so some keys must be equal
  }
}

TEST_CASE("any_movement() visits the legal moves in generate_moves() order, the pass too, and stops at the first yes") {
  const auto check = [](const Position& pos) {
    with_variant(pos.rules(), [&](auto v) {
      using V = decltype(v);
      MoveList listed;
      generate_moves<V>(pos, listed);
      std::vector<Move> visited;
      CHECK_FALSE(any_movement<V>(pos, [&](Move m) {
        visited.push_back(m);
        return false;
      }));
      REQUIRE(visited.size() == listed.size());
      for (std::size_t i = 0; i < listed.size(); ++i) CHECK(visited[i] == listed[i]);
      // Stopping at each move in turn: only the moves before it are visited.
      for (std::size_t stop = 0; stop < listed.size(); ++stop) {
        std::size_t seen = 0;
        CHECK(any_movement<V>(pos, [&](Move m) { return ++seen, m == listed[stop]; }));
        CHECK(seen == stop + 1);
      }
    });
  };
  // Random games of every variant from the start, checked at every movement-phase position.
  int positions = 0, passes = 0;
  std::mt19937_64 rng(0xa11);
  for (int limit : {20, 1})
    for (Movement movement : {Movement::step, Movement::slide})
      for (CaptureLines lines : {CaptureLines::orthogonal, CaptureLines::orthogonal_and_diagonal}) {
        const Rules rules{movement, lines, limit};
        for (int game = 0; game < 20; ++game) {
          Position pos = Position::start(rules);
          while (!pos.is_over()) {
            const MoveList moves = legal_moves(pos);
            if (!pos.in_placement()) {
              check(pos);
              ++positions;
              passes += moves[0] == Move::pass();
            }
            pos = pos.after(moves[rng() % moves.size()]);
          }
        }
      }
  CHECK(positions > 1000);
  CHECK(passes > 0);
}
