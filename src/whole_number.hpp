// Whole numbers given from outside as text: the moon program's options and the protocol's
// commands read them alike.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "moon/expected.hpp"
#include "moon/notation.hpp"

namespace moon {

// The decimal number `text` if it lies in [low, high] (a leading '-' is read where low is
// negative), else the error "<what> must be a whole number from <low> to <high>, not '<text>'".
// Digits past what int64 holds are out of range whatever `high` is.
inline Expected<std::int64_t> parse_whole_number(std::string_view text, std::string_view what, std::int64_t low,
                                                 std::int64_t high) {
  const auto out_of_range = [&] {
    return Error{std::string(what) + " must be a whole number from " + std::to_string(low) + " to " +
                 std::to_string(high) + ", not " + moon::quoted(text)};
  };
  const bool negative = low < 0 && text.starts_with('-');
  const std::string_view digits = negative ? text.substr(1) : text;
  if (digits.empty()) return out_of_range();
  std::int64_t value = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return out_of_range();
    if (value > (std::numeric_limits<std::int64_t>::max() - (c - '0')) / 10) return out_of_range();
    value = value * 10 + (c - '0');
  }
  if (negative) value = -value;
  if (value < low || value > high) return out_of_range();
  return value;
}

}  // namespace moon
