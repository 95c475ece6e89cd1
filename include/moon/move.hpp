// Moves (placement, movement, pass) in 16 bits, and a fixed-capacity move list.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "moon/bitboard.hpp"

namespace moon {

enum class MoveKind : std::uint8_t { placement, movement, pass, none };

class Move {
 public:
  constexpr Move() = default;  // the null move: equal to no legal move
  static constexpr Move placement(Square to) { return Move(encode(MoveKind::placement, 0, to)); }
  static constexpr Move movement(Square from, Square to) { return Move(encode(MoveKind::movement, from, to)); }
  static constexpr Move pass() { return Move(encode(MoveKind::pass, 0, 0)); }

  constexpr MoveKind kind() const { return MoveKind(bits_ >> 10); }
  constexpr Square from() const { return (bits_ >> 5) & 31; }  // movement only
  constexpr Square to() const { return bits_ & 31; }           // placement and movement
  constexpr bool is_null() const { return kind() == MoveKind::none; }
  constexpr std::uint16_t raw() const { return bits_; }
  static constexpr Move from_raw(std::uint16_t bits) { return Move(bits); }
  friend constexpr bool operator==(Move, Move) = default;

 private:
  constexpr explicit Move(std::uint16_t bits) : bits_(bits) {}
  static constexpr std::uint16_t encode(MoveKind kind, Square from, Square to) {
    return std::uint16_t((unsigned(kind) << 10) | (unsigned(from) << 5) | unsigned(to));
  }
  std::uint16_t bits_ = std::uint16_t(unsigned(MoveKind::none) << 10);
};

// Holds every legal move of any position: at most 60 (max_legal_moves() in movegen.hpp, which
// checks this capacity against it). No larger, because the solver keeps arrays of this size in
// every node's stack frame, and its lines can be thousands of plies long.
class MoveList {
 public:
  static constexpr std::size_t capacity = 64;

  constexpr void push(Move m) { moves_[size_++] = m; }
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr void clear() { size_ = 0; }
  constexpr Move operator[](std::size_t i) const { return moves_[i]; }
  constexpr Move& operator[](std::size_t i) { return moves_[i]; }
  constexpr const Move* begin() const { return moves_.data(); }
  constexpr const Move* end() const { return moves_.data() + size_; }
  constexpr Move* begin() { return moves_.data(); }
  constexpr Move* end() { return moves_.data() + size_; }
  constexpr bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }

 private:
  std::array<Move, capacity> moves_{};
  std::size_t size_ = 0;
};

}  // namespace moon
