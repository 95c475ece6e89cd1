// Command-line parsing shared by the moon program's commands.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "moon/expected.hpp"
#include "moon/position.hpp"
#include "moon/rules.hpp"
#include "whole_number.hpp"

namespace moon::cli {

using Args = std::span<const std::string_view>;

// Walks a command's arguments; flags take their value as the next argument or after '='.
class ArgReader {
 public:
  explicit ArgReader(Args args) : args_(args) {}
  bool done() const { return index_ >= args_.size(); }
  std::string_view current() const { return args_[index_]; }
  // True (and consumes it) when the current argument is `flag` or `flag=...`: a flag that takes
  // a value.
  bool flag(std::string_view name);
  // True (and consumes it) when the current argument is exactly `name`: a flag that takes no
  // value. `name=...` is not it, so that `--slide=false` is refused as unknown rather than
  // taken for `--slide`; unknown() then says why.
  bool bare_flag(std::string_view name);
  // The value of the flag just matched by flag(); an error if there is none (the next argument
  // is another option: "--" and a letter), or if that flag was given before (a second value
  // would otherwise silently replace the first).
  Expected<std::string> value();
  void skip() { ++index_; }
  // "unknown option '--x'" for an argument that starts with '-', else "unknown argument 'x'",
  // with " (--quiet takes no value)" when the argument is a flag of bare_flag() given a value,
  // or " (did you mean '--divide'?)" when an option is a typing slip away from one that
  // flag() or bare_flag() was asked about (closest_name.hpp).
  std::string unknown() const;

 private:
  Args args_;
  std::size_t index_ = 0;
  std::optional<std::string> inline_value_;
  std::string last_flag_;
  bool last_flag_repeated_ = false;
  std::vector<std::string> flags_seen_;
  std::vector<std::string> bare_flags_;  // every name bare_flag() was asked about
  std::vector<std::string> names_;       // every name flag() or bare_flag() was asked about

  void note_name(std::string_view name);
};

// The value of the flag just matched by reader.flag(), as a whole number in [low, high].
Expected<std::int64_t> int_value(ArgReader& reader, std::string_view flag, std::int64_t low, std::int64_t high);

// --fen, --slide, --diagonal, --clock-limit: the position a command starts from.
struct PositionOptions {
  std::optional<std::string> fen;
  Rules rules;

  // Consumes one of the options above at the reader's position: true if it was one of them.
  Expected<bool> consume(ArgReader& reader);
  Expected<Position> position() const;
};

// The MOVE arguments of show, solve and analyze: the reader's argument, unless it is an option
// (starts with '-'), is added to `moves` and consumed (true).
bool consume_move_text(ArgReader& reader, std::vector<std::string_view>& moves);
// `start` after those moves, each checked in turn: the error of the first that is not legal
// there names it ("move 2: ..."). `last_captures`, if not null, gets what the last one captured.
Expected<Position> play_move_texts(Position start, const std::vector<std::string_view>& moves,
                                   Bitboard* last_captures = nullptr);

// The options above that select these rules, as typed on the command line ("--slide
// --clock-limit 40"); empty for the default rules.
std::string rule_flags(const Rules& rules);

inline constexpr std::string_view position_options_help =
    "  --fen FEN          start from this position string (quote it); default: the start,\n"
    "                     '5/5/5/5/5 x 12 12 0 1': ranks 5 to 1 ('x', 'o', a digit for that\n"
    "                     many empty squares), the side to move, x's and o's counters in\n"
    "                     hand, the moves since a capture, the move number; or the first\n"
    "                     two alone, the rest then 0 0 0 1 (docs/RULES.md)\n"
    "  --slide            variant: counters slide like rooks instead of stepping one square\n"
    "  --diagonal         variant: diagonal lines capture too\n"
    "  --clock-limit N    moves without a capture that end the game (1-255; default 20)\n";

// What a command's loop makes of an argument that may be one every command taking a position
// reads alike (read_position_or_help() below).
struct CommonArgument {
  bool read = false;             // it was one of them, and is consumed: go on to the next
  std::optional<int> exit_code;  // the command ends now, with this status
};
// A position option (PositionOptions), or --help / -h, which prints `help` and then
// position_options_help (exit status 0); a bad position option is a usage_error() (status 2).
CommonArgument read_position_or_help(ArgReader& reader, PositionOptions& where, std::string_view command,
                                     std::string_view help);

// Prints "moon <command>: <message> (see 'moon <command> --help')" on one line of standard
// error; returns exit status 2.
int usage_error(std::string_view command, std::string_view message);

// Prints "moon <command>: <message>" on one line of standard error; returns exit status 1. For
// what the machine would not give (threads, memory) once the input was found good.
int resource_failure(std::string_view command, std::string_view message);

}  // namespace moon::cli
