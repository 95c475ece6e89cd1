/* The library's version: the one place it is written. CMake reads it for the project's
 * version (the package's, the soname's, `moon --version`), and code built against the headers
 * can check it while compiling (C and C++ alike):
 *
 *   #if MOON_VERSION_MAJOR == 0 && MOON_VERSION_MINOR < 3
 *   #error "needs moon 0.3: moon_search_limits.analysis"
 *   #endif
 *
 * Before 1.0 a minor release may change the API and the C library's binary interface.
 * moon_version() gives the version of the library actually loaded. */
#ifndef MOON_VERSION_H
#define MOON_VERSION_H

#define MOON_VERSION_MAJOR 0
#define MOON_VERSION_MINOR 3
#define MOON_VERSION_PATCH 0

#endif
