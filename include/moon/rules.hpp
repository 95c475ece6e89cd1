// The rule options of RULES.md: how counters move, which lines capture, the clock limit.
#pragma once

#include <cstdint>

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
