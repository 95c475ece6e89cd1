#include "cli/search_options.hpp"

#ifdef __linux__
#include <sched.h>
#endif

#include <algorithm>
#include <chrono>
#include <iostream>
#include <iterator>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "moon/evaluation.hpp"
#include "moon/memory.hpp"
#include "moon/notation.hpp"
#include "moon/transposition_table.hpp"
#include "split_fields.hpp"

namespace moon::cli {

Expected<bool> consume_limit(ArgReader& reader, SearchLimits& limits) {
  if (reader.flag("--depth")) {
    const auto d = int_value(reader, "--depth", 1, max_search_depth);
    if (!d) return d.error();
    limits.depth = int(*d);
    return true;
  }
  if (reader.flag("--movetime")) {
    const auto ms = int_value(reader, "--movetime", 1, max_limit_ms);  // as the protocol's
    if (!ms) return ms.error();
    limits.movetime_ms = *ms;
    return true;
  }
  if (reader.flag("--nodes")) {
    const auto n = int_value(reader, "--nodes", 1, max_limit_nodes);
    if (!n) return n.error();
    limits.nodes = std::uint64_t(*n);
    return true;
  }
  return false;
}

Expected<bool> consume_engine_option(ArgReader& reader, SearchOptions& options) {
  if (reader.flag("--hash")) {
    const auto mb = int_value(reader, "--hash", std::int64_t(TranspositionTable::min_mb),
                              std::int64_t(TranspositionTable::max_mb));
    if (!mb) return mb.error();
    options.hash_mb = std::size_t(*mb);
    return true;
  }
  if (reader.flag("--threads")) {
    const auto n = int_value(reader, "--threads", 1, max_search_threads);
    if (!n) return n.error();
    options.threads = int(*n);
    return true;
  }
  return false;
}

Expected<bool> consume_search_argument(ArgReader& reader, PositionOptions& where, SearchLimits& limits,
                                       SearchOptions& options, std::vector<std::string_view>& moves) {
  Expected<bool> consumed = where.consume(reader);
  if (consumed && !*consumed) consumed = consume_limit(reader, limits);
  if (consumed && !*consumed) consumed = consume_engine_option(reader, options);
  if (!consumed || *consumed) return consumed;
  if (!consume_move_text(reader, moves)) return Error{reader.unknown()};
  return true;
}

bool has_limit(const SearchLimits& limits) { return limits.depth || limits.movetime_ms || limits.nodes; }

namespace {

// The comma-separated items of a list; an empty one ("a,,b", "a,", "") is an error, where
// reading with a stream would drop a trailing one silently.
Expected<std::vector<std::string>> list_items(const std::string& text, std::string_view what) {
  std::vector<std::string> items;
  for (std::string_view item : split_fields(text, ',')) {
    if (item.empty())
      return Error{std::string(what) + " " + moon::quoted(text) + " has an empty item (a comma too many, or none given)"};
    items.emplace_back(item);
  }
  return items;
}

// The field of the entry of `table` named `name`, or an error: a name not there (the message
// lists those there are), or one already in `seen` (a list that names one twice).
template <class Field, std::size_t N>
Expected<Field*> find_named(const std::pair<std::string_view, Field*> (&table)[N], std::string_view name,
                            std::string_view what, std::vector<std::string_view>& seen) {
  for (const auto& entry : table) {
    if (entry.first != name) continue;
    if (std::find(seen.begin(), seen.end(), name) != seen.end())
      return Error{std::string(what) + " " + moon::quoted(name) + " is given twice"};
    seen.push_back(name);
    return entry.second;
  }
  std::string names;
  for (const auto& entry : table) names += (names.empty() ? "" : ", ") + std::string(entry.first);
  return Error{"unknown " + std::string(what) + " " + moon::quoted(name) + " (" + names + ")"};
}

}  // namespace

Expected<SearchFeatures> parse_features(const std::string& text) {
  const auto colon = text.find(':');
  const std::string base = text.substr(0, colon);
  SearchFeatures f;
  if (base == "plain") f = SearchFeatures::plain();
  else if (base != "full") return Error{"engine settings must start with 'full' or 'plain', not " + moon::quoted(base)};
  if (colon == std::string::npos) return f;
  const auto items = list_items(text.substr(colon + 1), "the feature list");
  if (!items) return items.error();
  const std::pair<std::string_view, bool*> features[] = {
      {"alphabeta", &f.alpha_beta},     {"table", &f.transposition_table}, {"captures", &f.capture_ordering},
      {"killers", &f.killers},          {"history", &f.history},           {"pvs", &f.principal_variation},
      {"quiescence", &f.quiescence},
  };
  std::vector<std::string_view> seen;
  for (const std::string& item : *items) {
    if (item.size() < 2 || (item[0] != '+' && item[0] != '-'))
      return Error{"feature " + moon::quoted(item) + " must be +NAME or -NAME"};
    const auto flag = find_named(features, std::string_view(item).substr(1), "feature", seen);
    if (!flag) return flag.error();
    **flag = item[0] == '+';
  }
  return f;
}

SearchOptions with_smallest_table(SearchOptions options) {
  options.hash_mb = TranspositionTable::min_mb;
  return options;
}

int usable_cores() {
#ifdef __linux__
  cpu_set_t cores;
  if (sched_getaffinity(0, sizeof cores, &cores) == 0) return CPU_COUNT(&cores);
#endif
  return int(std::thread::hardware_concurrency());
}

std::string threads_beyond_cores_note(int threads, int cores) {
  if (cores <= 0 || threads <= cores) return {};
  const std::string at_most = std::to_string(cores) + (cores == 1 ? " thread" : " threads");
  return "note: " + std::to_string(threads) + " threads on " + std::to_string(cores) + (cores == 1 ? " core" : " cores") +
         ": the first thread, which alone completes iterations, gets a core only in turn with the others, "
         "so searches may go less deep than with " + at_most + " (docs/SEARCH.md, \"More threads than cores\")";
}

Expected<bool> set_search_options(std::string_view command, Searcher& searcher, const SearchOptions& options) {
  if (const std::string note = threads_beyond_cores_note(options.threads, usable_cores()); !note.empty())
    std::cerr << command << ": " << note << std::endl;
  const bool announced = options.hash_mb >= announced_table_mb && options.hash_mb != searcher.options().hash_mb;
  if (announced) std::cerr << command << ": " << making_table_text(options.hash_mb) << std::endl;
  const auto started = std::chrono::steady_clock::now();
  auto ok = searcher.set_options(options);
  if (announced && ok)
    std::cerr << command << ": " << table_made_text(std::chrono::steady_clock::now() - started) << std::endl;
  return ok;
}

Expected<EvalWeights> parse_weights(const std::string& text) {
  EvalWeights w;
  const auto items = list_items(text, "the weight list");
  if (!items) return items.error();
  std::pair<std::string_view, int*> weights[std::size(eval_weight_fields)];
  for (std::size_t i = 0; i < std::size(eval_weight_fields); ++i)
    weights[i] = {eval_weight_fields[i].first, &(w.*eval_weight_fields[i].second)};
  std::vector<std::string_view> seen;
  for (const std::string& item : *items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) return Error{"weight " + moon::quoted(item) + " must be NAME=VALUE"};
    const std::string_view name = std::string_view(item).substr(0, eq), value = std::string_view(item).substr(eq + 1);
    const auto field = find_named(weights, name, "weight", seen);
    if (!field) return field.error();
    const auto v = parse_whole_number(value, name, -max_eval_weight, max_eval_weight);
    if (!v) return v.error();
    **field = int(*v);
  }
  return w;
}

}  // namespace moon::cli
