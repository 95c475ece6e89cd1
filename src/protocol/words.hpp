// Words of a protocol line: splitting, joining and comparing. (Quoting for messages is the library's
// moon::quoted(), notation.hpp; whole numbers are read by whole_number.hpp, as the moon
// program's options are.)
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "moon/notation.hpp"

namespace moon::protocol {

using Words = std::span<const std::string_view>;

// The words of a line, split on any run of spaces and tabs.
std::vector<std::string_view> split_words(std::string_view line);

// The words joined with single spaces.
std::string join(Words words);

// Equal but for the case of ASCII letters (option names and their values).
bool same_name(std::string_view a, std::string_view b);

}  // namespace moon::protocol
