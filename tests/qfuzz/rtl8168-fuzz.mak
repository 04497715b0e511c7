# SPDX-License-Identifier: GPL-2.0-or-later
# The devices of rtl8168-sim's fuzz QEMU (scripts/build-qemu --fuzz copies this file to
# configs/devices/x86_64-softmmu/ of the QEMU tree and configures with
# --without-default-devices --with-devices-x86_64=rtl8168-fuzz): the q35 machine of the
# generic-fuzz targets (qemu-patches/0005, generic_fuzz_configs.h), what it selects, and the
# device. Every other board and optional device is left out: they are not fuzzed, and
# compiling them with ASan + UBSan took most of the fuzz build (docs/FUZZING.md).
CONFIG_Q35=y
CONFIG_RTL8168=y
