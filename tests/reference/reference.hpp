// The plain reference implementation of /work/shared/RULES.md (the rules authority), used as
// an oracle in differential tests against the engine.
//
// It must stay independent of include/moon: it shares no code, headers or tables with the
// engine, so that a bug in one is not silently repeated in the other. It is deliberately
// plain so that it can be checked by reading: a mailbox board of 25 chars ('x', 'o', '.'),
// loops that walk squares one by one, copy-make, no bit tricks, no caching. Speed is not a
// goal. Everything crosses the interface as text, so a differential test needs nothing in
// common with the engine.
//
// Decisions where RULES.md leaves room (keep the engine's tests in mind when changing them):
// - Counts in a position string may have leading zeros ("007" reads as 7); they are printed
//   without them. A count must be a non-empty run of decimal digits (no sign, no spaces).
// - fullmove must be 1..999999999; larger values are refused as out of range.
// - The clock must be 0..rules.clock_limit; rules.clock_limit itself must be at least 1.
// - Fields are separated by exactly one space: leading, trailing or doubled spaces (which
//   make an empty field) are refused, as is any other whitespace.
// - to_string always prints all six fields, even for a position read from the short form.
// - captures() of text that is not a legal move returns "".
#pragma once

#include <string>
#include <vector>

namespace reference {

struct Rules {
    bool slide = false;     // variant: counters move like rooks along orthogonal lines
    bool diagonal = false;  // variant: the diagonals are capture lines too
    int clock_limit = 20;   // the game is over when the no-capture clock reaches this
};

struct Position {
    char board[25];  // index = (rank-1)*5 + file, a1 = 0, e5 = 24; 'x', 'o' or '.'
    char side;       // 'x' or 'o', the side to move
    int in_hand[2];  // [0] = x, [1] = o
    int clock;       // no-capture clock
    int fullmove;    // starts at 1, +1 after every turn of o
    Rules rules;
};

// Parses a position string as RULES.md defines it (six fields, or the short two-field form),
// applying every refusal rule. On failure returns false, leaves `out` untouched and sets
// `error` to a message naming the problem.
bool parse(const std::string& text, const Rules& rules, Position& out, std::string& error);

// The canonical position string: six fields, runs of empty squares merged into one digit.
std::string to_string(const Position& p);

// True when the game is over: movement phase (both hands empty) and either a side has at most
// one counter on the board or the clock has reached the limit.
bool is_over(const Position& p);

// 'x' or 'o' (the winner) or 'd' (draw) when the game is over; '-' when it is not.
char result(const Position& p);

// Every legal move as text: placement "b4", movement "b3c3", pass "0000". Empty when the
// game is over. The order is unspecified.
std::vector<std::string> legal_moves(const Position& p);

// Plays the move given as text. Returns false and leaves p unchanged if it is not legal.
bool play(Position& p, const std::string& move);

// The squares the move captures, sorted by index, space-separated (e.g. "b2 b3"); "" when it
// captures nothing or is not a legal move.
std::string captures(const Position& p, const std::string& move);

// Leaf nodes of the legal-move tree `depth` plies deep; perft(p, 0) == 1 (and so is any
// negative depth). Bulk-counts at the last ply.
unsigned long long perft(const Position& p, int depth);

}  // namespace reference
