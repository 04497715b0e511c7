# SPDX-License-Identifier: GPL-2.0-or-later
# The RTL8168 model in its own process (rtl8168-vfio-user, docs/VFIO-USER.md) behind an
# unmodified distribution QEMU: Debian unstable's qemu-system-x86 binary package, fetched into
# the cache by scripts/fetch-distro-qemu, boots the project's guest images on
# -device vfio-user-pci and the stock r8169 drives the model (scripts/run-guest --nic vfio-user).
# Label `vfioguest` on all of them (scripts/test --label vfioguest, ctest -L vfioguest). A test
# gates CI once it has passed 10 runs in a row on a loaded machine: those of
# RTL8168_VFIO_GATING below also carry `qemu` and are in the default run (scripts/test,
# .ci/run); the others carry `qemu-new` as well, which the default run leaves out.
# 2026-12-07, Debian's QEMU 11.1.3, the machine loaded by a QEMU build, two other sessions'
# builds and guest runs and this session's own build (load average 6-14):
#   passed in a row: smoke.6.1 10/10, 22-102 s; smoke.latest 10/10, 27-136 s;
#   offloads.6.1 10/10, 38-100 s; offloads.latest 10/10, 57-177 s;
#   not yet 10 (runs stopped for time, no failure): h.smoke.6.1 5/5, 35-105 s;
#   b.smoke.6.1 4/4, 25-62 s; link-flap.6.1 5/5, 31-87 s; reset.6.1 5/5, 21-95 s;
#   restart.6.1 5/5, 26-96 s.
# Every test first makes sure the distribution QEMU is there; when the registry cannot be
# reached to fetch it, the test skips (exit 77) with fetch-distro-qemu's one-line reason.
#   vfioguest.smoke.K, vfioguest.offloads.K   the scenarios of the in-process device
#   vfioguest.h.smoke.6.1                     the same on the 8168h profile
#   vfioguest.b.smoke.6.1                     the same on the RTL8125B profile: r8169 takes one
#                                             MSI-X vector (its eventfd, the server's BAR 4)
#   vfioguest.link-flap.6.1                   the server's link control (SIGUSR1/SIGUSR2)
#   vfioguest.reset.6.1                       the guest resets the function (a bus reset:
#                                             QEMU's DEVICE_RESET to the server), r8169 again
#   vfioguest.restart.6.1                     two boots, the server restarted between them
set(RTL8168_VFIO_SERVER ${CMAKE_BINARY_DIR}/bin/rtl8168-vfio-user)
add_test(NAME vfioguest.setup
  COMMAND bash -c "set -e; '${RTL8168_SRC}/scripts/setup' guest vfio-user; '${RTL8168_SRC}/scripts/fetch-distro-qemu'; for k in 6.1 latest; do '${RTL8168_SRC}/scripts/build-guest' --kernel $k --quiet; done")
set_tests_properties(vfioguest.setup PROPERTIES
  LABELS "qemu;vfioguest"
  FIXTURES_SETUP rtl8168_vfio_images
  SKIP_RETURN_CODE 77
  TIMEOUT 3600
  RESOURCE_LOCK rtl8168_qemu)

# The tests that passed 10 runs in a row on a loaded machine: labels qemu and vfioguest, in the
# default run. The others also carry qemu-new, which the default run leaves out.
set(RTL8168_VFIO_GATING
  vfioguest.smoke.6.1 vfioguest.smoke.latest vfioguest.offloads.6.1 vfioguest.offloads.latest)

# NAME KERNEL SCENARIO TIMEOUT [run-guest options...]; logs in vfio-runs/NAME
function(rtl8168_vfio_test name kernel scenario timeout)
  math(EXPR guest_timeout "${timeout} - 30")
  string(REPLACE ";" " " extra "${ARGN}")   # one shell line: the options space-separated
  if(name IN_LIST RTL8168_VFIO_GATING)
    set(labels "qemu;vfioguest")
  else()
    set(labels "qemu;vfioguest;qemu-new")
  endif()
  add_test(NAME ${name}
    COMMAND bash -c "'${RTL8168_SRC}/scripts/fetch-distro-qemu' --quiet || exit $?; exec '${RTL8168_SRC}/scripts/run-guest' --nic vfio-user --kernel ${kernel} --scenario ${scenario} --vfio-server '${RTL8168_VFIO_SERVER}' --peer '${CMAKE_BINARY_DIR}/bin/rtl8168-peer' --timeout ${guest_timeout} --out '${CMAKE_BINARY_DIR}/vfio-runs/${name}' ${extra}")
  set_tests_properties(${name} PROPERTIES
    LABELS "${labels}"
    FIXTURES_REQUIRED rtl8168_vfio_images
    SKIP_RETURN_CODE 77
    TIMEOUT ${timeout}
    RESOURCE_LOCK rtl8168_qemu)
endfunction()

foreach(kernel 6.1 latest)
  rtl8168_vfio_test(vfioguest.smoke.${kernel} ${kernel} smoke 240)
  rtl8168_vfio_test(vfioguest.offloads.${kernel} ${kernel} offloads 420)
endforeach()
rtl8168_vfio_test(vfioguest.h.smoke.6.1 6.1 smoke 240 --chip 8168h)
rtl8168_vfio_test(vfioguest.b.smoke.6.1 6.1 smoke 240 --chip 8125b)
rtl8168_vfio_test(vfioguest.link-flap.6.1 6.1 link-flap 240)
rtl8168_vfio_test(vfioguest.reset.6.1 6.1 reset 120)
# --boots 2: each boot has its own run timeout (the one above), CTest's covers both
rtl8168_vfio_test(vfioguest.restart.6.1 6.1 boot 240 --boots 2)
