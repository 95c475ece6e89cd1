#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/perft.hpp"
#include "moon/symmetry.hpp"
#include "random_positions.hpp"
#include "symmetric_image.hpp"

using namespace moon;

TEST_CASE("symmetry: eight distinct maps of the squares, each undone by its inverse") {
  std::set<std::vector<Square>> maps;
  for (int t = 0; t < symmetry_count; ++t) {
    std::vector<Square> images;
    for (Square s = 0; s < square_count; ++s) {
      CHECK(apply_symmetry(t, s) == test::image_square(t, s));
      CHECK(apply_symmetry(inverse_symmetry(t), apply_symmetry(t, s)) == s);
      images.push_back(apply_symmetry(t, s));
    }
    CHECK(apply_symmetry(t, centre) == centre);
    maps.insert(images);
    std::sort(images.begin(), images.end());
    CHECK(std::unique(images.begin(), images.end()) == images.end());  // a bijection
  }
  CHECK(maps.size() == 8);
  for (Square s = 0; s < square_count; ++s) CHECK(apply_symmetry(0, s) == s);
  // a1 goes to each corner under two of the maps.
  std::multiset<Square> corners;
  for (int t = 0; t < symmetry_count; ++t) corners.insert(apply_symmetry(t, Square{0}));
  CHECK(corners == std::multiset<Square>{0, 0, 4, 4, 20, 20, 24, 24});
}

TEST_CASE("symmetry: boards map square by square; moves map their squares") {
  std::mt19937_64 rng(0x5e77);
  for (int i = 0; i < 2000; ++i) {
    const Bitboard b = Bitboard(rng()) & all_squares;
    for (int t = 0; t < symmetry_count; ++t) {
      Bitboard expected = 0;
      for (Square s : squares(b)) expected |= square_bb(test::image_square(t, s));
      CHECK(apply_symmetry(t, b) == expected);
    }
  }
  CHECK(apply_symmetry(4, Move::movement(make_square(0, 1), make_square(1, 1))) ==
        Move::movement(make_square(1, 0), make_square(1, 1)));
  CHECK(apply_symmetry(1, Move::placement(make_square(0, 2))) == Move::placement(make_square(4, 2)));
  for (int t = 0; t < symmetry_count; ++t) {
    CHECK(apply_symmetry(t, Move::pass()) == Move::pass());
    CHECK(apply_symmetry(t, Move{}).is_null());
  }
}

// The claim the solver's table rests on: every rule, in every variant, is the same under each
// symmetry. The image of a position has exactly the images of its moves, each capturing the
// image of what the original captures, and the same perft counts.
TEST_CASE("symmetry: image positions have the image moves, captures and perft counts, every variant") {
  std::mt19937_64 rng(0x5e78);
  int positions = 0, captures = 0, placements = 0;
  for (const Rules& rules : test::all_rule_sets()) {
    for (int i = 0; i < 40; ++i) {
      const test::Setup setup = test::random_setup(rng, rules, i % 4 == 0);
      const auto parsed = parse_position(setup.text(), rules);
      REQUIRE(parsed.has_value());
      const Position pos = *parsed;
      const MoveList moves = legal_moves(pos);
      const Count nodes = pos.is_over() ? 0 : perft_count(pos, 3);
      for (int t = 0; t < symmetry_count; ++t) {
        const Position image = test::symmetric_image(pos, t);
        INFO(to_string(pos), " under symmetry ", t, ": ", to_string(image));
        CHECK(image.pieces(x) == apply_symmetry(t, pos.pieces(x)));
        CHECK(image.pieces(o) == apply_symmetry(t, pos.pieces(o)));
        CHECK(image.is_over() == pos.is_over());
        std::vector<std::uint16_t> expected, actual;
        for (Move m : moves) {
          expected.push_back(apply_symmetry(t, m).raw());
          CHECK(image.captures_of(apply_symmetry(t, m)) == apply_symmetry(t, pos.captures_of(m)));
          captures += pos.captures_of(m) != 0;
        }
        for (Move m : legal_moves(image)) actual.push_back(m.raw());
        std::sort(expected.begin(), expected.end());
        std::sort(actual.begin(), actual.end());
        CHECK(actual == expected);
        if (!pos.is_over()) CHECK(perft_count(image, 3) == nodes);
        ++positions;
      }
      placements += pos.in_placement();
    }
  }
  CHECK(positions == 16 * 40 * 8);
  CHECK(captures > 100);
  CHECK(placements > 0);
}

