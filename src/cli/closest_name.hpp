// "Did you mean ...?": the known name a mistyped command or option most likely meant.
#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace moon::cli {

// The fewest edits that turn `a` into `b`: a character inserted, deleted or replaced, or two
// adjacent characters swapped ("prft" -> "perft" is 1, "sovle" -> "solve" is 1).
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the classic table: the row before last (for swaps), the last, and this one.
  std::vector<std::size_t> before(b.size() + 1), last(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) last[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t replace = last[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({last[j] + 1, row[j - 1] + 1, replace});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
    }
    std::swap(before, last);
    std::swap(last, row);
  }
  return last[b.size()];
}

// A word without its leading dashes: "--hash" -> "hash".
inline std::string_view without_dashes(std::string_view word) {
  return word.substr(std::min(word.find_first_not_of('-'), word.size()));
}

// The name among `names` nearest to `typed`, if it is close enough to be what was meant: at
// most two edits, and at most one for every three characters of the longer word without its
// dashes, so that a short word is not "corrected" into an unrelated one ("-1" and "--c" suggest
// nothing, where "--a" is an option), unless the two differ in dashes alone ("--h" suggests
// "-h"). The first listed wins a tie; `typed` itself, if listed, is not suggested.
inline std::optional<std::string_view> closest_name(std::string_view typed, std::span<const std::string_view> names) {
  constexpr std::size_t most_edits = 2;
  std::optional<std::string_view> best;
  std::size_t best_edits = most_edits + 1;
  for (const std::string_view name : names) {
    // Words whose lengths differ by more than the edits allowed cannot be close: skipping them
    // keeps a very long argument from costing more than a glance.
    const std::size_t longer = std::max(typed.size(), name.size());
    if (longer - std::min(typed.size(), name.size()) > most_edits) continue;
    const std::size_t edits = edit_distance(typed, name);
    const std::string_view typed_word = without_dashes(typed), name_word = without_dashes(name);
    const bool dashes_alone = typed_word == name_word;
    if (edits == 0 || edits > most_edits || edits >= best_edits) continue;
    if (!dashes_alone && edits * 3 > std::max(typed_word.size(), name_word.size())) continue;
    best = name;
    best_edits = edits;
  }
  return best;
}

}  // namespace moon::cli
