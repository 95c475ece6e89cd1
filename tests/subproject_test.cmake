# Builds tests/subproject, which takes moon in with add_subdirectory(), and checks that the parent
# gets the library it links and nothing else: no program or C library built, no test or benchmark
# configured, nothing of moon installed with the parent (cmake -P, for the subproject test).
#   MOON_SOURCE_DIR  the moon sources     SOURCE_DIR  tests/subproject
#   WORK_DIR         a scratch directory  GENERATOR, CXX_COMPILER  as the build used
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
set(build ${WORK_DIR}/build)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${build} -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DMOON_SOURCE_DIR=${MOON_SOURCE_DIR})
run(${CMAKE_COMMAND} --build ${build} --config Release)

file(GLOB_RECURSE cpp_program ${build}/consumer_cpp ${build}/consumer_cpp.exe)
run(${cpp_program})
if(NOT output STREQUAL "perft 4: 255024\nsearch: a legal move\n")
  message(FATAL_ERROR "consumer_cpp printed:\n${output}")
endif()
# Only what the parent links was built.
file(GLOB_RECURSE built ${build}/moon/moon ${build}/moon/moon.exe ${build}/moon/libmoon_c* ${build}/moon/*moon_protocol*
     ${build}/moon/tests/* ${build}/moon/bench/* ${build}/moon/examples/*)
if(built)
  message(FATAL_ERROR "the parent's build made more of moon than the library it links:\n${built}")
endif()
# Installing the parent installs nothing of moon.
run(${CMAKE_COMMAND} --install ${build} --prefix ${WORK_DIR}/prefix --config Release)
file(GLOB_RECURSE installed ${WORK_DIR}/prefix/*)
if(installed)
  message(FATAL_ERROR "installing the parent installed moon's files:\n${installed}")
endif()
message(STATUS "moon as a subdirectory: the parent built the library it links, and installed nothing of moon")
file(REMOVE_RECURSE ${WORK_DIR})