TEST_CASE("symmetry: the canonical boards are the same for all eight images, and one of them") {
  std::mt19937_64 rng(0x5e79);
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t bits = rng();
    const Bitboard xs = Bitboard(bits) & all_squares, os = Bitboard(bits >> 32) & all_squares & ~xs;
    const CanonicalBoards c = canonical_boards(xs, os);
    CHECK(c.boards == (std::uint64_t(apply_symmetry(c.symmetry, xs)) | std::uint64_t(apply_symmetry(c.symmetry, os)) << 25));
    for (int t = 0; t < symmetry_count; ++t) {
      const Bitboard ix = apply_symmetry(t, xs), io = apply_symmetry(t, os);
      CHECK(canonical_boards(ix, io).boards == c.boards);
      CHECK(c.boards <= (std::uint64_t(ix) | std::uint64_t(io) << 25));  // the least image
    }
  }
  // Symmetric boards (ties between images) too.
  const Bitboard cross = square_bb(centre) | square_bb(make_square(2, 0)) | square_bb(make_square(2, 4));
  CHECK(canonical_boards(cross, 0).boards == canonical_boards(apply_symmetry(4, cross), 0).boards);
}

TEST_CASE("symmetry: a pair's eight images, made at once or flipped square by square along a game, name the canonical image") {
  std::mt19937_64 rng(0x5e7a);
  int ties = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::uint64_t bits = rng() & rng();  // sparse, as endgames are
    Bitboard xs = Bitboard(bits) & all_squares, os = Bitboard(bits >> 32) & all_squares & ~xs;
    if (i % 4 == 0) {
      // A pair that a reflection or the half turn maps onto itself: images tie.
      int t = 1 + int(rng() % (symmetry_count - 1));
      while (inverse_symmetry(t) != t) t = 1 + int(rng() % (symmetry_count - 1));
      xs |= apply_symmetry(t, xs);
      os = (os | apply_symmetry(t, os)) & ~xs;
    }
    const BoardImages images = board_images(xs, os);
    for (int t = 0; t < symmetry_count; ++t) {
      const std::uint64_t image = std::uint64_t(apply_symmetry(t, xs)) | std::uint64_t(apply_symmetry(t, os)) << 25;
      CHECK(images.ranked[std::size_t(t)] == (image << 3 | std::uint64_t(t)));
      ties += t > 0 && image == (std::uint64_t(xs) | std::uint64_t(os) << 25);
    }
    CHECK(canonical_boards(images) == canonical_boards(xs, os));
  }
  CHECK(ties > 100);
  // Along random games of every variant, the child's canonical image from its parent's images and
  // the squares that changed (the move's, and the counters captured), as the solver makes it.
  int children = 0, captures = 0;
  for (const Rules& rules : test::all_rule_sets()) {
    for (int game = 0; game < 10; ++game) {
      const auto parsed = parse_position(test::random_setup(rng, rules, game % 3 == 0).text(), rules);
      REQUIRE(parsed.has_value());
      Position pos = *parsed;
      BoardImages images = board_images(pos.pieces(x), pos.pieces(o));
      for (int ply = 0; ply < 30 && !pos.is_over(); ++ply) {
        const MoveList moves = legal_moves(pos);
        for (Move m : moves) {
          const Position child = pos.after(m);
          CHECK(canonical_boards_after(images, pos.pieces(x) ^ child.pieces(x), pos.pieces(o) ^ child.pieces(o)) ==
                canonical_boards(child.pieces(x), child.pieces(o)));
          ++children;
          captures += pos.captures_of(m) != 0;
        }
        const Position next = pos.after(moves[rng() % moves.size()]);
        flip_squares(images, pos.pieces(x) ^ next.pieces(x), pos.pieces(o) ^ next.pieces(o));
        pos = next;
        CHECK(images.ranked == board_images(pos.pieces(x), pos.pieces(o)).ranked);
      }
    }
  }
  CHECK(children > 5000);
  CHECK(captures > 200);
}
