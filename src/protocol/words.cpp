#include "protocol/words.hpp"

#include <limits>

namespace moon::protocol {

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    const std::size_t begin = i;
    while (i < line.size() && !blank(line[i])) ++i;
    if (i > begin) words.push_back(line.substr(begin, i - begin));
  }
  return words;
}

std::string join(Words words) {
  std::string text;
  for (std::string_view w : words) {
    if (!text.empty()) text += ' ';
    text.append(w);
  }
  return text;
}

Expected<std::int64_t> parse_number(std::string_view text, std::string_view what, std::int64_t low,
                                    std::int64_t high) {
  const auto out_of_range = [&] {
    return Error{std::string(what) + " must be a whole number from " + std::to_string(low) + " to " +
                 std::to_string(high) + ", not " + quoted(text)};
  };
  if (text.empty()) return out_of_range();
  std::int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return out_of_range();
    // Past what int64 holds is out of range whatever `high` is (10^18, 19 digits, is a limit).
    if (value > (std::numeric_limits<std::int64_t>::max() - (c - '0')) / 10) return out_of_range();
    value = value * 10 + (c - '0');
  }
  if (value < low || value > high) return out_of_range();
  return value;
}

}  // namespace moon::protocol
