// The game state: counters, hands, side to move, clock; phase, result, exact key, and play.
#pragma once

#include <array>
#include <cstdint>

#include "moon/bitboard.hpp"
#include "moon/move.hpp"
#include "moon/rules.hpp"
#include "moon/tables.hpp"

namespace moon {

enum Color : std::uint8_t { x = 0, o = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum class Phase : std::uint8_t { placement, movement, over };
enum class Result : std::uint8_t { none, x_wins, o_wins, draw };

inline constexpr int counters_per_side = 12;

// The splitmix64 finaliser: every bit of a key spread over the whole word, so that a hash
// table can index by any part of it (Position::hash(), and the solver's table for its keys).
constexpr std::uint64_t scramble_key(std::uint64_t key) {
  key = (key ^ (key >> 30)) * 0xbf58476d1ce4e5b9ULL;
  key = (key ^ (key >> 27)) * 0x94d049bb133111ebULL;
  return key ^ (key >> 31);
}

// A value type of 24 bytes: copy it to keep a position, play moves on the copy (copy-make).
// Build one with Position::start() or parse_position() (notation.hpp), which validates; the
// state is then only changed by playing legal moves, so its invariants always hold.
// Position::start() takes its rules as given: rules from make_rules() (rules.hpp), or Rules{}
// with a clock limit in range; perft(), the Searcher and the Solver refuse a position whose
// rules are not (check_rules()).
class Position {
 public:
  static constexpr Position start(const Rules& rules = {}) {
    Position p;
    p.rules_ = rules;
    p.in_hand_ = {counters_per_side, counters_per_side};
    return p;
  }

  constexpr Bitboard pieces(Color c) const { return pieces_[c]; }
  constexpr Bitboard occupied() const { return pieces_[x] | pieces_[o]; }
  constexpr Bitboard empty() const { return all_squares & ~occupied(); }
  constexpr Color side_to_move() const { return side_; }
  constexpr int in_hand(Color c) const { return in_hand_[c]; }
  constexpr int placements_left() const { return in_hand_[x] + in_hand_[o]; }  // 0 once moving
  constexpr int clock() const { return clock_; }
  // The plies left before the clock ends the game, if nothing is captured (movement phase).
  constexpr int clock_left() const { return rules_.clock_limit - clock_; }
  constexpr int fullmove() const { return int(fullmove_); }
  constexpr const Rules& rules() const { return rules_; }
  constexpr int count(Color c) const { return popcount(pieces_[c]); }
  // The counters a side owns: on the board and in hand (what it will have once all are placed).
  constexpr int counters(Color c) const { return count(c) + in_hand(c); }

  constexpr bool in_placement() const { return (in_hand_[x] | in_hand_[o]) != 0; }
  // Over only in the movement phase: a side down to one counter, or the clock at its limit.
  constexpr bool is_over() const {
    return !in_placement() && (at_most_one(pieces_[x]) || at_most_one(pieces_[o]) || clock_ >= rules_.clock_limit);
  }
  constexpr Phase phase() const {
    if (in_placement()) return Phase::placement;
    return is_over() ? Phase::over : Phase::movement;
  }
  constexpr Result result() const {
    if (!is_over()) return Result::none;
    const int nx = count(x), no = count(o);
    return nx > no ? Result::x_wins : no > nx ? Result::o_wins : Result::draw;
  }

  // Everything legality and the result depend on, exactly, in 63 bits: both boards, the side,
  // o's hand, the clock. x's hand follows from o's and the side (equal, or one less when o is to
  // place); o's would not follow from x's: x 0 with o to move fits both o 0 and o 1. Equal keys
  // mean equal games under the same rules; fullmove is informational and left out.
  constexpr std::uint64_t key() const {
    return std::uint64_t(pieces_[x]) | std::uint64_t(pieces_[o]) << 25 | std::uint64_t(side_) << 50 |
           std::uint64_t(in_hand_[o]) << 51 | std::uint64_t(clock_) << 55;
  }
  // The key scrambled for table indexing (the splitmix64 finaliser).
  constexpr std::uint64_t hash() const { return scramble_key(key()); }

  // The counters the legal move m would capture.
  template <class V>
  constexpr Bitboard captures_of(Move m) const {
    if (m.kind() != MoveKind::movement) return 0;
    const Bitboard us = (pieces_[side_] ^ square_bb(m.from())) | square_bb(m.to());
    return captures_at<V::diagonal>(m.to(), us, pieces_[~side_]);
  }
  Bitboard captures_of(Move m) const {
    return with_variant(rules_, [&](auto v) { return captures_of<decltype(v)>(m); });
  }

  // Plays the legal move m and returns the counters it captured. No legality check: moves
  // come from the generator or from parse_move(), which checks them.
  template <class V>
  constexpr Bitboard play(Move m) {
    Bitboard captured = 0;
    switch (m.kind()) {
      case MoveKind::placement:
        pieces_[side_] |= square_bb(m.to());
        --in_hand_[side_];
        break;
      case MoveKind::movement: {
        const Bitboard us = (pieces_[side_] ^ square_bb(m.from())) | square_bb(m.to());
        captured = captures_at<V::diagonal>(m.to(), us, pieces_[~side_]);
        pieces_[side_] = us;
        pieces_[~side_] ^= captured;
        clock_ = captured ? 0 : std::uint8_t(clock_ + 1);
        break;
      }
      case MoveKind::pass:
      case MoveKind::none:
        break;
    }
    fullmove_ += (side_ == o);
    side_ = ~side_;
    return captured;
  }
  Bitboard play(Move m) {
    return with_variant(rules_, [&](auto v) { return play<decltype(v)>(m); });
  }
  template <class V>
  constexpr Position after(Move m) const {
    Position next = *this;
    next.play<V>(m);
    return next;
  }
  Position after(Move m) const {
    Position next = *this;
    next.play(m);
    return next;
  }
  // after() for the legal movement m when the caller already knows what it captures
  // (`captured` must be captures_of(m)): the exact solver finds the captures of every
  // destination at once, and finding them again for each child was a tenth of its time.
  constexpr Position after_movement(Move m, Bitboard captured) const {
    Position next = *this;
    next.pieces_[side_] ^= square_bb(m.from()) | square_bb(m.to());
    next.pieces_[~side_] ^= captured;
    next.clock_ = captured ? 0 : std::uint8_t(clock_ + 1);
    next.fullmove_ += (side_ == o);
    next.side_ = ~side_;
    return next;
  }

  friend constexpr bool operator==(const Position&, const Position&) = default;

 private:
  friend struct PositionBuilder;  // notation.cpp: assembles validated positions

  std::array<Bitboard, 2> pieces_{};
  Color side_ = x;
  std::array<std::uint8_t, 2> in_hand_{};
  std::uint8_t clock_ = 0;
  std::uint32_t fullmove_ = 1;
  Rules rules_{};
};

}  // namespace moon
