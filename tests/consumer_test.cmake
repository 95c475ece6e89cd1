# Installs the build to a temporary prefix, then configures, builds and runs tests/consumer
# against it with find_package(moon) (cmake -P, for the install_consumer test).
#   BUILD_DIR  the build to install       SOURCE_DIR  tests/consumer
#   WORK_DIR   a scratch directory        CONFIG      the configuration to install
#   GENERATOR, CXX_COMPILER               as the build used
#   SONAME     libmoon_c's soname (libmoon_c.so.0.3 before 1.0: the minor version is part of it)
include(${CMAKE_CURRENT_LIST_DIR}/install_to_prefix.cmake)

file(GLOB_RECURSE config_files ${prefix}/*/moonConfig.cmake)
file(GLOB_RECURSE c_libraries ${prefix}/*/libmoon_c.so*)
if(NOT config_files OR NOT c_libraries OR NOT EXISTS ${prefix}/include/moon/moon.h)
  message(FATAL_ERROR "the install lacks moonConfig.cmake, libmoon_c or moon/moon.h")
endif()

set(build ${WORK_DIR}/build)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${build} -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
# The package must come from the temporary prefix, not from anywhere else.
string(FIND "${output}" "found in ${prefix}/" found)
if(found EQUAL -1)
  message(FATAL_ERROR "moon was not found in ${prefix}:\n${output}")
endif()
run(${CMAKE_COMMAND} --build ${build} --config Release)

file(GLOB_RECURSE cpp_program ${build}/consumer_cpp ${build}/consumer_cpp.exe)
file(GLOB_RECURSE c_program ${build}/consumer_c ${build}/consumer_c.exe)
run(${cpp_program})
if(NOT output STREQUAL "perft 4: 255024\nsearch: a legal move\n")  # 24!/20! placements (RULES.md)
  message(FATAL_ERROR "consumer_cpp printed:\n${output}")
endif()
run(${c_program})
if(NOT output STREQUAL "position: 5/1x3/5/5/5 o 11 12 0 1\nsearch: a legal move\n")
  message(FATAL_ERROR "consumer_c printed:\n${output}")
endif()
# The C program records the library by its soname, which names the version whose binary
# interface it was built for: a newer, incompatible libmoon_c is then not loaded in its place.
if(NOT CMAKE_HOST_WIN32 AND NOT CMAKE_HOST_APPLE)
  file(STRINGS ${c_program} needed REGEX "^libmoon_c\\.so")
  if(NOT needed STREQUAL "${SONAME}")
    message(FATAL_ERROR "consumer_c needs '${needed}', not the soname ${SONAME}")
  endif()
endif()
# A component that does not exist is refused, with the two that do.
set(unknown ${WORK_DIR}/unknown_component)
file(WRITE ${unknown}/CMakeLists.txt
     "cmake_minimum_required(VERSION 3.25)\nproject(unknown LANGUAGES CXX)\nfind_package(moon REQUIRED CONFIG COMPONENTS cxx fortran)\n")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${unknown} -B ${unknown}/build -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix}
                        -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
string(REGEX REPLACE "[ \t\r\n]+" " " errors "${errors}")  # CMake wraps its messages
if(status EQUAL 0 OR NOT errors MATCHES "moon has no component 'fortran': its components are cxx \\(moon::moon\\) and c \\(moon::moon_c\\)")
  message(FATAL_ERROR "find_package(moon COMPONENTS cxx fortran) was not refused as it should be (${status}):\n${errors}")
endif()
# A project with neither C nor C++ enabled is refused in moon's words, not FindThreads'.
set(no_language ${WORK_DIR}/no_language)
file(WRITE ${no_language}/CMakeLists.txt
     "cmake_minimum_required(VERSION 3.25)\nproject(no_language NONE)\nfind_package(moon REQUIRED CONFIG)\n")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${no_language} -B ${no_language}/build -G ${GENERATOR}
                        -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
                        -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
string(REGEX REPLACE "[ \t\r\n]+" " " errors "${errors}")
if(status EQUAL 0 OR NOT errors MATCHES "moon's libraries are for C and C\\+\\+: enable C or CXX in the project")
  message(FATAL_ERROR "find_package(moon) in a project without C or C++ was not refused as it should be (${status}):\n${errors}")
endif()
message(STATUS "installed to ${prefix}; the consumer project built and ran with moon::moon and moon::moon_c")
file(REMOVE_RECURSE ${WORK_DIR})
