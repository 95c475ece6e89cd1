// Text split at a separator, for the readers of text from outside: position strings (notation.cpp)
// and the moon program's lists of features and weights.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace moon {

// The fields of `text` between `separator`s, in order. An empty field (from a doubled, leading or
// trailing separator, or an empty text) is kept, so that the reader can report it rather than
// skip it silently.
inline std::vector<std::string_view> split_fields(std::string_view text, char separator) {
  std::vector<std::string_view> fields;
  for (std::size_t begin = 0;;) {
    const std::size_t end = text.find(separator, begin);
    fields.push_back(text.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
    if (end == std::string_view::npos) return fields;
    begin = end + 1;
  }
}

}  // namespace moon
