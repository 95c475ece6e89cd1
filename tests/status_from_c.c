/* moon_status_name() called as a C program calls it: with any int, which C allows for an
 * enum parameter. A C++ caller cannot pass an int outside the enum's range without undefined
 * behaviour of its own, so the C++ tests call this. */
#include "moon/moon.h"

const char* status_name_from_c(int status);

const char* status_name_from_c(int status) { return moon_status_name((moon_status)status); }
