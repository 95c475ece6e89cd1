// The rule options of RULES.md: how counters move, which lines capture, the clock limit.
#pragma once

#include <cstdint>
#include <string>

#include "moon/expected.hpp"

namespace moon {

enum class Movement : std::uint8_t { step, slide };
enum class CaptureLines : std::uint8_t { orthogonal, orthogonal_and_diagonal };

struct Rules {
  // The clock is stored in 8 bits of the exact position key, which bounds the limit.
  static constexpr int min_clock_limit = 1;
  static constexpr int max_clock_limit = 255;
  static constexpr int default_clock_limit = 20;

  Movement movement = Movement::step;
  CaptureLines capture_lines = CaptureLines::orthogonal;
  int clock_limit = default_clock_limit;

  constexpr bool slide() const { return movement == Movement::slide; }
  constexpr bool diagonal() const { return capture_lines == CaptureLines::orthogonal_and_diagonal; }
  friend constexpr bool operator==(const Rules&, const Rules&) = default;
};

// Rules with a clock limit from outside, validated (the C API's rules, and the rules
// parse_position() is given; the program and the protocol check the number's range as they
// read it).
inline Expected<Rules> make_rules(Movement movement, CaptureLines lines, int clock_limit) {
  if (clock_limit < Rules::min_clock_limit || clock_limit > Rules::max_clock_limit)
    return Error{"clock limit " + std::to_string(clock_limit) + " must be from " +
                 std::to_string(Rules::min_clock_limit) + " to " + std::to_string(Rules::max_clock_limit)};
  return Rules{movement, lines, clock_limit};
}

// Whether rules made elsewhere (a Rules{} whose limit was set by hand, given to
// Position::start()) are in range: perft(), Searcher::search() and the Solver refuse a position
// whose rules are not, with make_rules()'s message.
inline Expected<bool> check_rules(const Rules& rules) {
  if (const auto made = make_rules(rules.movement, rules.capture_lines, rules.clock_limit); !made) return made.error();
  return true;
}

// The rule options that change the hot path, as compile-time parameters: the default rules
// pay nothing for the variants they do not use.
template <bool Slide, bool Diagonal>
struct Variant {
  static constexpr bool slide = Slide;
  static constexpr bool diagonal = Diagonal;
};

// Calls fn(Variant<...>{}) with the compile-time variant matching the rules.
template <class Fn>
constexpr decltype(auto) with_variant(const Rules& rules, Fn&& fn) {
  if (rules.slide()) {
    if (rules.diagonal()) return fn(Variant<true, true>{});
    return fn(Variant<true, false>{});
  }
  if (rules.diagonal()) return fn(Variant<false, true>{});
  return fn(Variant<false, false>{});
}

}  // namespace moon
