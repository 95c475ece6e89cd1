// Words of a protocol line: splitting, joining, whole numbers. (Quoting for messages is the
// library's moon::quoted(), notation.hpp, which the position and move errors use too.)
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "moon/expected.hpp"
#include "moon/notation.hpp"

namespace moon::protocol {

using Words = std::span<const std::string_view>;

// The words of a line, split on any run of spaces and tabs.
std::vector<std::string_view> split_words(std::string_view line);

// The words joined with single spaces.
std::string join(Words words);

// A whole number of decimal digits in [low, high]; `what` names it in the message.
Expected<std::int64_t> parse_number(std::string_view text, std::string_view what, std::int64_t low,
                                    std::int64_t high);

}  // namespace moon::protocol
