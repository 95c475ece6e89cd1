#include "protocol/words.hpp"

#include <algorithm>
#include <cctype>

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

bool same_name(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char p, char q) {
    return std::tolower(static_cast<unsigned char>(p)) == std::tolower(static_cast<unsigned char>(q));
  });
}

}  // namespace moon::protocol
