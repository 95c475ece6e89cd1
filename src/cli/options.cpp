#include "cli/options.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>

#include "cli/closest_name.hpp"
#include "moon/notation.hpp"

namespace moon::cli {

namespace {

// True if arg is `name=VALUE` (VALUE possibly empty).
bool with_inline_value(std::string_view arg, std::string_view name) {
  return arg.size() > name.size() && arg.starts_with(name) && arg[name.size()] == '=';
}

}  // namespace

void ArgReader::note_name(std::string_view name) {
  if (std::find(names_.begin(), names_.end(), name) == names_.end()) names_.emplace_back(name);
}

bool ArgReader::flag(std::string_view name) {
  note_name(name);
  if (done()) return false;
  const std::string_view arg = current();
  if (arg == name) {
    inline_value_.reset();
  } else if (with_inline_value(arg, name)) {
    inline_value_ = std::string(arg.substr(name.size() + 1));
  } else {
    return false;
  }
  last_flag_ = std::string(name);
  last_flag_repeated_ = std::find(flags_seen_.begin(), flags_seen_.end(), last_flag_) != flags_seen_.end();
  if (!last_flag_repeated_) flags_seen_.push_back(last_flag_);
  ++index_;
  return true;
}

bool ArgReader::bare_flag(std::string_view name) {
  note_name(name);
  if (std::find(bare_flags_.begin(), bare_flags_.end(), name) == bare_flags_.end()) bare_flags_.emplace_back(name);
  if (done() || current() != name) return false;
  ++index_;
  return true;
}

std::string ArgReader::unknown() const {
  const std::string_view arg = current();
  std::string message = (arg.starts_with('-') ? "unknown option " : "unknown argument ") + moon::quoted(arg);
  for (const std::string& name : bare_flags_)
    if (with_inline_value(arg, name)) return message + " (" + name + " takes no value)";
  if (arg.starts_with('-')) {
    const std::vector<std::string_view> names(names_.begin(), names_.end());
    if (const auto meant = closest_name(arg.substr(0, arg.find('=')), names))
      message += " (did you mean " + moon::quoted(*meant) + "?)";
  }
  return message;
}

Expected<std::string> ArgReader::value() {
  if (last_flag_repeated_) return Error{last_flag_ + " is given more than once"};
  if (inline_value_) {
    std::string v = std::move(*inline_value_);
    inline_value_.reset();
    return v;
  }
  if (done()) return Error{last_flag_ + " needs a value"};
  // `--fen --slide` forgot the value: say so, rather than refuse '--slide' as a position string.
  // No value of any flag starts with "--" and a letter; a negative number ("-1") is a value.
  if (const std::string_view next = current(); next.size() > 2 && next.starts_with("--") &&
                                               std::isalpha(static_cast<unsigned char>(next[2])))
    return Error{last_flag_ + " needs a value, not the option " + moon::quoted(next)};
  return std::string(args_[index_++]);
}

Expected<std::int64_t> int_value(ArgReader& reader, std::string_view flag, std::int64_t low, std::int64_t high) {
  const auto v = reader.value();
  if (!v) return v.error();
  return parse_whole_number(*v, flag, low, high);
}

std::string rule_flags(const Rules& rules) {
  std::string flags;
  const auto add = [&](const std::string& flag) { flags += (flags.empty() ? "" : " ") + flag; };
  if (rules.slide()) add("--slide");
  if (rules.diagonal()) add("--diagonal");
  if (rules.clock_limit != Rules::default_clock_limit) add("--clock-limit " + std::to_string(rules.clock_limit));
  return flags;
}

Expected<bool> PositionOptions::consume(ArgReader& reader) {
  if (reader.flag("--fen")) {
    auto v = reader.value();
    if (!v) return v.error();
    fen = *v;
    return true;
  }
  if (reader.bare_flag("--slide")) {
    rules.movement = Movement::slide;
    return true;
  }
  if (reader.bare_flag("--diagonal")) {
    rules.capture_lines = CaptureLines::orthogonal_and_diagonal;
    return true;
  }
  if (reader.flag("--clock-limit")) {
    auto v = reader.value();
    if (!v) return v.error();
    auto n = parse_whole_number(*v, "--clock-limit", Rules::min_clock_limit, Rules::max_clock_limit);
    if (!n) return n.error();
    rules.clock_limit = int(*n);
    return true;
  }
  return false;
}

Expected<Position> PositionOptions::position() const {
  if (!fen) return Position::start(rules);
  return parse_position(*fen, rules);
}

bool consume_move_text(ArgReader& reader, std::vector<std::string_view>& moves) {
  const std::string_view arg = reader.current();
  if (arg.size() > 1 && arg[0] == '-') return false;
  moves.push_back(arg);
  reader.skip();
  return true;
}

Expected<Position> play_move_texts(Position start, const std::vector<std::string_view>& moves,
                                   Bitboard* last_captures) {
  Bitboard captured = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const auto move = parse_move(moves[i], start);
    if (!move) return Error{"move " + std::to_string(i + 1) + ": " + move.error().message};
    captured = start.play(*move);
  }
  if (last_captures) *last_captures = captured;
  return start;
}

CommonArgument read_position_or_help(ArgReader& reader, PositionOptions& where, std::string_view command,
                                     std::string_view help) {
  const auto consumed = where.consume(reader);
  if (!consumed) return {true, usage_error(command, consumed.error().message)};
  if (*consumed) return {true, std::nullopt};
  if (reader.bare_flag("--help") || reader.bare_flag("-h")) {
    std::cout << help << position_options_help;
    return {true, 0};
  }
  return {};
}

int usage_error(std::string_view command, std::string_view message) {
  std::cerr << "moon " << command << ": " << message << " (see 'moon " << command << " --help')\n";
  return 2;
}

int resource_failure(std::string_view command, std::string_view message) {
  std::cerr << "moon " << command << ": " << message << "\n";
  return 1;
}

}  // namespace moon::cli
