// Running the built `moon` program from the tests (MOON_PROGRAM: its path, set by CMake), with
// its output and exit status captured through temporary files.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "text_lines.hpp"

namespace moon::test {

struct Run {
  int status = -1;
  std::string out, err;
};

inline std::string read_whole_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `moon <args>` (args are fixed strings written in the tests) with `input` on standard
// input; shell_prefix (e.g. a ulimit) comes before it in the shell command.
inline Run run_moon(const std::string& args, const std::string& input = "", const std::string& shell_prefix = "") {
  static int serial = 0;
  const auto base = std::filesystem::temp_directory_path() /
                    ("moon_test_run_" + std::to_string(getpid()) + "_" + std::to_string(serial++));
  const std::string in = base.string() + ".in", out = base.string() + ".out", err = base.string() + ".err";
  std::ofstream(in) << input;
  const std::string command = shell_prefix + "'" + MOON_PROGRAM + "' " + args + " <'" + in + "' >'" + out +
                              "' 2>'" + err + "'";
  const int raw = std::system(command.c_str());
  Run run;
  run.status = raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  run.out = read_whole_file(out);
  run.err = read_whole_file(err);
  for (const auto& f : {in, out, err}) std::filesystem::remove(f);
  return run;
}

}  // namespace moon::test
