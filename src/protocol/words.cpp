#include "protocol/words.hpp"

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

}  // namespace moon::protocol
