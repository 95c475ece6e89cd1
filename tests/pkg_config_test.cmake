# Installs the build to a temporary prefix, then builds tests/consumer's two programs the way a
# project without CMake would, with the flags `pkg-config --cflags --libs` gives for moon_c and
# moon, and runs them (cmake -P, for the install_pkg_config test).
#   BUILD_DIR  the build to install       SOURCE_DIR    tests/consumer
#   WORK_DIR   a scratch directory        CONFIG        the configuration to install
#   PKG_CONFIG the pkg-config program     VERSION       the project's version
#   C_COMPILER, CXX_COMPILER              as the build used
include(${CMAKE_CURRENT_LIST_DIR}/install_to_prefix.cmake)

file(GLOB_RECURSE pc_files ${prefix}/*/moon_c.pc)
if(NOT pc_files)
  message(FATAL_ERROR "the install lacks moon_c.pc")
endif()
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir ${pc_file} DIRECTORY)

# Runs pkg-config with the arguments given; its output, stripped, is left in `output`.
function(pkg_config)
  run(${PKG_CONFIG} ${ARGN})
  string(STRIP "${output}" output)
  set(output "${output}" PARENT_SCOPE)
endfunction()

# Only the temporary prefix: a moon installed elsewhere on the machine must not be found.
set(ENV{PKG_CONFIG_LIBDIR} ${pc_dir})
set(ENV{PKG_CONFIG_PATH} "")

foreach(package moon moon_c)
  pkg_config(--modversion ${package})
  if(NOT output STREQUAL VERSION)
    message(FATAL_ERROR "pkg-config --modversion ${package} printed '${output}', not ${VERSION}")
  endif()
endforeach()

# The C API, as strict C99, and the C++ library, each with only what pkg-config gives.
pkg_config(--cflags --libs moon_c)
separate_arguments(c_flags UNIX_COMMAND "${output}")
run(${C_COMPILER} -std=c99 -Wall -Wextra -Wpedantic -Werror ${SOURCE_DIR}/consumer.c ${c_flags}
    -o ${WORK_DIR}/consumer_c)
pkg_config(--cflags --libs moon)
separate_arguments(cxx_flags UNIX_COMMAND "${output}")
run(${CXX_COMPILER} -std=c++20 -O1 ${SOURCE_DIR}/consumer.cpp ${cxx_flags} -o ${WORK_DIR}/consumer_cpp)

# The loader finds libmoon_c in pkg-config's libdir, as a user's run script would point it there.
pkg_config(--variable=libdir moon_c)
set(ENV{LD_LIBRARY_PATH} "${output}")
run(${WORK_DIR}/consumer_c)
if(NOT output STREQUAL "position: 5/1x3/5/5/5 o 11 12 0 1\nsearch: a legal move\n")
  message(FATAL_ERROR "consumer_c printed:\n${output}")
endif()
run(${WORK_DIR}/consumer_cpp)
if(NOT output STREQUAL "perft 4: 255024\nsearch: a legal move\n")  # 24!/20! placements (RULES.md)
  message(FATAL_ERROR "consumer_cpp printed:\n${output}")
endif()
message(STATUS "installed to ${prefix}; the consumer programs built with pkg-config's flags and ran")
file(REMOVE_RECURSE ${WORK_DIR})
