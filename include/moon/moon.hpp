// The moon library: everything a program embedding the engine needs, in one include.
#pragma once

#include "moon/bitboard.hpp"
#include "moon/display.hpp"
#include "moon/expected.hpp"
#include "moon/move.hpp"
#include "moon/movegen.hpp"
#include "moon/notation.hpp"
#include "moon/perft.hpp"
#include "moon/position.hpp"
#include "moon/rules.hpp"
#include "moon/score.hpp"
#include "moon/search.hpp"
#include "moon/solver.hpp"
#include "moon/tables.hpp"
#include "moon/version.h"
