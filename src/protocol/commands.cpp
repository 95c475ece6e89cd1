#include "protocol/commands.hpp"

#include <algorithm>

#include "moon/notation.hpp"
#include "moon/perft.hpp"
#include "whole_number.hpp"

namespace moon::protocol {

Expected<Position> parse_position_command(Words words, const Rules& rules) {
  if (words.empty()) return Error{"needs 'startpos' or 'fen <position string>'"};
  const auto moves_at = std::find(words.begin(), words.end(), "moves");
  const Words setup(words.begin(), moves_at);
  const Words moves = moves_at == words.end() ? Words{} : Words(moves_at + 1, words.end());
  if (setup.empty()) return Error{"needs 'startpos' or 'fen <position string>' before 'moves'"};

  std::optional<Expected<Position>> start;
  if (setup[0] == "startpos") {
    if (setup.size() > 1) return Error{"unexpected " + moon::quoted(setup[1]) + " after startpos (expected 'moves')"};
    start = Position::start(rules);
  } else if (setup[0] == "fen") {
    if (setup.size() == 1) return Error{"fen needs a position string"};
    start = parse_position(join(setup.subspan(1)), rules);
  } else {
    return Error{"needs 'startpos' or 'fen <position string>', not " + moon::quoted(setup[0])};
  }
  if (!*start) return start->error();

  Position pos = **start;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const auto move = parse_move(moves[i], pos);
    if (!move) return Error{"move " + std::to_string(i + 1) + ": " + move.error().message};
    pos.play(*move);
  }
  return pos;
}

Expected<GoCommand> parse_go(Words words) {
  GoCommand go;
  bool seen_limit = false;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view key = words[i];
    if (key == "infinite") {
      if (go.infinite) return Error{"infinite is given twice"};
      go.infinite = true;
      continue;
    }
    if (key == "solve") {
      if (go.solve) return Error{"solve is given twice"};
      go.solve = true;
      continue;
    }
    if (key == "moves") {
      if (go.solve_moves) return Error{"moves is given twice"};
      if (!go.solve) return Error{"moves goes after solve (go solve moves)"};
      go.solve_moves = true;
      continue;
    }
    if (key != "depth" && key != "nodes" && key != "movetime" && key != "xtime" && key != "otime" && key != "xinc" &&
        key != "oinc" && key != "perft")
      return Error{"unknown go parameter " + moon::quoted(key) +
                   " (depth, nodes, movetime, xtime, otime, xinc, oinc, infinite, perft, solve, moves)"};
    if (i + 1 == words.size()) return Error{std::string(key) + " needs a value"};
    const std::string_view text = words[++i];
    auto once = [&](bool given) -> Expected<bool> {
      if (given) return Error{std::string(key) + " is given twice"};
      return true;
    };
    auto number = [&](std::int64_t low, std::int64_t high) { return parse_whole_number(text, key, low, high); };

    Expected<std::int64_t> value = std::int64_t{0};
    Expected<bool> fresh = true;
    if (key == "depth") {
      fresh = once(go.depth != 0);
      value = number(1, max_search_depth);
      if (value) go.depth = int(*value);
    } else if (key == "nodes") {
      fresh = once(go.nodes != 0);
      value = number(1, max_limit_nodes);
      if (value) go.nodes = std::uint64_t(*value);
    } else if (key == "movetime") {
      fresh = once(go.movetime_ms != 0);
      value = number(1, max_limit_ms);
      if (value) go.movetime_ms = *value;
    } else if (key == "perft") {
      fresh = once(go.perft_depth.has_value());
      value = number(0, max_perft_depth);
      if (value) go.perft_depth = int(*value);
    } else {
      const Color side = key[0] == 'x' ? x : o;
      auto& slot = key.substr(1) == "time" ? go.time_ms[side] : go.increment_ms[side];
      fresh = once(slot.has_value());
      value = number(0, max_limit_ms);
      if (value) slot = *value;
    }
    if (!fresh) return fresh.error();
    if (!value) return value.error();
    if (key != "perft") seen_limit = true;
  }
  if (go.perft_depth && (seen_limit || go.infinite || go.solve)) return Error{"perft takes no other parameter"};
  if (go.solve && (seen_limit || go.infinite))
    return Error{"solve takes no other parameter but moves (it runs until proven or stopped)"};
  if (go.infinite && seen_limit) return Error{"infinite takes no other limit (it searches until stop)"};
  for (Color c : {x, o})
    if (go.increment_ms[c] && !go.time_ms[c])
      return Error{to_string(c) + "inc needs " + to_string(c) + "time"};
  return go;
}

Expected<SearchLimits> search_limits(const GoCommand& go, Color side, std::int64_t move_overhead_ms) {
  SearchLimits limits;
  limits.depth = go.depth;
  limits.nodes = go.nodes;
  limits.infinite = go.infinite;
  // Never 0, which would mean "no limit" to the search.
  const auto after_overhead = [&](std::int64_t ms) { return std::max<std::int64_t>(1, ms - move_overhead_ms); };
  if (go.movetime_ms) limits.movetime_ms = after_overhead(go.movetime_ms);
  if (go.uses_clock()) {
    if (!go.time_ms[side])
      return Error{to_string(side) + " is to move, so " + to_string(side) + "time is needed with the clocks"};
    limits.time_left_ms = after_overhead(*go.time_ms[side]);
    // Every move pays the overhead: only the rest of the increment is there to spend.
    limits.increment_ms = std::max<std::int64_t>(0, go.increment_ms[side].value_or(0) - move_overhead_ms);
  }
  return limits;
}

}  // namespace moon::protocol
