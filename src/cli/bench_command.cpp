#include <algorithm>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/search_options.hpp"
#include "moon/search_bench.hpp"
#include "moon/notation.hpp"

namespace moon::cli {

namespace {

constexpr std::string_view name = "bench";
static_assert(max_search_threads == 256, "the help text below states this range");
constexpr std::string_view help =
    "Usage: moon bench [--depth-offset N] [--engine SETTINGS] [--threads N]\n"
    "\n"
    "Searches a fixed list of positions (every phase and variant) to fixed depths on one\n"
    "thread (unless --threads), with the table cleared before each, and prints the total as\n"
    "'Nodes searched: N' and the speed as 'Nodes/second: R'. N is a signature of the\n"
    "search: the same on every run, changed only by a change of the search's behaviour.\n"
    "'Total time (ms)' and the speed count the searches only, not the table clears.\n"
    "\n"
    "Options:\n"
    "  --depth-offset N   search every position N plies deeper (negative: shallower; -8 to 8)\n"
    "  --engine SETTINGS  search with parts of the search switched off (see below); the\n"
    "                     node count then measures what those parts save\n"
    "  --threads N        Lazy SMP threads (1-256; default 1; not deterministic: for\n"
    "                     time-to-depth only)\n"
    "\n"
    "The depths are the full engine's. Without alpha-beta ('plain', or -alphabeta) the work\n"
    "grows about eightfold a ply: give such settings --depth-offset -8 (about a second for\n"
    "'plain' on a 2-core VM) or -7 (several seconds); at 0 that rate makes months, and a\n"
    "note on standard error says so before such a run starts.\n"
    "\n"
    "Engine SETTINGS:\n";

// Without alpha-beta, deeper than this offset takes more than a few seconds (see the help).
constexpr int slow_without_alpha_beta = -7;

}  // namespace

int bench_command(Args args) {
  SearchBenchOptions options;
  for (ArgReader reader(args); !reader.done();) {
    if (reader.bare_flag("--help") || reader.bare_flag("-h")) {
      std::cout << help << features_help;
      return 0;
    }
    if (reader.flag("--depth-offset")) {
      const auto v = reader.value();
      if (!v) return usage_error(name, v.error().message);
      const auto n = parse_whole_number(*v, "--depth-offset", -8, 8);
      if (!n) return usage_error(name, n.error().message);
      options.depth_offset = int(*n);
      continue;
    }
    if (reader.flag("--engine")) {
      const auto v = reader.value();
      if (!v) return usage_error(name, v.error().message);
      const auto f = parse_features(*v);
      if (!f) return usage_error(name, f.error().message);
      options.features = *f;
      continue;
    }
    if (reader.flag("--threads")) {
      const auto n = int_value(reader, "--threads", 1, max_search_threads);
      if (!n) return usage_error(name, n.error().message);
      options.threads = int(*n);
      continue;
    }
    return usage_error(name, reader.unknown());
  }
  // The help says so too, but a run that would last months deserves a word before it starts.
  // From about a second at -8, eightfold a ply: -6 a minute, -4 an hour, -2 days, 0 months.
  if (!options.features.alpha_beta && options.depth_offset > slow_without_alpha_beta)
    std::cerr << "note: without alpha-beta the work grows about eightfold a ply: at --depth-offset "
              << options.depth_offset << " this bench may run for "
              << (options.depth_offset > -3 ? "days or more" : options.depth_offset > -5 ? "hours" : "minutes")
              << " (--depth-offset -8 takes about a second); Ctrl-C stops it\n";
  const auto positions = search_bench_positions();
  const auto result = run_search_bench(options, [&](std::size_t i, const SearchResult& r) {
    const std::string rules = rule_flags(positions[i].rules);
    std::cerr << "position " << i + 1 << "/" << positions.size() << ": " << positions[i].fen
              << (rules.empty() ? "" : "  " + rules) << "  depth " << r.depth
              << "  score " << to_string(r.score_info) << "  best " << to_string(r.best) << "  nodes " << r.nodes
              << "\n";
  });
  if (!result) return resource_failure(name, result.error().message);  // threads the system will not make
  const auto nps = std::uint64_t(double(result->nodes) * 1e6 / double(std::max<std::int64_t>(result->time_us, 1)));
  std::cout << "Total time (ms): " << result->time_ms << "\n"
            << "Nodes searched: " << result->nodes << "\n"
            << "Nodes/second: " << nps << "\n";
  // Standard output keeps its three lines, which scripts read; the warning goes with the progress.
  if (options.threads > 1)
    std::cerr << "note: with " << options.threads
              << " threads the node count varies from run to run: it is not a signature\n";
  return 0;
}

}  // namespace moon::cli
