// The moon program's commands: each takes the arguments after its name, returns an exit status.
#pragma once

#include "cli/options.hpp"

namespace moon::cli {

int perft_command(Args args);
int show_command(Args args);
int solve_command(Args args);
int analyze_command(Args args);
int play_command(Args args);
int bench_command(Args args);
int match_command(Args args);
int protocol_command(Args args);

}  // namespace moon::cli
