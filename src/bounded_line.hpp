// Lines of text read from outside with a bound on their length: the protocol's commands and
// moon play's input alike. A line without a newline at the end of the input still counts; a
// longer line is consumed whole and refused, so that input with no newline in sight (a file of
// NULs, /dev/zero) takes no more memory than the bound.
#pragma once

#include <cstddef>
#include <cstdio>
#include <iostream>
#include <istream>
#include <string>

namespace moon {

// `failed`: standard input could not be read (errno says why); what was read of a last line
// before the error is dropped, as a line cut short.
enum class LineRead { line, too_long, end, failed };

// Whether the end of `in` was a read error rather than the end of the input. sbumpc() says "end
// of file" for both; std::cin's buffer, synchronised with C's stdio as moon leaves it, reads with
// getc(stdin), whose error indicator tells them apart. Other streams (strings, in the tests)
// have no read errors to tell.
inline bool read_failed(const std::istream& in) { return in.rdbuf() == std::cin.rdbuf() && std::ferror(stdin); }

// One line of at most `max_length` characters into `line`, without its '\n' (nor a '\r' before
// it). Reads the stream's buffer directly: the stream's own state flags are left alone.
inline LineRead read_bounded_line(std::istream& in, std::string& line, std::size_t max_length) {
  line.clear();
  std::streambuf* buffer = in.rdbuf();
  if (!buffer) return LineRead::end;
  bool too_long = false, any = false;
  for (;;) {
    const int c = buffer->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      if (read_failed(in)) {
        line.clear();
        return LineRead::failed;
      }
      if (!any) return LineRead::end;
      break;
    }
    any = true;
    if (c == '\n') break;
    // One character past the bound is kept: it may be the '\r' of a CRLF, which does not count.
    if (line.size() <= max_length) line += char(c);
    else too_long = true;
  }
  if (!too_long && !line.empty() && line.back() == '\r') line.pop_back();
  if (too_long || line.size() > max_length) {
    line.clear();
    return LineRead::too_long;
  }
  return LineRead::line;
}

}  // namespace moon
