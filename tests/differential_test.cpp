// The engine against the plain reference implementation of tests/reference/, which shares no
// code with it and speaks only text: on random reachable positions of every phase and variant,
// both must agree on the position string, the legal moves, what each move captures and leads
// to, whether the game is over and who won, and perft counts.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/perft.hpp"
#include "random_positions.hpp"
#include "reference.hpp"
#include "reference_terms.hpp"

using namespace moon;

namespace {

#ifdef MOON_SANITIZE_BUILD
constexpr int scale = 1;
#else
constexpr int scale = 10;
#endif

// What the compared positions covered, so that the test proves it saw every kind.
struct Coverage {
  int positions = 0, moves = 0, perft_checks = 0, deep_perft_checks = 0;
  int placement = 0, last_placement = 0, movement = 0, over = 0, blocked = 0, near_end = 0, clock_near_limit = 0;
  int captures = 0, multi_captures = 0;
};

// Compares everything about one position, and perft from it at depths 1 to `depth`.
void compare(const Position& p, int depth, Coverage& seen) {
  const std::string text = to_string(p);
  INFO("position ", text, " (", test::rules_name(p.rules()), ")");
  reference::Position r;
  std::string error;
  REQUIRE_MESSAGE(reference::parse(text, test::to_reference(p.rules()), r, error), error);
  CHECK(reference::to_string(r) == text);
  CHECK(reference::is_over(r) == p.is_over());
  CHECK(reference::result(r) == test::reference_result(p.result()));

  std::vector<std::string> ours;
  for (Move m : legal_moves(p)) ours.push_back(to_string(m));
  std::vector<std::string> theirs = reference::legal_moves(r);
  std::sort(ours.begin(), ours.end());
  std::sort(theirs.begin(), theirs.end());
  CHECK(std::adjacent_find(ours.begin(), ours.end()) == ours.end());  // each move listed once
  REQUIRE(ours == theirs);
  CHECK(count_moves(p) == int(ours.size()));

  for (Move m : legal_moves(p)) {
    const std::string move = to_string(m);
    INFO("move ", move);
    Position next = p;
    const Bitboard captured = next.play(m);
    CHECK(captured == p.captures_of(m));
    CHECK(squares_text(captured) == reference::captures(r, move));
    reference::Position reference_next = r;
    REQUIRE(reference::play(reference_next, move));
    CHECK(to_string(next) == reference::to_string(reference_next));
    seen.captures += captured != 0;
    seen.multi_captures += popcount(captured) >= 2;
    ++seen.moves;
  }

  for (int d = 1; d <= depth; ++d) {
    INFO("perft depth ", d);
    CHECK(to_string(perft_count(p, d)) == std::to_string(reference::perft(r, d)));
    ++seen.perft_checks;
  }

  ++seen.positions;
  const int fewest = std::min(p.count(x), p.count(o));
  switch (p.phase()) {
    case Phase::placement:
      ++seen.placement;
      seen.last_placement += p.placements_left() == 1;
      break;
    case Phase::movement:
      ++seen.movement;
      seen.blocked += ours == std::vector<std::string>{"0000"};
      seen.near_end += fewest <= 3;
      seen.clock_near_limit += p.clock() >= p.rules().clock_limit - 2;
      break;
    case Phase::over: ++seen.over; break;
  }
}

// Deeper perft on a sample: the deepest depth up to 6 whose count stays small enough for the
// plain reference to be quick.
void compare_deep(const Position& p, Coverage& seen) {
  const std::string text = to_string(p);
  INFO("position ", text, " (", test::rules_name(p.rules()), ")");
  reference::Position r;
  std::string error;
  REQUIRE(reference::parse(text, test::to_reference(p.rules()), r, error));
  for (int d = 4; d <= 6; ++d) {
    const Count ours = perft_count(p, d);
    if (ours > 150'000) break;
    INFO("perft depth ", d);
    CHECK(to_string(ours) == std::to_string(reference::perft(r, d)));
    ++seen.deep_perft_checks;
  }
}

// Plays a random game from p, comparing every position on the way; every `deep_every`-th
// position also gets the deeper perft.
template <class Rng>
void play_and_compare(Position p, Rng& rng, int depth, int deep_every, Coverage& seen) {
  for (int ply = 0;; ++ply) {
    compare(p, depth, seen);
    if (deep_every && ply % deep_every == 0) compare_deep(p, seen);
    if (p.is_over()) return;
    const MoveList moves = legal_moves(p);
    p.play(moves[rng() % moves.size()]);
  }
}

Position from_setup(const test::Setup& setup, const Rules& rules) {
  const auto p = parse_position(setup.text(), rules);
  REQUIRE_MESSAGE(p.has_value(), (setup.text() + ": " + (p ? std::string() : p.error().message)));
  return *p;
}

}  // namespace

TEST_CASE("differential: games from the start, every variant") {
  std::mt19937_64 rng(0xd1ff0001);
  Coverage seen;
  for (const Rules& rules : test::all_rule_sets()) {
    INFO(test::rules_name(rules));
    for (int game = 0; game < scale; ++game) play_and_compare(Position::start(rules), rng, 3, 15, seen);
  }
  MESSAGE("from the start: ", seen.positions, " positions, ", seen.moves, " moves, ", seen.perft_checks,
          " perft counts at depths 1-3, ", seen.deep_perft_checks, " at depths 4-6");
  CHECK(seen.placement >= 16 * scale * 24);
  CHECK(seen.movement > 16 * scale * 5);
  CHECK(seen.over == 16 * scale);
  CHECK(seen.captures > 100);
}

TEST_CASE("differential: games from random custom setups, every variant") {
  std::mt19937_64 rng(0xd1ff0002);
  Coverage seen;
  for (const Rules& rules : test::all_rule_sets()) {
    INFO(test::rules_name(rules));
    for (int game = 0; game < 6 * scale; ++game) {
      const test::Setup setup = test::random_setup(rng, rules, game % 3 == 0);
      play_and_compare(from_setup(setup, rules), rng, 2, 0, seen);
    }
  }
  MESSAGE("from custom setups: ", seen.positions, " positions (", seen.placement, " placement, ", seen.movement,
          " movement, ", seen.over, " over; ", seen.blocked, " blocked, ", seen.near_end, " near the end, ",
          seen.clock_near_limit, " with the clock near its limit), ", seen.moves, " moves, ", seen.captures,
          " captures (", seen.multi_captures, " of two or more)");
  CHECK(seen.placement > 50 * scale);
  CHECK(seen.last_placement > 2 * scale);
  CHECK(seen.movement > 500 * scale);
  CHECK(seen.over > 60 * scale);
  CHECK(seen.near_end > 100 * scale);
  CHECK(seen.clock_near_limit > 100 * scale);
  CHECK(seen.multi_captures > 20 * scale);
}

TEST_CASE("differential: single random setups, with perft to depth 3 and deeper on a sample") {
  std::mt19937_64 rng(0xd1ff0003);
  Coverage seen;
  for (const Rules& rules : test::all_rule_sets()) {
    INFO(test::rules_name(rules));
    for (int i = 0; i < 40 * scale; ++i) {
      const test::Setup setup = test::random_setup(rng, rules, i % 4 == 0);
      const Position p = from_setup(setup, rules);
      compare(p, 3, seen);
      if (i % 8 == 1) compare_deep(p, seen);
    }
  }
  MESSAGE("single setups: ", seen.positions, " positions, ", seen.perft_checks, " perft counts at depths 1-3, ",
          seen.deep_perft_checks, " at depths 4-6; ", seen.blocked, " blocked");
  CHECK(seen.deep_perft_checks > 100 * scale);
  CHECK(seen.blocked > scale);
}

TEST_CASE("differential: blocked sides, and the games that follow their pass") {
  // Nearly full boards, kept when the reference finds the side to move blocked.
  std::mt19937_64 rng(0xd1ff0006);
  Coverage seen;
  int tries = 0, found = 0;
  for (const Rules& rules : test::all_rule_sets()) {
    for (int here = 0; here < 2 * scale && tries < 100'000; ++tries) {
      const test::Setup setup = test::random_setup(rng, rules, false, 2);
      reference::Position r;
      std::string error;
      REQUIRE(reference::parse(setup.text(), test::to_reference(rules), r, error));
      if (reference::legal_moves(r) != std::vector<std::string>{"0000"}) continue;
      ++here;
      ++found;
      const Position p = from_setup(setup, rules);
      compare(p, 4, seen);
      compare_deep(p, seen);
      play_and_compare(p, rng, 2, 0, seen);
    }
  }
  MESSAGE("blocked: ", found, " found in ", tries, " nearly full setups; ", seen.positions, " positions compared");
  CHECK(found == 16 * 2 * scale);
  CHECK(seen.blocked >= found);
}

TEST_CASE("differential: the first moves after placement, where passes into the centre happen") {
  // Full placements end with only c3 empty: x moves into it, or passes if it has no counter next
  // to c3. Random full placements, then perft through the first movement plies.
  std::mt19937_64 rng(0xd1ff0004);
  Coverage seen;
  for (const Rules& rules : test::all_rule_sets()) {
    for (int i = 0; i < 4 * scale; ++i) {
      Position p = Position::start(rules);
      while (p.in_placement()) {
        const MoveList moves = legal_moves(p);
        p.play(moves[rng() % moves.size()]);
      }
      compare(p, 4, seen);
      compare_deep(p, seen);
    }
  }
  MESSAGE("after full placements: ", seen.positions, " positions, ", seen.blocked, " with x blocked");
  CHECK(seen.positions == 16 * 4 * scale);
  CHECK(seen.blocked > 0);
}

TEST_CASE("differential: the two parsers accept and refuse the same mangled position strings") {
  // Random edits of valid strings (a character replaced, inserted or deleted) make mostly
  // malformed text; whatever one side accepts the other must accept, printing it the same way.
  std::mt19937_64 rng(0xd1ff0005);
  const std::string alphabet = "xo012345678/ -X9.";
  int accepted = 0, refused = 0;
  for (const Rules& rules : test::all_rule_sets()) {
    for (int i = 0; i < 150 * scale; ++i) {
      const test::Setup setup = test::random_setup(rng, rules, i % 2 == 0);
      std::string text = setup.text();
      const int edits = 1 + int(rng() % 2);
      for (int e = 0; e < edits; ++e) {
        const std::size_t at = rng() % (text.size() + 1);
        const char c = alphabet[rng() % alphabet.size()];
        switch (rng() % 3) {
          case 0:
            if (at < text.size()) text[at] = c;
            break;
          case 1: text.insert(text.begin() + std::ptrdiff_t(at), c); break;
          default:
            if (at < text.size()) text.erase(at, 1);
        }
      }
      INFO("'", text, "' (", test::rules_name(rules), ")");
      const auto ours = parse_position(text, rules);
      reference::Position r;
      std::string error;
      const bool theirs = reference::parse(text, test::to_reference(rules), r, error);
      INFO("engine: ", (ours ? std::string("accepted") : ours.error().message), "; reference: ",
           (theirs ? std::string("accepted") : error));
      REQUIRE(ours.has_value() == theirs);
      if (theirs) {
        CHECK(to_string(*ours) == reference::to_string(r));
        ++accepted;
      } else {
        CHECK_FALSE(ours.error().message.empty());
        ++refused;
      }
    }
  }
  MESSAGE("mangled strings: ", accepted, " accepted, ", refused, " refused by both");
  CHECK(accepted > 100 * scale);
  CHECK(refused > 100 * scale);
}
