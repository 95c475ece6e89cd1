// Command-line options shared by the commands that search: limits and engine settings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/options.hpp"
#include "moon/expected.hpp"
#include "moon/search.hpp"

namespace moon::cli {

// --depth D, --movetime MS, --nodes N: consumes one at the reader's position (true if it did).
Expected<bool> consume_limit(ArgReader& reader, SearchLimits& limits);
// --hash MB, --threads N.
Expected<bool> consume_engine_option(ArgReader& reader, SearchOptions& options);
// Reads the reader's argument, any of moon analyze and moon play but their own options and
// --help: a position option, a limit, an engine option, else a MOVE (consume_move_text()).
// True once read; an error for a bad option, or for an option none of them takes
// (ArgReader::unknown(); the reader is then left on it).
Expected<bool> consume_search_argument(ArgReader& reader, PositionOptions& where, SearchLimits& limits,
                                       SearchOptions& options, std::vector<std::string_view>& moves);
// True if a depth, move time or node limit is set (the commands that search default to a
// move time otherwise).
bool has_limit(const SearchLimits& limits);
// `options` with the smallest table: for the Searcher a command makes at once, whose table
// set_search_options() makes later, once the size has been checked.
SearchOptions with_smallest_table(SearchOptions options);
// The cores this process may run on: its CPU affinity's (taskset, a container's cpuset) where
// the system tells, else std::thread::hardware_concurrency() (0: unknown).
int usable_cores();
// For more search threads than cores (known): a note that only the first thread completes
// iterations, and it waits for a core in turn with the others, so that searches may go less
// deep (a turn came every 0.4 s with 256 threads on 2 cores: a 500 ms search may complete depth
// 1 only; 4 threads on 2 cores went as deep as 1 or 2); else "".
std::string threads_beyond_cores_note(int threads, int cores);
// searcher.set_options(options), with threads_beyond_cores_note() first if it says anything,
// then "<command>: making the N MiB table" before and
// "<command>: table made in S s" after on standard error for a table of announced_table_mb
// (memory.hpp) or more. Its errors are set_options()'s (a table or threads the system will not give).
Expected<bool> set_search_options(std::string_view command, Searcher& searcher, const SearchOptions& options);
// Engine settings: "full" or "plain", then optionally ':' and a comma list of +NAME / -NAME.
Expected<SearchFeatures> parse_features(const std::string& text);
// Evaluation weights changed from the defaults: a comma list of NAME=VALUE (evaluation.hpp).
Expected<EvalWeights> parse_weights(const std::string& text);

static_assert(max_search_depth == 100 && max_limit_ms == 1'000'000'000'000 &&
                  max_limit_nodes == 1'000'000'000'000'000'000,
              "limit_options_help and moon play's help state these ranges");
inline constexpr std::string_view limit_options_help =
    "  --depth D          search D plies deep (1-100)\n"
    "  --movetime MS      search MS milliseconds (1 to 10^12)\n"
    "  --nodes N          search N nodes (1 to 10^18)\n"
    "                     (limits may be combined: the first reached ends the search)\n";
inline constexpr std::string_view features_help =
    "  'full' (the engine) or 'plain' (fixed-depth negamax: minimax without table, ordering,\n"
    "  PVS or quiescence), optionally followed by ':' and a comma list of +FEATURE / -FEATURE,\n"
    "  FEATURE one of alphabeta, table, captures, killers, history, pvs, quiescence.\n"
    "  Examples: full:-history  plain:+alphabeta\n";
static_assert(TranspositionTable::max_mb == 65536 && max_search_threads == 256 && SearchOptions{}.hash_mb == 16,
              "engine_options_help states these ranges and the default");
inline constexpr std::string_view engine_options_help =
    "  --hash MB          transposition table size in MiB (1-65536, at most the machine's\n"
    "                     memory; default 16)\n"
    "  --threads N        search threads (1-256; default 1)\n";

}  // namespace moon::cli
